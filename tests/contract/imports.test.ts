/**
 * The import graph follows the module contract (core/module.ts): a module reaches another only
 * through that module's `index.ts` (its public API) and only a module it lists in `requires`
 * (which the registry orders and checks for cycles), or another's `table.ts` from its own
 * `table.ts` (a foreign key). The core imports no module: modules plug into it through the
 * registry, and only the composition root (core/main.ts) imports the module list. Every import
 * counts, `import type`, re-exports and dynamic `import()` included (read by tests/contract/imports.ts,
 * which tests/import-cycles.test.ts reads its runtime imports with too).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { ModuleDef } from '../../core/module.ts'
import { modules } from '../../modules/index.ts'
import { importsOf, type Import } from './imports.ts'
import { appSource, type AppSource, moduleOf } from './source.ts'

/** The rule for one import; null when it is allowed. */
function problem(i: Import, requires: ReadonlyMap<string, readonly string[]>): string | null {
	const where = `${i.from}:${i.line} imports ${i.to}`
	// The module list: the composition root (core/main.ts) is the one file that wires modules in.
	if (i.to === 'modules/index.ts') return i.from === 'core/main.ts' ? null : `${where}: only core/main.ts imports the module list`
	const target = /^modules\/([^/]+)\/(.+)$/.exec(i.to)
	if (!target) return null
	const [, module, path] = target
	if (i.from.startsWith('core/')) return `${where}: the core imports no module`
	const own = moduleOf(i.from)
	if (!own || own === module) return null
	// A foreign key names the row it points at and calls nothing, so it needs no `requires`: every
	// module's rows point at a workspace (auth's table), including those of modules auth requires.
	if (path === 'table.ts' && i.from === `modules/${own}/table.ts`) return null
	if (!(requires.get(own) ?? []).includes(module!)) return `${where}: module "${own}" does not list "${module}" in its requires`
	if (path === 'index.ts') return null
	return `${where}: another module is reached through its index.ts (its table.ts only from a table.ts, for a foreign key)`
}

describe('the import graph', () => {
	let imports: Import[] = []
	let source: AppSource | undefined
	afterAll(() => source?.close())
	beforeAll(async () => {
		source = await appSource()
		const s = source
		imports = (await Promise.all(s.files.map((f) => importsOf(s, f)))).flat()
	}, 120_000)

	test('the parser sees the imports, type-only and dynamic ones included', () => {
		expect(imports.length).toBeGreaterThan(500)
		expect(imports.some((i) => i.from === 'core/module.ts' && i.to === 'core/actor.ts')).toBe(true)
		expect(imports.some((i) => i.from === 'modules/documents/subjects.ts' && i.to === 'modules/candidates/index.ts')).toBe(true)
		// How each loads: `import type` and an import of only types are erased; `import()` loads later.
		const kindOf = (from: string, to: string) => imports.find((i) => i.from === from && i.to === to)?.kind
		expect(kindOf('core/module.ts', 'core/actor.ts')).toBe('type')
		expect(kindOf('modules/outbox/held.ts', 'modules/outbox/port.ts')).toBe('runtime')
		expect(imports.filter((i) => i.kind === 'dynamic').length).toBeGreaterThan(0)
	})

	test('a module imports another only through its index.ts (or table.ts for a foreign key), and only one it requires; the core imports none', () => {
		const requires = new Map((modules as readonly ModuleDef[]).map((m) => [m.name, m.requires ?? []]))
		expect(imports.map((i) => problem(i, requires)).filter(Boolean)).toEqual([])
	})

	test('the rule itself: each kind of import it refuses and allows', () => {
		const requires = new Map([
			['jobs', ['vendors']],
			['vendors', []],
		])
		const check = (from: string, to: string) => problem({ from, to, line: 1, kind: 'runtime' }, requires)
		expect(check('core/app.ts', 'modules/jobs/index.ts')).toContain('the core imports no module')
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
})
