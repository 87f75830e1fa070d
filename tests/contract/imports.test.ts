/**
 * The import rules of the layers are checked by `npm run lint` (scripts/check-imports.ts, README
 * "Architecture"): db/ imports nothing above it, the core imports no module, a module reaches another only
 * through its index.ts and only one it requires, and core/ and db/ have no import cycle, types included.
 * This test checks the check: run as the lint runs it, on a small tree laid out like the repository, it
 * reports each forbidden import at its own line and column and nothing that is allowed; and the
 * `requires` it reads from each module's index.ts are the registry's.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { ModuleDef } from '../../core/module.ts'
import { modules } from '../../modules/index.ts'
import { boundaryProblem, readApp, requiresOf, ROOT } from '../../scripts/check-imports.ts'

const FIXTURE: Record<string, string> = {
	'core/main.ts': `import { modules } from '../modules/index.ts'\nexport const all = modules\n`,
	'core/app.ts': `/** The app. */\n\nimport type { Jobs } from '../modules/jobs/index.ts'\nexport type App = Jobs\n`,
	// A cycle made only of type imports.
	'core/a.ts': `import type { B } from './b.ts'\nexport interface A { b?: B }\n`,
	'core/b.ts': `// B refers back to A.\nimport type { A } from './a.ts'\nexport interface B { a?: A }\n`,
	'core/config.ts': `export interface Config { url: string }\n`,
	'db/client.ts': `/**\n * The database.\n */\nimport type { Config } from '../core/config.ts'\nexport const open = (c: Config) => c.url\n`,
	'modules/index.ts': `import jobs from './jobs/index.ts'\nexport const modules = [jobs]\n`,
	'modules/jobs/index.ts': `export type Jobs = { name: string }\nexport default { name: 'jobs', requires: ['vendors'] }\n`,
	'modules/jobs/service.ts': [
		`import { internal } from '../vendors/service.ts'`,
		`import { y } from '../vendors/index.ts'`,
		`import {`,
		`\tz,`,
		`} from '../vendors/internal.ts'`,
		`export const later = () => import('../search/index.ts')`,
		`export const all = [internal, y, z]`,
		``,
	].join('\n'),
	'modules/jobs/table.ts': `export const jobs = 'jobs'\n`,
	'modules/vendors/index.ts': `export const y = 1\nexport default { name: 'vendors' }\n`,
	'modules/vendors/service.ts': `export const internal = 2\n`,
	'modules/vendors/internal.ts': `export const z = 3\n`,
	'modules/vendors/table.ts': `import { jobs } from '../jobs/table.ts'\nexport const vendors = jobs\n`,
	'modules/search/index.ts': `\n\nimport { modules } from '../index.ts'\nexport default { name: 'search', requires: [...modules.map((m) => m.name)] }\n`,
}

describe('the import check (npm run lint)', () => {
	let dir = ''
	beforeAll(() => {
		dir = mkdtempSync(join(tmpdir(), 'benchline-imports-'))
		for (const [name, text] of Object.entries(FIXTURE)) {
			mkdirSync(dirname(join(dir, name)), { recursive: true })
			writeFileSync(join(dir, name), text)
		}
	})
	afterAll(() => rmSync(dir, { recursive: true, force: true }))

	test('reports each forbidden import at its line and column, and fails', () => {
		const run = Bun.spawnSync([process.execPath, join(ROOT, 'scripts/check-imports.ts'), dir], { stdout: 'pipe', stderr: 'pipe' })
		const lines = run.stderr.toString().trim().split('\n')
		expect(lines.slice(0, -2)).toEqual([
			`core/a.ts:1:24 import cycle (type imports count; move what both need to a leaf file): core/a.ts → core/b.ts → core/a.ts`,
			`core/app.ts:3:27 the core imports no module: modules/jobs/index.ts`,
			`core/b.ts:2:24 import cycle (type imports count; move what both need to a leaf file): core/b.ts → core/a.ts → core/b.ts`,
			`db/client.ts:4:29 db/ imports nothing from core/ (it is the layer below): core/config.ts`,
			`modules/jobs/service.ts:1:26 another module is reached through its index.ts (its table.ts only from a table.ts, for a foreign key): modules/vendors/service.ts`,
			`modules/jobs/service.ts:5:8 another module is reached through its index.ts (its table.ts only from a table.ts, for a foreign key): modules/vendors/internal.ts`,
			`modules/jobs/service.ts:6:35 module "jobs" does not list "search" in its requires: modules/search/index.ts`,
			`modules/search/index.ts:3:25 only core/main.ts imports the module list (modules/index.ts)`,
			`modules/search/index.ts:4:44 \`requires\` must be a list of module names in quotes (this check reads it)`,
		])
		expect(lines.at(-1)).toContain('9 imports break')
		expect(run.exitCode).toBe(1)
	}, 60_000)

	test('each rule on its own: what it refuses and what it allows', () => {
		const requires = new Map([
			['jobs', ['vendors']],
			['vendors', []],
		])
		const check = (from: string, to: string) => boundaryProblem({ from, to }, requires)
		expect(check('db/client.ts', 'core/config.ts')).toContain('db/ imports nothing from core/')
		expect(check('db/migrate.ts', 'modules/jobs/table.ts')).toContain('db/ imports nothing from modules/')
		expect(check('db/migrate.ts', 'db/core-tables.ts')).toBeNull()
		expect(check('core/app.ts', 'modules/jobs/index.ts')).toContain('the core imports no module')
		expect(check('core/app.ts', 'db/client.ts')).toBeNull()
		expect(check('modules/vendors/directory.ts', 'modules/jobs/table.ts')).toContain('does not list "jobs" in its requires')
		expect(check('modules/vendors/directory.ts', 'modules/jobs/index.ts')).toContain('does not list "jobs" in its requires')
		expect(check('modules/jobs/pages.ts', 'modules/index.ts')).toContain('only core/main.ts')
		expect(check('core/main.ts', 'modules/index.ts')).toBeNull()
		expect(check('modules/vendors/table.ts', 'modules/jobs/table.ts')).toBeNull()
		expect(check('modules/jobs/service.ts', 'modules/vendors/service.ts')).toContain('through its index.ts')
		expect(check('modules/jobs/service.ts', 'modules/vendors/table.ts')).toContain('through its index.ts')
		expect(check('modules/jobs/table.ts', 'modules/vendors/table.ts')).toBeNull()
		expect(check('modules/jobs/service.ts', 'modules/vendors/index.ts')).toBeNull()
		expect(check('modules/jobs/service.ts', 'modules/jobs/table.ts')).toBeNull()
		expect(check('modules/jobs/service.ts', 'core/module.ts')).toBeNull()
	})

	test("the requires it reads from each module's index.ts are the registry's", async () => {
		const read = await readApp(ROOT, (files) => requiresOf(files))
		expect(read.problems).toEqual([])
		const registry = new Map((modules as readonly ModuleDef[]).map((m) => [m.name, [...(m.requires ?? [])]]))
		expect(Object.fromEntries(read.requires)).toEqual(Object.fromEntries(registry))
	}, 60_000)
})
