/**
 * A fresh install prints no install-script warning (issue 33): package.json's `allowScripts` says,
 * for every installed dependency with an install script, whether it may run. npm 11.16 and later
 * warn about any it does not cover, and npm 12 skips them; bun's must run, or `npm test` cannot
 * start. The check is npm's own (`npm install-scripts ls`), on the installed tree.
 */
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'

const ROOT = join(import.meta.dir, '../..')
const npm = (...args: string[]) => Bun.spawnSync(['npm', ...args], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
/** npm before 11.16 has no install-script policy, so nothing to warn about. */
const npmHasPolicy = Bun.semver.satisfies(npm('--version').stdout.toString().trim(), '>=11.16.0')

describe('install scripts', () => {
	test.skipIf(!npmHasPolicy)('allowScripts covers every installed dependency with an install script', () => {
		const listed = npm('install-scripts', 'ls', '--json')
		expect({ exitCode: listed.exitCode, stderr: listed.stderr.toString() }).toEqual({ exitCode: 0, stderr: '' })
		const pending = JSON.parse(listed.stdout.toString()) as { allowScripts: { name: string }[] }
		expect(pending.allowScripts.map((p) => p.name)).toEqual([])
	})
})
