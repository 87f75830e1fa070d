/**
 * K3: the job state invariants, held by the database and checked against a model.
 *
 * - The CHECK `jobs_closed_at_iff_closed` (migration 0007): a job has a closing time exactly while it
 *   is closed. A direct SQL update that breaks it is refused; every state the services produce (REST
 *   open/closed, MCP Draft/Open/Closed in any order) passes it; the migration repairs older rows
 *   that break it instead of failing on them.
 * - A model-based test (fast-check `fc.commands`): random publish / change / close / get / list
 *   sequences of a few vendorJobIds by two vendors of one workspace, through `app.handle`, against an
 *   in-memory model of status, field values, publishedAt/closedAt rules, updatedAt left alone by a
 *   write that alters nothing, the number of activity-log lines per job, and 404 for the other
 *   vendor's job. Then the same writes sent at once to one job (their start order picked by
 *   `fc.scheduler`): every answer and the final state must be those of one serial order of the model.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import fc from 'fast-check'
import { LEGACY_FOLDER } from '../../db/migrate.ts'
import { modules } from '../../core/main.ts'
import { personActor } from '../../modules/auth/index.ts'
import type { RestJob } from '../../modules/jobs/model.ts'
import { createJob, setJobStatus } from '../../modules/jobs/service.ts'
import { call, emptyDatabase, migrationsBefore, newPerson, newVendor, newWorkspace, testApp, testDeps, unique, type TestWorkspace } from '../helpers.ts'

setDefaultTimeout(120_000)

beforeAll(() => testApp(), 60_000)

const CHECK = 'jobs_closed_at_iff_closed'
const RUNS = Number(process.env.FC_RUNS ?? 40)
// A failure prints its seed: FC_SEED=<seed> replays it (fast-check then walks the same cases).
if (process.env.FC_SEED) fc.configureGlobal({ seed: Number(process.env.FC_SEED) })

const path = (vendorJobId: string) => `/api/v1/jobs/${encodeURIComponent(vendorJobId)}`

/** The SQLSTATE and constraint of a refused statement, whatever the driver and however drizzle wraps it. */
async function refusal(statement: Promise<unknown>): Promise<{ code?: string; constraint?: string } | null> {
	try {
		await statement
		return null
	} catch (error) {
		for (let e = error as any; e; e = e.cause) if (e.code) return { code: e.code, constraint: e.constraint_name ?? e.constraint }
		throw error
	}
}

describe(`CHECK ${CHECK}: a job has a closing time exactly while it is closed`, () => {
	async function jobs() {
		const deps = await testDeps()
		const ws = await newWorkspace(deps)
		const { apiKey: key } = await newVendor(ws, 'Check Vendor', deps)
		for (const id of ['OPEN', 'CLOSED'])
			expect((await call('POST', '/api/v1/jobs', { key, body: { vendorJobId: id, title: 'Java Developer' } })).status).toBe(201)
		expect((await call('DELETE', path('CLOSED'), { key })).status).toBe(200)
		const owner = await newPerson(ws, 'owner', {}, deps)
		const actor = await personActor(deps, ws.slug, owner.email)
		const draft = await createJob(deps, actor, { title: 'Drafted role' })
		const ids = await deps.database.rows<{ id: string; vendor_job_id: string }>(
			sql`select id, vendor_job_id from jobs where workspace_id = ${ws.id} and vendor_job_id is not null`,
		)
		const byVendorId = Object.fromEntries(ids.map((r) => [r.vendor_job_id, r.id]))
		return { deps, actor, open: byVendorId.OPEN!, closed: byVendorId.CLOSED!, draft: draft.id }
	}

	test('direct SQL updates that break it are refused by the database (23514), and change nothing', async () => {
		const { deps, open, closed, draft } = await jobs()
		const before = await deps.database.rows(sql`select id, status, closed_at, published_at from jobs where id in (${open}, ${closed}, ${draft}) order by id`)
		const breaking = {
			'an open job given a closing time': sql`update jobs set closed_at = now() where id = ${open}`,
			'an open job closed without a closing time': sql`update jobs set status = 'Closed' where id = ${open}`,
			'a closed job losing its closing time': sql`update jobs set closed_at = null where id = ${closed}`,
			're-opened keeping its closing time': sql`update jobs set status = 'Open', published_at = now() where id = ${closed}`,
			'a closed job drafted keeping its closing time': sql`update jobs set status = 'Draft' where id = ${closed}`,
			'a draft given a closing time': sql`update jobs set closed_at = now() where id = ${draft}`,
			'a new closed job without a closing time': sql`insert into jobs (id, workspace_id, slug, title, status) select ${unique('job_')}, workspace_id, ${unique('slug-')}, 'x', 'Closed' from jobs where id = ${open}`,
			'a new open job with a closing time': sql`insert into jobs (id, workspace_id, slug, title, status, published_at, closed_at) select ${unique('job_')}, workspace_id, ${unique('slug-')}, 'x', 'Open', now(), now() from jobs where id = ${open}`,
		}
		for (const [what, statement] of Object.entries(breaking))
			expect({ what, refused: await refusal(deps.database.rows(statement)) }).toEqual({ what, refused: { code: '23514', constraint: CHECK } })
		expect(await deps.database.rows(sql`select id, status, closed_at, published_at from jobs where id in (${open}, ${closed}, ${draft}) order by id`)).toEqual(
			before,
		)
		// The same transitions done whole are accepted.
		expect(await refusal(deps.database.rows(sql`update jobs set status = 'Closed', closed_at = now() where id = ${open}`))).toBeNull()
		expect(await refusal(deps.database.rows(sql`update jobs set status = 'Open', closed_at = null, published_at = now() where id = ${closed}`))).toBeNull()
	})

	test('every state the services produce passes it: REST open/close/re-open, MCP Draft/Open/Closed in any order', async () => {
		const { deps, actor, open, closed, draft } = await jobs()
		// MCP status changes on a draft, on a REST-published job and on a REST-closed one.
		for (const id of [draft, open, closed])
			for (const status of ['Open', 'Closed', 'Draft', 'Closed', 'Open', 'Draft', 'Open', 'Closed'] as const) {
				const job = await setJobStatus(deps, actor, id, status)
				expect({ status: job.status, closedAt: job.closedAt !== null }).toEqual({ status, closedAt: status === 'Closed' })
			}
	})

	test('the migration repairs rows that break it (a closed job without closedAt gets its last change, others lose a stale one) instead of failing', async () => {
		const before = migrationsBefore(LEGACY_FOLDER, CHECK)
		const scratch = await emptyDatabase()
		try {
			// The legacy migrations before this CHECK, on an empty database, then rows written before it.
			await scratch.migrateFrom(before.folder)
			const ws = unique('ws_')
			const changed = '2025-02-03T04:05:06.789Z'
			await scratch.database.rows(sql`insert into workspaces (id, slug, name) values (${ws}, ${ws}, 'Old data')`)
			const row = (id: string, status: string, closedAt: string | null) =>
				sql`insert into jobs (id, workspace_id, slug, title, status, published_at, updated_at, closed_at) values (${id}, ${ws}, ${id}, 'Old job', ${status}, ${status === 'Draft' ? null : '2025-01-01T00:00:00Z'}, ${changed}, ${closedAt})`
			for (const [id, status, closedAt] of [
				['closed_without', 'Closed', null],
				['closed_with', 'Closed', '2025-01-15T00:00:00.000Z'],
				['open_with', 'Open', '2025-01-15T00:00:00.000Z'],
				['draft_with', 'Draft', '2025-01-15T00:00:00.000Z'],
				['open_without', 'Open', null],
			] as const)
				await scratch.database.rows(row(id, status, closedAt))

			// Start-up on that database: the legacy folder brings it to its last migration (db/migrate.ts).
			await scratch.database.migrate(modules)
			const rows = await scratch.database.rows<{ id: string; status: string; closed_at: Date | string | null }>(
				sql`select id, status, closed_at from jobs order by id`,
			)
			const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString())
			expect(rows.map((r) => [r.id, r.status, iso(r.closed_at)])).toEqual([
				['closed_with', 'Closed', '2025-01-15T00:00:00.000Z'],
				['closed_without', 'Closed', changed],
				['draft_with', 'Draft', null],
				['open_with', 'Open', null],
				['open_without', 'Open', null],
			])
			// And the CHECK is in force on that database.
			expect(await refusal(scratch.database.rows(sql`update jobs set closed_at = null where id = 'closed_with'`))).toEqual({ code: '23514', constraint: CHECK })
		} finally {
			await scratch.close()
			before.remove()
		}
	})
})

// ─── Model-based test of the Job Publish API ─────────────────────────────────────────────────────

interface Fields {
	title: string
	location: string | null
	mustHave: string[]
}
type Status = 'open' | 'closed'

/** What the model knows of one job: its fields, the last answer seen, and its activity-log lines. */
interface Known {
	fields: Fields
	job: RestJob
	lines: number
}

interface Model {
	jobs: Map<string, Known>
}

interface Real {
	ws: TestWorkspace
	vendors: { key: string; vendorId: string }[]
}

type Cmd = fc.AsyncCommand<Model, Real>

/** The three writes, and what each makes of a job (the model's rules). */
type Write =
	| { kind: 'publish'; sent: Partial<Fields> & { title: string } }
	| { kind: 'change'; body: Partial<Fields> & { status?: Status } }
	| { kind: 'close' }
interface State {
	fields: Fields
	status: Status
}
/** The state after a write; a change or close of a job the vendor does not have is refused (404). */
function afterWrite(state: State | undefined, write: Write): State | 'not found' {
	if (write.kind === 'publish') {
		// Nothing is cleared by omission: fields not sent keep their value (or their default on a new job).
		return { fields: { ...(state?.fields ?? { title: '', location: null, mustHave: [] }), ...write.sent }, status: 'open' }
	}
	if (!state) return 'not found'
	if (write.kind === 'close') return { fields: state.fields, status: 'closed' }
	const { status, ...sent } = write.body
	return { fields: { ...state.fields, ...sent }, status: status ?? state.status }
}
const sameState = (a: State, b: State) => a.status === b.status && sameFields(a.fields, b.fields)
const stateOf = (job: RestJob): State => ({ fields: fieldsOf(job), status: job.status as Status })
const requestOf = (vendorJobId: string, write: Write): [string, string, unknown] =>
	write.kind === 'publish'
		? ['POST', '/api/v1/jobs', { vendorJobId, ...write.sent }]
		: write.kind === 'change'
			? ['PATCH', path(vendorJobId), write.body]
			: ['DELETE', path(vendorJobId), undefined]
const keyOf = (vendor: number, vendorJobId: string) => `${vendor}:${vendorJobId}`
const fieldsOf = (job: RestJob): Fields => ({ title: job.title, location: job.location, mustHave: job.mustHave })
const sameFields = (a: Fields, b: Fields) =>
	a.title === b.title && a.location === b.location && a.mustHave.join('\n') === b.mustHave.join('\n') && a.mustHave.length === b.mustHave.length
const ms = (iso: string | null) => (iso === null ? NaN : Date.parse(iso))

async function logLines(real: Real, vendor: number, vendorJobId: string): Promise<number> {
	const deps = await testDeps()
	const [row] = await deps.database.rows<{ n: number }>(
		sql`select count(*)::int as n from activity a join jobs j on a.target_type = 'job' and a.target_id = j.id where j.vendor_id = ${real.vendors[vendor]!.vendorId} and j.vendor_job_id = ${vendorJobId}`,
	)
	return row!.n
}

/**
 * Checks one successful write against the model and records its answer. `before` is the real time
 * taken just before the request: the database stamps a change at or after it.
 */
async function expectWrite(model: Model, real: Real, vendor: number, vendorJobId: string, job: RestJob, want: State, before: number) {
	const key = keyOf(vendor, vendorJobId)
	const prev = model.jobs.get(key)
	expect(job.vendorJobId).toBe(vendorJobId)
	expect(fieldsOf(job)).toEqual(want.fields)
	expect(job.status).toBe(want.status)
	expect(job.url === null).toBe(want.status === 'closed')
	expect(job.closedAt === null).toBe(want.status === 'open')
	expect(job.publishedAt).not.toBeNull()
	const changed = !prev || !sameState({ fields: prev.fields, status: prev.job.status as Status }, want)
	if (!changed) {
		// A write that alters nothing leaves the job, updatedAt included, exactly as it was.
		expect(job).toEqual(prev!.job)
	} else {
		expect(ms(job.updatedAt)).toBeGreaterThanOrEqual(before)
		if (!prev) {
			expect(job.publishedAt).toBe(job.createdAt)
			expect(ms(job.createdAt)).toBeGreaterThanOrEqual(before)
		} else {
			expect(job.createdAt).toBe(prev.job.createdAt)
			expect(ms(job.updatedAt)).toBeGreaterThanOrEqual(ms(prev.job.updatedAt))
			const reopened = prev.job.status === 'closed' && want.status === 'open'
			const closedNow = prev.job.status === 'open' && want.status === 'closed'
			if (reopened) expect(ms(job.publishedAt)).toBeGreaterThanOrEqual(before)
			else expect(job.publishedAt).toBe(prev.job.publishedAt)
			if (closedNow) expect(ms(job.closedAt)).toBeGreaterThanOrEqual(before)
			else if (want.status === 'closed') expect(job.closedAt).toBe(prev.job.closedAt)
		}
	}
	const lines = (prev?.lines ?? 0) + (changed ? 1 : 0)
	expect(await logLines(real, vendor, vendorJobId)).toBe(lines)
	model.jobs.set(key, { fields: want.fields, job, lines })
}

/** A 404 for a job the vendor does not have: the same answer as for an id nobody has; the other vendor's job is untouched. */
async function expectNotFound(
	model: Model,
	real: Real,
	vendor: number,
	vendorJobId: string,
	method: string,
	res: { status: number; text: string },
	body?: unknown,
) {
	expect(res.status).toBe(404)
	const absent = await call(method, path(`never-${vendorJobId}`), { key: real.vendors[vendor]!.key, body })
	expect(res.text).toBe(absent.text)
	const other = 1 - vendor
	const theirs = model.jobs.get(keyOf(other, vendorJobId))
	if (theirs) {
		const seen = await call('GET', path(vendorJobId), { key: real.vendors[other]!.key })
		expect(seen.json.job).toEqual(theirs.job)
		expect(await logLines(real, other, vendorJobId)).toBe(theirs.lines)
	}
}

/** publish, change or close: checked against `afterWrite`. */
class WriteCmd implements Cmd {
	constructor(
		readonly vendor: number,
		readonly vendorJobId: string,
		readonly write: Write,
	) {}
	check = () => true
	async run(model: Model, real: Real) {
		const prev = model.jobs.get(keyOf(this.vendor, this.vendorJobId))
		const want = afterWrite(prev && { fields: prev.fields, status: prev.job.status as Status }, this.write)
		const [method, url, body] = requestOf(this.vendorJobId, this.write)
		const before = Date.now()
		const res = await call(method, url, { key: real.vendors[this.vendor]!.key, body })
		if (want === 'not found') return expectNotFound(model, real, this.vendor, this.vendorJobId, method, res, body)
		expect(res.status).toBe(prev || this.write.kind !== 'publish' ? 200 : 201)
		await expectWrite(model, real, this.vendor, this.vendorJobId, res.json.job, want, before)
	}
	toString = () =>
		`${this.write.kind}(v${this.vendor}, ${this.vendorJobId}${this.write.kind === 'close' ? '' : `, ${JSON.stringify(this.write.kind === 'publish' ? this.write.sent : this.write.body)}`})`
}

class Get implements Cmd {
	constructor(
		readonly vendor: number,
		readonly vendorJobId: string,
	) {}
	check = () => true
	async run(model: Model, real: Real) {
		const known = model.jobs.get(keyOf(this.vendor, this.vendorJobId))
		const res = await call('GET', path(this.vendorJobId), { key: real.vendors[this.vendor]!.key })
		if (!known) return expectNotFound(model, real, this.vendor, this.vendorJobId, 'GET', res)
		expect(res.status).toBe(200)
		expect(res.json.job).toEqual(known.job)
	}
	toString = () => `get(v${this.vendor}, ${this.vendorJobId})`
}

class List implements Cmd {
	constructor(readonly vendor: number) {}
	check = () => true
	async run(model: Model, real: Real) {
		const res = await call('GET', '/api/v1/jobs', { key: real.vendors[this.vendor]!.key })
		expect(res.status).toBe(200)
		const listed = res.json.jobs as RestJob[]
		const mine = [...model.jobs].filter(([k]) => k.startsWith(`${this.vendor}:`)).map(([, v]) => v.job)
		expect(listed.map((j) => j.vendorJobId).sort()).toEqual(mine.map((j) => j.vendorJobId).sort())
		for (const job of listed) expect(job).toEqual(model.jobs.get(keyOf(this.vendor, job.vendorJobId))!.job)
		// Newest first.
		for (let i = 1; i < listed.length; i++) expect(ms(listed[i]!.createdAt)).toBeLessThanOrEqual(ms(listed[i - 1]!.createdAt))
	}
	toString = () => `list(v${this.vendor})`
}

describe('Job Publish API against a model (fc.commands)', () => {
	// A few ids and values, so sequences hit the same job often: re-publishes, no-op writes, re-opens.
	const vendor = fc.constantFrom(0, 1)
	const id = fc.constantFrom('REQ-1', 'REQ-2', 'REQ-3')
	const title = fc.constantFrom('Java Developer', 'Go Developer')
	const location = fc.constantFrom('Austin, TX', 'Remote (US)')
	const mustHave = fc.constantFrom<string[]>([], ['Java'], ['Java', 'AWS'])
	const optional = fc.record({ location, mustHave }, { requiredKeys: [] })
	const write: fc.Arbitrary<Write> = fc.oneof(
		fc.tuple(title, optional).map(([t, o]) => ({ kind: 'publish' as const, sent: { title: t, ...o } })),
		fc
			.record({ title, location, mustHave, status: fc.constantFrom<Status>('open', 'closed') }, { requiredKeys: [] })
			.map((body) => ({ kind: 'change' as const, body })),
		fc.constant({ kind: 'close' as const }),
	)
	const commands = fc.commands(
		[
			fc.tuple(vendor, id, write).map(([v, j, w]) => new WriteCmd(v, j, w)),
			fc.tuple(vendor, id).map(([v, j]) => new Get(v, j)),
			vendor.map((v) => new List(v)),
		],
		{ maxCommands: 25, size: 'medium' },
	)

	test('random publish/change/close/get/list sequences by two vendors never diverge from the model', async () => {
		const deps = await testDeps()
		await fc.assert(
			fc.asyncProperty(commands, async (cmds) => {
				const setup = async () => {
					const ws = await newWorkspace(deps)
					const vendors = [await newVendor(ws, 'Vendor A', deps), await newVendor(ws, 'Vendor B', deps)].map((v) => ({ key: v.apiKey, vendorId: v.vendorId }))
					return { model: { jobs: new Map() } as Model, real: { ws, vendors } }
				}
				await fc.asyncModelRun(setup, cmds)
			}),
			{ numRuns: RUNS },
		)
	})

	test('concurrent writes to one job, started in an order fc.scheduler picks, match one serial order of the model (every answer, the final state, the log lines); never a 500', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace(deps)
		const { apiKey: key, vendorId } = await newVendor(ws, 'Concurrent Vendor', deps)
		const real: Real = { ws, vendors: [{ key, vendorId }] }
		let run = 0
		await fc.assert(
			fc.asyncProperty(fc.scheduler(), fc.boolean(), fc.array(write, { minLength: 2, maxLength: 4 }), async (s, startClosed, writes) => {
				const vendorJobId = `C-${run++}`
				const first = await call('POST', '/api/v1/jobs', { key, body: { vendorJobId, title: 'Java Developer' } })
				if (startClosed) await call('DELETE', path(vendorJobId), { key })
				const initial: State = { fields: fieldsOf(first.json.job), status: startClosed ? 'closed' : 'open' }
				const linesBefore = await logLines(real, 0, vendorJobId)

				const answers = writes.map((w, i) => {
					const [method, url, body] = requestOf(vendorJobId, w)
					return s.schedule(Promise.resolve(), `write ${i}`).then(() => call(method, url, { key, body }))
				})
				await s.waitAll()
				const results = await Promise.all(answers)
				for (const r of results) expect(r.status).toBe(200)
				const final = (await call('GET', path(vendorJobId), { key })).json.job as RestJob
				expect(final.closedAt === null).toBe(final.status === 'open')
				expect(final.url === null).toBe(final.status === 'closed')
				const seen = results.map((r) => stateOf(r.json.job))
				const lines = (await logLines(real, 0, vendorJobId)) - linesBefore

				// Some one-at-a-time order of the writes gives every answer, the final state and one log line per effective change.
				const serial = orders(writes.length).find((order) => {
					let state = initial
					let changes = 0
					for (const i of order) {
						const next = afterWrite(state, writes[i]!) as State
						if (!sameState(next, seen[i]!)) return false
						if (!sameState(next, state)) changes++
						state = next
					}
					return sameState(state, stateOf(final)) && changes === lines
				})
				expect(serial ? 'a serial order' : { initial, writes, seen, final: stateOf(final), lines }).toBe('a serial order')
			}),
			{ numRuns: RUNS },
		)
	})
})

/** Every order of 0..n-1. */
function orders(n: number): number[][] {
	if (n === 0) return [[]]
	return orders(n - 1).flatMap((order) => Array.from({ length: n }, (_, at) => [...order.slice(0, at), n - 1, ...order.slice(at)]))
}
