/** The README's module and tool tables are the registry's (tests/readme-tables.ts writes them). */
import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { contribute, defineModule, definePort } from '../core/module.ts'
import { jobFacts } from '../modules/jobs/index.ts'
import { buildRegistry } from '../core/registry.ts'
import { modules } from '../modules/index.ts'
import { README, tables, withTables } from './readme-tables.ts'
import { isTrackedModule } from './tracked-modules.ts'

test('the README’s module and tool tables match the registry (if not: run npm run docs:tables)', () => {
	const readme = readFileSync(README, 'utf8')
	const all = buildRegistry(modules).modules
	// A module not yet added to git (just made by new-module) may be in the tables or not.
	const expected = [withTables(readme, tables(all)), withTables(readme, tables(all.filter((m) => isTrackedModule(m.name))))]
	if (!expected.includes(readme)) throw new Error('README.md’s module or tool table differs from the registry: run npm run docs:tables')
	expect(readme).toContain('| `list_jobs`, `get_job`')
})

test('a module added, or a tool changed, changes the tables', () => {
	const readme = readFileSync(README, 'utf8')
	const greetings = definePort<string>('extra:greeting', 'Greetings')
	const extra = defineModule({
		name: 'extra',
		description: 'An extra module',
		requires: ['jobs'],
		paths: ['/extra'],
		ports: [greetings],
		contributes: [contribute(greetings, 'hi'), contribute(jobFacts, async () => new Map())],
	})
	const changed = withTables(readme, tables([extra]))
	expect(changed).not.toBe(readme)
	expect(changed).toContain('| `extra` | An extra module | `jobs` |  | `/extra` | `extra:greeting` | `extra:greeting`, `jobs:facts` |')
	expect(() => withTables('no markers here', tables())).toThrow('README.md has no')
})
