/**
 * Which modules git already tracks. The README's generated tables and the tool snapshots must
 * describe every tracked module exactly; a module just made by `npm run new-module` is not tracked
 * yet, so those two checks leave it out until it is added (run `npm run docs:tables` and
 * `npm run snapshots:tools` before committing it). That keeps the drop-in promise: right after
 * `new-module` and `db:generate`, only the module's folder and its line in modules/index.ts have
 * changed and the whole suite is green. Outside a git checkout every module counts as tracked.
 */
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '..')

let tracked: Set<string> | null | undefined

/** True when git tracks `modules/<name>/index.ts` (or when there is no git checkout to ask). */
export function isTrackedModule(name: string): boolean {
	if (tracked === undefined) {
		const ls = spawnSync('git', ['ls-files', '--', 'modules/*/index.ts'], { cwd: ROOT, encoding: 'utf8' })
		tracked =
			ls.status === 0
				? new Set(
						ls.stdout
							.split('\n')
							.filter(Boolean)
							.map((path) => path.split('/')[1]!),
					)
				: null
	}
	return tracked === null || tracked.has(name)
}
