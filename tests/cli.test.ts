/**
 * The operator CLI as operators run it: a separate process (`bun core/cli.ts …`) on the embedded
 * database in a fresh DATA_DIR, or on DATABASE_URL when the test run uses PostgreSQL.
 * The tests in this file run in order and build on each other (one workspace, one vendor).
 */
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { sql } from 'drizzle-orm'
import { describeFailure, runCommand } from '../core/cli.ts'
import { loadConfig } from '../core/config.ts'
import { createLogger } from '../core/log.ts'
import type { AppDeps } from '../core/deps.ts'
import { createApp, createDeps } from '../core/main.ts'
import { openDatabase } from '../db/client.ts'
import { invitePerson, operatorActor } from '../modules/auth/index.ts'
import { signIn } from '../modules/auth/sessions.ts'
import { enqueueMail } from '../modules/outbox/index.ts'
import { callOn, testApp, unique, usingPostgres } from './helpers.ts'

const ROOT = resolve(import.meta.dir, '..')
const BUN = resolve(ROOT, 'node_modules/.bin/bun')
const dataDir = mkdtempSync(join(tmpdir(), 'benchline-cli-'))
const extraDirs: string[] = []

afterAll(() => {
	for (const dir of [dataDir, ...extraDirs]) rmSync(dir, { recursive: true, force: true })
})

interface Run {
	code: number
	stdout: string
	stderr: string
	/** The last line of stdout parsed as JSON (undefined when it is not JSON). */
	json: any
}

/** Runs the CLI as a separate process. `env` overrides; DATABASE_URL is passed on only when the run uses it. */
async function cli(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
	const base: Record<string, string | undefined> = {
		PATH: process.env.PATH,
		HOME: process.env.HOME,
		DATA_DIR: dataDir,
		DEMO: 'off',
		LOG_LEVEL: 'warn',
		DATABASE_URL: process.env.DATABASE_URL,
		// The run's password-hash cost (tests/setup.ts): at the full cost each hash and check took most of a second.
		PASSWORD_HASH_FAST: process.env.PASSWORD_HASH_FAST,
	}
	const merged = Object.fromEntries(Object.entries({ ...base, ...env }).filter(([, v]) => v !== undefined)) as Record<string, string>
	const proc = Bun.spawn([BUN, 'core/cli.ts', ...args], { cwd: ROOT, env: merged, stdout: 'pipe', stderr: 'pipe' })
	const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
	const lines = stdout.trimEnd().split('\n')
	let json: any
	try {
		json = JSON.parse(lines[lines.length - 1] ?? '')
	} catch {
		json = undefined
	}
	return { code, stdout, stderr, json }
}

/** Expects success and exactly one JSON object on the last line of the output. */
function expectJson(run: Run): Record<string, any> {
	if (run.code !== 0) throw new Error(`CLI exited ${run.code}: ${run.stderr}`)
	expect(run.json).toBeObject()
	expect(Array.isArray(run.json)).toBe(false)
	const lines = run.stdout.trimEnd().split('\n')
	expect(lines[lines.length - 1]!.startsWith('{')).toBe(true)
	// Only the last line is JSON: the lines before it are for people.
	for (const line of lines.slice(0, -1)) expect(line.startsWith('{')).toBe(false)
	return run.json
}

/**
 * The database the CLI wrote to, with an app on it: the shared test database on PostgreSQL, or the
 * embedded database in DATA_DIR, opened by this process (which then holds its lock).
 */
async function withCliDatabase<T>(fn: (deps: AppDeps, app: ReturnType<typeof createApp>) => Promise<T>): Promise<T> {
	if (usingPostgres()) {
		const { app, deps } = await testApp()
		return fn(deps, app)
	}
	const database = await openDatabase({ databaseUrl: undefined, dataDir })
	try {
		const config = loadConfig({ DATA_DIR: dataDir, BASE_URL: 'http://localhost:3000', LOG_LEVEL: 'warn' })
		const deps = await createDeps({ config, database })
		return await fn(deps, createApp(deps))
	} finally {
		await database.close()
	}
}

async function seededTitles(deps: AppDeps, workspaceId: string) {
	return deps.database.rows<{ title: string; status: string; vendorJobId: string | null }>(
		sql`select title, status, vendor_job_id as "vendorJobId" from jobs where workspace_id = ${workspaceId} order by created_at, id`,
	)
}

async function counts(deps: AppDeps, workspaceId: string) {
	const [row] = await deps.database.rows<{ jobs: number; vendors: number }>(
		sql`select (select count(*)::int from jobs where workspace_id = ${workspaceId}) as jobs, (select count(*)::int from vendors where workspace_id = ${workspaceId}) as vendors`,
	)
	return row!
}

/** Expects a failure whose last line of standard output is `{"error","fields"}` (as --json asks). */
function expectJsonError(run: Run, code: number): string {
	expect({ code: run.code, json: run.json }).toEqual({ code, json: { error: expect.any(String), fields: expect.any(Array) } })
	return run.json.error
}

describe('bad arguments', () => {
	test('print a usage line and exit 2; with --json, anywhere, the last line of standard output is {"error","fields"}', async () => {
		const cases = [
			[],
			['nonsense'],
			['vendor', 'explode', '--json'],
			['workspace', 'create', '--slug', 'only-slug', '--json'],
			['vendor', 'create', '--workspace', 'w', '--name', 'n', '--colour', 'red', '--json'],
			['user', 'create', '--workspace', 'w', '--email', 'a@b.c', '--json'],
		]
		const runs = await Promise.all(cases.map((args) => cli(args)))
		for (const [i, run] of runs.entries()) {
			expect({ args: cases[i], code: run.code }).toEqual({ args: cases[i], code: 2 })
			expect(run.stderr).toContain('usage: ')
			if (cases[i]!.includes('--json')) expect(run.stdout.trim().split('\n')).toEqual([JSON.stringify({ error: run.json?.error, fields: [] })])
			else expect(run.stdout.trim()).toBe('')
		}
		expect(runs[3]!.json.error).toBe('missing --name')
		// A command's own usage line is printed for its mistakes.
		expect(runs[3]!.stderr).toContain('--name')
		expect(runs[3]!.stderr).toContain('workspace create --slug S --name N')
	}, 60_000)

	test('an option given twice is refused, not silently the last one', async () => {
		const run = await cli(['workspace', 'create', '--slug', 'ws6', '--slug', 'ws7', '--name', 'Twice', '--json'])
		expect(expectJsonError(run, 2)).toBe('--slug is given more than once')
		const flag = await cli(['outbox', 'release', '--all', '--all'])
		expect(flag.code).toBe(2)
		expect(flag.stderr).toContain('--all is given more than once')
	}, 60_000)

	test('options at odds with each other are bad arguments, answered before the database is opened: exit 2 with the usage line', async () => {
		const cases = [
			['audit', 'export', '--workspace', 'demo', '--since', '2026-01-01', '--until', '2025-01-01', '--format', 'csv', '--json'],
			['documents', 'revoke-link', '--json'],
			['outbox', 'release', '--id', 'x', '--workspace', 'w', '--json'],
			['vendor', 'api-access', '--vendor', 'v', '--on', '--off', '--json'],
		]
		// A DATA_DIR no database can be made in: a command that got as far as opening one would fail with exit 1.
		const runs = await Promise.all(cases.map((args) => cli(args, { DATA_DIR: '/dev/null/none' })))
		for (const [i, run] of runs.entries()) {
			expect({ args: cases[i], code: run.code, usage: run.stderr.includes(`usage: npm run cli -- ${cases[i]![0]} ${cases[i]![1]}`) }).toEqual({
				args: cases[i],
				code: 2,
				usage: true,
			})
			expect(run.stdout.trim().split('\n')).toEqual([JSON.stringify({ error: run.json?.error, fields: [] })])
		}
		expect(runs[0]!.json.error).toBe('--until must be later than --since')
	}, 60_000)

	test('help, --help and -h print the usage lines on standard output and exit 0; a command named with --help, its own', async () => {
		const [help, dashes, short, command] = await Promise.all([cli(['help']), cli(['--help']), cli(['-h']), cli(['workspace', 'create', '--help'])])
		for (const run of [help, dashes, short]) {
			expect(run.code).toBe(0)
			expect(run.stdout).toContain('usage: npm run cli -- ')
			expect(run.stdout).toContain('workspace create --slug S --name N')
			expect(run.stdout).toContain('audit export')
			expect(run.stderr).toBe('')
		}
		expect(command.code).toBe(0)
		expect(command.stdout.trim()).toBe('usage: npm run cli -- workspace create --slug S --name N [--json]')
	}, 60_000)

	test('a bad setting fails with the JSON line too, before the database is opened', async () => {
		const run = await cli(['workspace', 'list', '--json'], { PORT: 'abc' })
		expect(expectJsonError(run, 1)).toContain('PORT must be a whole number')
		expect(run.stderr).toContain('PORT must be a whole number')
	}, 60_000)
})

describe('unexpected errors', () => {
	test('are described as the server logs them: a failed query by its SQLSTATE, never its statement nor its values', () => {
		const driver = Object.assign(new Error('date/time field value out of range: "0000-01-01T00:00:00.000Z"'), { code: '22008', severity: 'ERROR' })
		const query = new Error('Failed query: select * from audit_log where workspace_id = $1 and at >= $2\nparams: ws_secret,0000-01-01T00:00:00.000Z', {
			cause: driver,
		})
		const failure = describeFailure(query, createLogger('silent'))
		expect(failure).toMatchObject({ code: 1, message: 'database query failed (22008)' })
		expect(failure.message).not.toContain('ws_secret')
		const leaked = describeFailure(new Error('cannot reach postgres://app:hunter2@db:5432/x'), createLogger('silent'))
		expect(leaked.message).not.toContain('hunter2')
	})
})

const slug = unique('cli').toLowerCase().slice(0, 30)
// The first command creates the embedded database (seconds): start it at once, so the usage
// checks below run meanwhile (they never open the database).
const firstRun = cli(['workspace', 'create', '--slug', slug, '--name', 'CLI Staffing', '--json'])

describe('operator commands with --json', () => {
	const state: { workspaceId?: string; vendorId?: string; firstKey?: { keyId: string; apiKey: string }; secondKey?: { keyId: string; apiKey: string } } = {}

	test('workspace create --slug S --name N → {"workspaceId"}', async () => {
		const out = expectJson(await firstRun)
		expect(Object.keys(out)).toEqual(['workspaceId'])
		expect(out.workspaceId).toMatch(/^ws_/)
		state.workspaceId = out.workspaceId
	}, 60_000)

	test('user create → {"userId"}', async () => {
		const out = expectJson(
			await cli([
				'user',
				'create',
				'--workspace',
				slug,
				'--email',
				`${slug}@example.test`,
				'--name',
				'Olive Owner',
				'--role',
				'owner',
				'--password',
				'correct horse battery',
				'--json',
			]),
		)
		expect(Object.keys(out)).toEqual(['userId'])
		expect(out.userId).toMatch(/^usr_/)
	}, 60_000)

	test('vendor create → {"vendorId","keyId","apiKey"}; vendor key-create → {"keyId","apiKey"}', async () => {
		const created = expectJson(await cli(['vendor', 'create', '--workspace', slug, '--name', 'CLI Vendor', '--json']))
		expect(Object.keys(created).sort()).toEqual(['apiKey', 'keyId', 'vendorId'])
		expect(created.vendorId).toMatch(/^ven_/)
		expect(created.apiKey).toMatch(/^bl_vk_/)
		state.vendorId = created.vendorId
		state.firstKey = { keyId: created.keyId, apiKey: created.apiKey }
		const key = expectJson(await cli(['vendor', 'key-create', '--vendor', created.vendorId, '--json']))
		expect(Object.keys(key).sort()).toEqual(['apiKey', 'keyId'])
		expect(key.apiKey).not.toBe(created.apiKey)
		state.secondKey = { keyId: key.keyId, apiKey: key.apiKey }
	}, 60_000)

	test('vendor key-revoke and vendor api-access --off print one JSON object', async () => {
		const revoked = expectJson(await cli(['vendor', 'key-revoke', '--key', state.firstKey!.keyId, '--json']))
		expect(revoked).toMatchObject({ keyId: state.firstKey!.keyId })
		const off = expectJson(await cli(['vendor', 'api-access', '--vendor', state.vendorId!, '--off', '--json']))
		expect(off).toMatchObject({ vendorId: state.vendorId, apiAccess: false })
	}, 60_000)

	test('seed --workspace S → {"workspaceId"}', async () => {
		const out = expectJson(await cli(['seed', '--workspace', slug, '--json']))
		expect(out.workspaceId).toBe(state.workspaceId)
	}, 60_000)

	test('the commands took effect; seeding is deterministic and seeding twice adds nothing', async () => {
		await withCliDatabase(async (deps, app) => {
			// The revoked key is 401; the vendor's other key is 403 now that its API access is off.
			expect((await callOn(app, 'GET', '/api/v1/jobs', { key: state.firstKey!.apiKey })).status).toBe(401)
			expect((await callOn(app, 'GET', '/api/v1/jobs', { key: state.secondKey!.apiKey })).status).toBe(403)
			const vendorLines = await deps.database.rows<{ action: string; credentialName: string }>(
				sql`select action, credential_name as "credentialName" from activity where target_id = ${state.vendorId!} order by at, seq`,
			)
			expect(vendorLines.map((l) => l.action).sort()).toEqual([
				'vendor.api_access_off',
				'vendor.created',
				'vendor.key_created',
				'vendor.key_created',
				'vendor.key_revoked',
			])
			expect(vendorLines.every((l) => l.credentialName === 'operator CLI')).toBe(true)
			expect(
				(
					await deps.database.rows(
						sql`select 1 from memberships m join users u on u.id = m.user_id where m.workspace_id = ${state.workspaceId!} and u.email = ${`${slug}@example.test`} and m.role = 'owner'`,
					)
				).length,
			).toBe(1)

			// Demo data: vendors and jobs in every state.
			const seeded = await seededTitles(deps, state.workspaceId!)
			expect(seeded.length).toBeGreaterThan(10)
			expect(new Set(seeded.map((j) => j.status))).toEqual(new Set(['Open', 'Closed', 'Draft']))
			const before = await counts(deps, state.workspaceId!)
			expect(before.vendors).toBeGreaterThan(1)
			// Seeding again adds no rows.
			await runCommand(deps, 'seed', { workspace: slug })
			expect(await counts(deps, state.workspaceId!)).toEqual(before)
			// Another workspace seeded gets the same jobs in the same states.
			const other = unique('cli2').toLowerCase().slice(0, 30)
			const { json } = await runCommand(deps, 'workspace create', { slug: other, name: 'Other' })
			await runCommand(deps, 'seed', { workspace: other })
			expect((await seededTitles(deps, String(json.workspaceId))).map((j) => [j.title, j.status])).toEqual(seeded.map((j) => [j.title, j.status]))
		})
	}, 60_000)

	test('candidate export and candidate erase are in the audit trail once the CLI has exited (its buffer is written before it exits)', async () => {
		const [candidate] = await withCliDatabase((deps) =>
			deps.database.rows<{ id: string }>(sql`select id from candidates where workspace_id = ${state.workspaceId!} order by id limit 1`),
		)
		const out = join(dataDir, 'candidate-export.zip')
		expect(expectJson(await cli(['candidate', 'export', '--candidate', candidate!.id, '--out', out, '--json']))).toMatchObject({ candidateId: candidate!.id })
		expect(expectJson(await cli(['candidate', 'erase', '--candidate', candidate!.id, '--json']))).toMatchObject({ candidateId: candidate!.id })
		const lines = await withCliDatabase((deps) =>
			deps.database.rows<{ action: string; address: string }>(
				sql`select action, address from audit_log where workspace_id = ${state.workspaceId!} and ${candidate!.id} = any(record_ids) and kind <> 'search' order by at, seq`,
			),
		)
		expect(lines).toEqual([
			{ action: 'candidate.exported', address: 'cli' },
			{ action: 'candidate.erased', address: 'cli' },
		])
	}, 60_000)

	test('workspace list → {"workspaces":[{"workspaceId","slug","name"}]}; --json may come first', async () => {
		const out = expectJson(await cli(['--json', 'workspace', 'list']))
		expect(Object.keys(out)).toEqual(['workspaces'])
		const mine = out.workspaces.find((w: any) => w.slug === slug)
		expect(mine).toEqual({ workspaceId: state.workspaceId, slug, name: 'CLI Staffing' })
		for (const w of out.workspaces) expect(Object.keys(w)).toEqual(['workspaceId', 'slug', 'name'])
	}, 60_000)

	test("stored names reach the operator's terminal escaped: no newline, ESC sequence or direction override acts there", async () => {
		const hostile = `Evil\u001b[2J\u001b]0;pwned\u0007\u202eName\nforged line\u009b31m`
		const other = unique('esc').toLowerCase().slice(0, 30)
		// Written straight to the table: names stored before names were checked.
		await withCliDatabase(async (deps) => {
			await runCommand(deps, 'workspace create', { slug: other, name: 'Plain' })
			await deps.database.rows(sql`update workspaces set name = ${hostile} where slug = ${other}`)
		})
		const human = await cli(['workspace', 'list'])
		expect(human.code).toBe(0)
		const line = human.stdout.split('\n').find((l) => l.startsWith(`${other}  `))!
		expect(line).toContain('Evil\\u001b[2J\\u001b]0;pwned\\u0007\\u202eName\\nforged line\\u009b31m')
		expect(human.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/)
		expect(human.stdout).not.toContain('\nforged line')
		// With --json the value is the same, its controls written as JSON escapes.
		const json = await cli(['workspace', 'list', '--json'])
		expect(json.json.workspaces.find((w: any) => w.slug === other).name).toBe(hostile)
		expect(json.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/)
	}, 60_000)

	test("two --grant options are both read (a list option); webhook add says a refused address's reason once", async () => {
		const run = await cli([
			'user',
			'create',
			'--workspace',
			slug,
			'--email',
			`grants-${slug}@example.test`,
			'--name',
			'Two Grants',
			'--role',
			'recruiter',
			'--password',
			'correct horse battery',
			'--grant',
			'no:such-permission',
			'--grant',
			'jobs:actively_hiring',
			'--json',
		])
		expect(expectJsonError(run, 1)).toBeString()
		expect(run.stderr).toContain('no:such-permission')
		const hook = await cli(['webhook', 'add', '--workspace', slug, '--url', 'http://hooks.example.com/x', '--events', 'job.published', '--json'])
		expect(expectJsonError(hook, 1)).toBeString()
		const line = hook.stderr.split('\n').find((l) => l.startsWith('error: '))!
		expect(line.match(/must start with https:\/\//g)).toHaveLength(1)
	}, 60_000)

	test('user list --workspace S → {"users":[{"userId","email","name","role"}]}: members only', async () => {
		// Someone invited (an account made, not yet accepted) is not a user of the workspace.
		await withCliDatabase((deps) =>
			invitePerson(
				deps,
				operatorActor({ id: state.workspaceId!, slug }),
				{ id: state.workspaceId!, slug },
				{ email: `invited-${slug}@example.test`, name: 'Not Yet', role: 'viewer', password: 'temporary password' },
			),
		)
		const out = expectJson(await cli(['user', 'list', '--workspace', slug, '--json']))
		expect(out).toEqual({ users: [{ userId: expect.stringMatching(/^usr_/), email: `${slug}@example.test`, name: 'Olive Owner', role: 'owner' }] })
		// A workspace that does not exist is a clear error, not an empty list.
		const missing = await cli(['user', 'list', '--workspace', 'no-such-workspace', '--json'])
		expect(missing.code).toBe(1)
		expect(missing.stderr).toContain('No workspace with the slug "no-such-workspace"')
	}, 60_000)

	test('user set-grants → {"userId","grants","alreadyInRole"}: gives an extra permission after the person joined, and ends it', async () => {
		const email = `rec-${slug}@example.test`
		const made = [
			'user',
			'create',
			'--workspace',
			slug,
			'--email',
			email,
			'--name',
			'Rey Recruiter',
			'--role',
			'recruiter',
			'--password',
			'correct horse battery',
		]
		expectJson(await cli([...made, '--json']))
		const given = expectJson(await cli(['user', 'set-grants', '--workspace', slug, '--email', email, '--grant', 'jobs:actively_hiring', '--json']))
		expect(Object.keys(given).sort()).toEqual(['alreadyInRole', 'grants', 'userId'])
		expect([given.grants, given.alreadyInRole]).toEqual([['jobs:actively_hiring'], []])
		const ended = expectJson(await cli(['user', 'set-grants', '--workspace', slug, '--email', email, '--json']))
		expect([ended.userId, ended.grants]).toEqual([given.userId, []])
	}, 60_000)

	test('user set-password → {"userId"}: the new password works, the old one and every session do not, and it is not temporary', async () => {
		const email = `${slug}@example.test`
		const [sessionsBefore] = await withCliDatabase(async (deps) => {
			// As if the account had been made by an invitation, with a temporary password, and signed in.
			await deps.database.rows(sql`update users set password_temporary = true where email = ${email}`)
			const session = await signIn(deps, { email, password: 'correct horse battery', address: '192.0.2.7', workspace: slug })
			return [session]
		})
		expect('token' in sessionsBefore!).toBe(true)
		const weak = await cli(['user', 'set-password', '--workspace', slug, '--email', email, '--password', 'short', '--json'])
		expect(weak.code).toBe(1)
		expect(weak.stderr).toContain('password must be 10-200 characters')
		const notMember = await cli(['user', 'set-password', '--workspace', slug, '--email', 'nobody@example.test', '--password', 'a long new password', '--json'])
		expect(notMember.code).toBe(1)
		expect(notMember.stderr).toContain('is not in this workspace')
		const out = expectJson(await cli(['user', 'set-password', '--workspace', slug, '--email', email, '--password', 'a long new password', '--json']))
		expect(Object.keys(out)).toEqual(['userId'])
		expect(out.userId).toMatch(/^usr_/)
		await withCliDatabase(async (deps) => {
			const [user] = await deps.database.rows<{ temporary: boolean; sessions: number }>(
				sql`select password_temporary as temporary, (select count(*)::int from sessions s where s.user_id = u.id) as sessions from users u where email = ${email}`,
			)
			expect(user).toEqual({ temporary: false, sessions: 0 })
			await expect(signIn(deps, { email, password: 'correct horse battery', address: '192.0.2.8', workspace: slug })).rejects.toMatchObject({
				code: 'UNAUTHORIZED',
			})
			expect('token' in (await signIn(deps, { email, password: 'a long new password', address: '192.0.2.8', workspace: slug }))).toBe(true)
			const [line] = await deps.database.rows<{ credentialName: string }>(
				sql`select credential_name as "credentialName" from activity where workspace_id = ${state.workspaceId!} and action = 'person.password_set'`,
			)
			expect(line).toEqual({ credentialName: 'operator CLI' })
		})
	}, 60_000)

	test('vendor list --workspace S → {"vendors":[{"vendorId","name","apiAccess","keys":[{"keyId","createdAt","lastUsedAt","revokedAt"}]}]}, never a key', async () => {
		const run = await cli(['vendor', 'list', '--workspace', slug, '--json'])
		const out = expectJson(run)
		expect(run.stdout).not.toContain('bl_vk_')
		const vendor = out.vendors.find((v: any) => v.vendorId === state.vendorId)
		expect(vendor).toEqual({
			vendorId: state.vendorId,
			name: 'CLI Vendor',
			apiAccess: false,
			keys: expect.arrayContaining([
				{ keyId: state.firstKey!.keyId, createdAt: expect.any(String), lastUsedAt: null, revokedAt: expect.any(String) },
				{ keyId: state.secondKey!.keyId, createdAt: expect.any(String), lastUsedAt: null, revokedAt: null },
			]),
		})
		expect(vendor.keys).toHaveLength(2)
		for (const v of out.vendors) expect(Object.keys(v)).toEqual(['vendorId', 'name', 'apiAccess', 'keys'])
		// The seeded vendors are listed too, each with no key.
		expect(out.vendors.length).toBeGreaterThan(1)
	}, 60_000)

	test('outbox release --id ID / --all --workspace S → {"released"}: mail held in the dev mailbox goes back in the queue, logged', async () => {
		const ids = await withCliDatabase(async (deps) => {
			// Queued on a server without SMTP_URL: held.
			const queued = []
			for (const to of ['one@example.test', 'two@example.test', 'three@example.test'])
				queued.push(await enqueueMail(deps.db, { workspaceId: state.workspaceId!, to, subject: 'Held', text: 'x' }, deps))
			expect(queued.map((q) => q.held)).toEqual([true, true, true])
			return queued.map((q) => q.id)
		})
		const one = expectJson(await cli(['outbox', 'release', '--id', ids[0]!, '--json']))
		expect(one).toEqual({ released: [ids[0]] })
		const again = await cli(['outbox', 'release', '--id', ids[0]!, '--json'])
		expect(again.code).toBe(1)
		expect(again.stderr).toContain('is not held in the dev mailbox')
		const bad = await cli(['outbox', 'release', '--all', '--id', ids[1]!])
		expect(bad.code).toBe(2)
		const rest = expectJson(await cli(['outbox', 'release', '--all', '--workspace', slug, '--json']))
		expect(rest.released.sort()).toEqual([ids[1], ids[2]].sort())
		await withCliDatabase(async (deps) => {
			const rows = await deps.database.rows<{ held: boolean; status: string }>(
				sql`select held, status from outbox where id in (${sql.join(
					ids.map((i) => sql`${i}`),
					sql`, `,
				)})`,
			)
			expect(rows).toEqual(ids.map(() => ({ held: false, status: 'pending' })))
			const log = await deps.database.rows<{ targetId: string }>(
				sql`select target_id as "targetId" from activity where action = 'outbox.released' and workspace_id = ${state.workspaceId!}`,
			)
			expect(log.map((l) => l.targetId).sort()).toEqual([...ids].sort())
		})
	}, 60_000)

	test('while another process holds the embedded database the CLI exits non-zero telling to stop it or use DATABASE_URL', async () => {
		const lockDir = usingPostgres() ? mkdtempSync(join(tmpdir(), 'benchline-lock-')) : dataDir
		if (lockDir !== dataDir) extraDirs.push(lockDir)
		const holder = await openDatabase({ databaseUrl: undefined, dataDir: lockDir })
		try {
			const run = await cli(['vendor', 'key-create', '--vendor', state.vendorId!, '--json'], { DATA_DIR: lockDir, DATABASE_URL: undefined })
			expect(run.code).not.toBe(0)
			expect(run.stderr).toContain('in use by another process')
			expect(run.stderr).toMatch(/[Ss]top/)
			expect(run.stderr).toContain('DATABASE_URL')
			expect(run.stdout).not.toContain('bl_vk_')
			// --json: the failure is the last line, as every failure's.
			expect(expectJsonError(run, 1)).toContain('in use by another process')
		} finally {
			await holder.close()
		}
	}, 60_000)
})
