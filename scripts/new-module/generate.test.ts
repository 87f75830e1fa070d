/**
 * `npm run new-module -- <name>`: the names it refuses, and the module it writes, which must work
 * as written. That part runs in a clone of this repository's committed HEAD (node_modules linked):
 * the two commands of the README, then `git status`, the module's own tests, tsc and the linter
 * over it, and one real server (`core/main.ts`) whose MCP endpoint lists and runs the new tool for
 * a role the permission names and hides it from one it does not. Under DATABASE_URL the clone uses
 * a database created for it on that server; otherwise its own embedded one.
 *
 * The whole suite with such a module in the tree is `scripts/new-module/whole-suite.sh`: CI's
 * PostgreSQL pass runs through it (`.ci/run`), so it is not run again from here; and under it, the
 * module's own tests are the suite's to run, not this file's clone's.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { spawnSync } from 'node:child_process'
import { rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { usingPostgres } from '../../tests/helpers.ts'
import { MCP_HEADERS, messageOf } from '../../tests/mcp/rpc.ts'
import { BUN, scratchPostgresDatabase, startServer, tempDir, type ServerProcess } from '../../tests/reliability/processes.ts'
import { listedIn, nameProblems } from './generate.ts'

const ROOT = resolve(import.meta.dir, '../..')
const NAME = 'notes-demo'

describe('names', () => {
	test('lowercase words joined by dashes, at most 40 characters', () => {
		expect(nameProblems(ROOT, 'client-visits')).toEqual([])
		for (const bad of ['Notes', 'notes_demo', 'notes demo', '-notes', 'notes-', 'a--b', '9lives', 'x'.repeat(41)])
			expect(nameProblems(ROOT, bad)).toEqual([expect.stringMatching(/lowercase words joined by dashes|longer than 40/)])
	})

	test('a module that exists, a reserved word, an address, a tool or a table name already in use', () => {
		expect(nameProblems(ROOT, 'todos')).toEqual(['modules/todos already exists'])
		expect(nameProblems(ROOT, 'delete')).toEqual([expect.stringContaining('reserved: a JavaScript keyword')])
		expect(nameProblems(ROOT, 'modules')).toEqual([expect.stringContaining('reserved')])
		expect(nameProblems(ROOT, 'core')).toEqual([expect.stringContaining('reserved')])
		expect(nameProblems(ROOT, 'sign-in')).toEqual([expect.stringContaining('the address /sign-in is already used by')])
		expect(nameProblems(ROOT, 'interview-results')).toEqual(['the tool list_interview_results is already declared in modules/interviews/tools.ts'])
		expect(nameProblems(ROOT, 'job-team')).toEqual(['the database name job_team is already used in modules/jobs/table.ts'])
	})

	test('modules/index.ts gets the import and the list entry, whether the list is on one line or one per line', () => {
		const oneLine = "import a from './a/index.ts'\n\nexport const modules = [a] as const\n"
		expect(listedIn(oneLine, NAME)).toBe(
			"import a from './a/index.ts'\nimport notesDemo from './notes-demo/index.ts'\n\nexport const modules = [a, notesDemo] as const\n",
		)
		const perLine = "import a from './a/index.ts'\n\nexport const modules = [\n\ta,\n] as const\n"
		expect(listedIn(perLine, NAME)).toBe(
			"import a from './a/index.ts'\nimport notesDemo from './notes-demo/index.ts'\n\nexport const modules = [\n\ta,\n\tnotesDemo,\n] as const\n",
		)
		expect(() => listedIn('export default []\n', NAME)).toThrow('modules/index.ts')
	})
})

describe(`a module written by new-module (${NAME}), in a clone of HEAD`, () => {
	const dir = tempDir('benchline-new-module-')
	const clone = join(dir, 'repo')
	/** Settings of every process run in the clone: its own database, never the run's. */
	const env: Record<string, string> = { LOG_LEVEL: 'warn', DEMO: 'off', DATA_DIR: join(dir, 'data') }
	let database: { drop(): Promise<void> } | undefined
	let server: ServerProcess | undefined

	/** Runs a command in the clone; fails the test with its output when it fails. */
	function run(command: string, ...args: string[]): string {
		const { DATABASE_URL: _, ...outer } = process.env
		const result = spawnSync(command, args, {
			cwd: clone,
			env: { ...outer, ...env, PATH: `${resolve(ROOT, 'node_modules/.bin')}:${process.env.PATH}` },
			encoding: 'utf8',
		})
		if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}:\n${result.stdout}\n${result.stderr}`)
		return result.stdout
	}
	const cli = (...args: string[]) =>
		JSON.parse(
			run(BUN, 'core/cli.ts', ...args, '--json')
				.trim()
				.split('\n')
				.at(-1)!,
		)

	beforeAll(async () => {
		if (usingPostgres()) {
			const scratch = await scratchPostgresDatabase()
			env.DATABASE_URL = scratch.url
			database = scratch
		}
		expect(spawnSync('git', ['clone', '-q', ROOT, clone]).status).toBe(0)
		symlinkSync(resolve(ROOT, 'node_modules'), join(clone, 'node_modules'))
		run('npm', 'run', 'new-module', '--', NAME)
		run('npm', 'run', 'db:generate', '--', '--name', NAME.replaceAll('-', '_'))
	}, 120_000)

	afterAll(async () => {
		server?.kill('SIGKILL')
		await server?.exited
		await database?.drop()
		rmSync(dir, { recursive: true, force: true })
	})

	test('a bad name is refused with the reason, and nothing is written', () => {
		const before = run('git', 'status', '--porcelain', '--untracked-files=all')
		const result = spawnSync(BUN, ['scripts/new-module/generate.ts', 'todos'], { cwd: clone, encoding: 'utf8' })
		expect(result.status).toBe(2)
		expect(result.stderr).toContain('modules/todos already exists')
		expect(spawnSync(BUN, ['scripts/new-module/generate.ts'], { cwd: clone, encoding: 'utf8' }).stderr).toContain('usage: npm run new-module -- <name>')
		expect(spawnSync(BUN, ['scripts/new-module/generate.ts', 'Client_Visits'], { cwd: clone, encoding: 'utf8' }).stderr).toContain(
			'not lowercase words joined by dashes',
		)
		expect(run('git', 'status', '--porcelain', '--untracked-files=all')).toBe(before)
	})

	test('the two commands change only the module’s folder and modules/index.ts', () => {
		const changed = run('git', 'status', '--porcelain', '--untracked-files=normal')
			.split('\n')
			.filter(Boolean)
			.map((line) => line.slice(3))
			.sort()
		expect(changed).toEqual(['modules/index.ts', `modules/${NAME}/`])
		expect(run('git', 'status', '--porcelain', '--untracked-files=all', `modules/${NAME}/migrations`)).toContain(
			`modules/${NAME}/migrations/0000_${NAME.replaceAll('-', '_')}.sql`,
		)
		expect(run('git', 'diff', 'modules/index.ts')).toContain("+import notesDemo from './notes-demo/index.ts'")
	})

	// Under whole-suite.sh the suite that runs this file holds the same module and runs its tests: not twice.
	test.skipIf(process.env.BENCHLINE_SUITE_HAS_SCAFFOLD === '1')(
		'its own tests pass',
		() => {
			run(BUN, 'test', '--timeout', '120000', `modules/${NAME}`)
		},
		300_000,
	)

	test('tsc and the linter accept it', () => {
		run(resolve(ROOT, 'node_modules/.bin/biome'), 'ci', `modules/${NAME}`)
		writeFileSync(join(clone, 'tsconfig.module.json'), JSON.stringify({ extends: './tsconfig.json', include: [`modules/${NAME}`] }))
		run(resolve(ROOT, 'node_modules/.bin/tsc'), '--noEmit', '-p', 'tsconfig.module.json')
	}, 180_000)

	test('the server starts with it: the tool answers a role the permission names and is hidden from one it does not', async () => {
		const ws = cli('workspace', 'create', '--slug', 'gen', '--name', 'Generated')
		expect(ws.workspaceId).toBeString()
		const tokens: Record<string, string> = {}
		for (const role of ['recruiter', 'viewer']) {
			const email = `${role}@gen.test`
			cli('user', 'create', '--workspace', 'gen', '--email', email, '--name', role, '--role', role, '--password', 'correct horse battery')
			tokens[role] = cli('token', 'create', '--workspace', 'gen', '--email', email, '--name', 'test').token
		}
		server = await startServer(env, { root: clone })
		let id = 1
		const mcp = async (role: string, method: string, params: Record<string, unknown> = {}) => {
			const res = await fetch(`${server!.url}/api/mcp`, {
				method: 'POST',
				headers: { ...MCP_HEADERS, 'content-type': 'application/json', authorization: `Bearer ${tokens[role]}` },
				body: JSON.stringify({ jsonrpc: '2.0', id: id++, method, params }),
			})
			expect(res.status).toBe(200)
			return messageOf(await res.text())
		}
		const tool = 'list_notes_demo'
		expect((await mcp('recruiter', 'tools/list')).result.tools.map((t: { name: string }) => t.name)).toContain(tool)
		const answer = await mcp('recruiter', 'tools/call', { name: tool, arguments: {} })
		expect(answer.result.isError).toBeFalsy()
		expect(answer.result.structuredContent).toEqual({ entries: [], nextCursor: null })
		expect((await mcp('viewer', 'tools/list')).result.tools.map((t: { name: string }) => t.name)).not.toContain(tool)
	}, 240_000)
})
