/**
 * bench/publish — publish upserts per second, p50 and p99 of `POST /api/v1/jobs`, measured against
 * `pgbench` running the same upsert + activity-log statement on the same machine in the same run.
 *
 *   npm run bench:publish          (= bun bench/publish.ts)
 *
 * One run:
 *  1. creates a throwaway PostgreSQL: by default its own cluster (initdb, as the postgres user when
 *     run as root) on a free loopback port in a temporary folder; with BENCH_PG=shared a database on
 *     the server at 127.0.0.1:5432 instead. Both are removed at the end, on failure and on Ctrl-C;
 *  2. starts the server against it (this applies the migrations), creates a workspace and a vendor
 *     with the operator CLI, and seeds JOBS (10,000) jobs for that vendor, so every upsert takes the
 *     ON CONFLICT … DO UPDATE path;
 *  3. runs ROUNDS (5) rounds. Each round starts with TRUNCATE activity; VACUUM ANALYZE jobs;
 *     CHECKPOINT and then runs, in an order rotated every round, a WARMUP (2 s) run followed by a
 *     DURATION (10 s) measured run of:
 *       - pgbench-cte:  the app's publish statement (one CTE: upsert … RETURNING *, activity insert,
 *                       select of the row) with -M prepared — the ceiling of issue 2;
 *       - pgbench-tx:   the same upsert and the activity insert as two statements in BEGIN … END
 *                       with -M prepared — the ceiling of issue 8, figure 1;
 *       - pgbench-cte-unprepared: the CTE with -M extended (parsed and planned on every call, as the
 *                       app's unnamed statement is) — explains part of the gap, not a goal;
 *       - app:          wrk (a separate process, loopback) POSTing the same fields as JSON to
 *                       /api/v1/jobs with a vendor key;
 *  4. prints every run and a summary table: medians over rounds, and the per-round ratio app / pgbench
 *     with its median. Raw results go to bench/results/publish-<date>.json.
 *
 * Every request and every pgbench transaction updates one of the seeded jobs with a new summary, so
 * the job really changes and the activity line is really written (the "log/op" column checks it).
 *
 * Settings (environment): ROUNDS=5 DURATION=10 WARMUP=2 JOBS=10000 PGBENCH_CLIENTS=16 PGBENCH_THREADS=2
 * WRK_CONNECTIONS=32 WRK_THREADS=1 BENCH_PG=private|shared SHARED_PG_URL=postgres://postgres@127.0.0.1:5432/postgres
 * WAIT_IDLE=10 (s to wait for an idle machine before each run) BENCH_RUNS=app,pgbench-cte,… (subset) BENCH_CPU_PROF=1 (server under --cpu-prof, summarized by bench/cpu-profile.ts; slows it down, so
 * use it for a separate run) BENCH_JSON=path.
 */
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir, totalmem } from 'node:os'
import { join, resolve } from 'node:path'
import postgres from 'postgres'
import { Placeholder } from 'drizzle-orm'
import { hashSecret } from '../core/credentials.ts'
import { EDITABLE_FIELDS, type EditableField } from '../modules/jobs/model.ts'
import { publishStatement } from '../modules/jobs/vendor-service.ts'
import { printProfile, summarizeProfile, type ProfileSummary } from './cpu-profile.ts'

// ---------------------------------------------------------------- settings

const ROOT = resolve(import.meta.dir, '..')
const env = process.env
const int = (name: string, fallback: number) => {
	const v = env[name]
	if (v === undefined || v === '') return fallback
	if (!/^\d+$/.test(v)) throw new Error(`${name} must be a whole number`)
	return Number(v)
}
const ROUNDS = int('ROUNDS', 5)
const DURATION = int('DURATION', 10)
const WARMUP = int('WARMUP', 2)
const JOBS = int('JOBS', 10_000)
const PGBENCH_CLIENTS = int('PGBENCH_CLIENTS', 16)
const PGBENCH_THREADS = int('PGBENCH_THREADS', 2)
const WRK_CONNECTIONS = int('WRK_CONNECTIONS', 32)
const WRK_THREADS = int('WRK_THREADS', 1)
const MODE = (env.BENCH_PG ?? 'private') as 'private' | 'shared'
if (MODE !== 'private' && MODE !== 'shared') throw new Error('BENCH_PG must be "private" or "shared"')
const SHARED_URL = env.SHARED_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const CPU_PROF = env.BENCH_CPU_PROF === '1'
/** Before each measured run, wait up to this many seconds for the machine to be idle (< 15 % busy over 1 s). */
const WAIT_IDLE = int('WAIT_IDLE', 10)
const PG_BIN = env.PG_BIN ?? '/usr/lib/postgresql/15/bin'
const BUN = existsSync(join(ROOT, 'node_modules/.bin/bun')) ? join(ROOT, 'node_modules/.bin/bun') : process.execPath
/** The config caps RATE_LIMIT_PER_MINUTE at 1,000,000 (16,667/s): far above anything measured here. */
const RATE_LIMIT = '1000000'

type RunName = 'pgbench-cte' | 'pgbench-tx' | 'pgbench-cte-unprepared' | 'pgbench-app' | 'app'
const ALL_RUNS: RunName[] = ['pgbench-cte', 'pgbench-tx', 'pgbench-cte-unprepared', 'pgbench-app', 'app']
const RUNS = (env.BENCH_RUNS ? env.BENCH_RUNS.split(',').map((s) => s.trim()) : ALL_RUNS) as RunName[]
for (const r of RUNS) if (!ALL_RUNS.includes(r)) throw new Error(`unknown run "${r}" in BENCH_RUNS (known: ${ALL_RUNS.join(', ')})`)

const LABEL: Record<RunName, string> = {
	'pgbench-cte': 'pgbench: upsert + log line in one CTE, prepared',
	'pgbench-tx': 'pgbench: upsert; activity insert (2-stmt tx)',
	'pgbench-cte-unprepared': 'pgbench: upsert + log CTE, -M extended (unprepared)',
	'pgbench-app': "pgbench: the app's publish statement verbatim (key lookup inside)",
	app: 'app: POST /api/v1/jobs (wrk)',
}

// ---------------------------------------------------------------- the payload (same fields for both sides)

/** ~1 KB of HTML that the description allowlist keeps as it is (so no warnings, stored as sent). */
const DESCRIPTION =
	'<h2>About the role</h2><p>We are hiring a <b>Senior Backend Engineer</b> to build and run the job ingestion pipelines that feed our careers site and partner portals. ' +
	'You will own services written in <i>TypeScript</i> on Bun, backed by PostgreSQL, and work closely with recruiters and account managers.</p>' +
	'<h3>What you will do</h3><ul><li>Design and ship REST and MCP endpoints used by staffing vendors</li><li>Tune <strong>PostgreSQL</strong> queries, indexes and migrations</li>' +
	'<li>Keep p99 latency low under bursty publishing load</li><li>Review code and mentor two mid-level engineers</li></ul>' +
	'<h3>What you bring</h3><ul><li>5+ years building production web services</li><li>Deep SQL knowledge: upserts, CTEs, query plans</li>' +
	'<li>Experience with <em>observability</em> and on-call rotations</li></ul>' +
	'<p>Hybrid in Austin, TX: three days a week on site. W2 only; no sponsorship is available for this position. Interviews are two video calls and one on-site loop.</p>'
const LOCATION = 'Austin, TX'
const SCHEDULE = 'Hybrid'
const MUST_HAVE = ['PostgreSQL', 'TypeScript', '5+ years of backend work']
const TITLE_PREFIX = 'Senior Backend Engineer '
const SUMMARY_PREFIX = 'Build and run job ingestion pipelines; revision '

// ---------------------------------------------------------------- process bookkeeping and cleanup

const children = new Set<Bun.Subprocess>()
const cleanups: (() => Promise<void> | void)[] = []
let cleaningUp: Promise<void> | null = null
let interrupted = false

function cleanup(): Promise<void> {
	cleaningUp ??= (async () => {
		for (const child of children) child.kill('SIGTERM')
		for (const child of children) await Promise.race([child.exited, Bun.sleep(5000)]).then(() => child.kill('SIGKILL'))
		for (const step of cleanups.reverse()) {
			try {
				await step()
			} catch (error) {
				console.error(`cleanup: ${(error as Error).message}`)
			}
		}
	})()
	return cleaningUp
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
	process.on(signal, () => {
		interrupted = true
		console.error(`\n${signal}: cleaning up`)
		void cleanup().then(() => process.exit(130))
	})
}

interface Done {
	code: number
	stdout: string
	stderr: string
}

/** Runs a command to completion (tracked so Ctrl-C stops it). */
async function run(
	cmd: string[],
	options: { env?: Record<string, string | undefined>; cwd?: string; check?: boolean; onStart?: (p: Bun.Subprocess) => void } = {},
): Promise<Done> {
	const proc = Bun.spawn(cmd, { cwd: options.cwd ?? ROOT, env: { ...env, ...options.env }, stdout: 'pipe', stderr: 'pipe' })
	children.add(proc)
	options.onStart?.(proc)
	const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
	children.delete(proc)
	if (interrupted && options.check !== false) throw new Error('interrupted')
	if (options.check !== false && code !== 0) throw new Error(`${cmd.join(' ').slice(0, 300)} exited ${code}\n${stderr || stdout}`)
	return { code, stdout, stderr }
}

const isRoot = process.getuid?.() === 0
const asPostgres = (cmd: string[]) => (isRoot ? ['runuser', '-u', 'postgres', '--', ...cmd] : cmd)

async function freePort(): Promise<number> {
	const server = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
	const port = server.port
	server.stop(true)
	return port
}

// ---------------------------------------------------------------- CPU accounting from /proc

interface Ticks {
	procs: Map<number, { comm: string; ppid: number; ticks: number }>
	stat: number[]
}
const CLK_TCK = 100

/** VmRSS of a process, in MB (0 when it is gone). */
function residentMB(pid: number): number {
	try {
		return Math.round(Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024)
	} catch {
		return 0
	}
}

function snapshot(): Ticks {
	const procs = new Map<number, { comm: string; ppid: number; ticks: number }>()
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue
		try {
			const raw = readFileSync(`/proc/${entry}/stat`, 'utf8')
			const close = raw.lastIndexOf(')')
			const comm = raw.slice(raw.indexOf('(') + 1, close)
			const f = raw.slice(close + 2).split(' ')
			procs.set(Number(entry), { comm, ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) })
		} catch {
			// the process ended while we looked
		}
	}
	const stat = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1).map(Number)
	return { procs, stat }
}

interface Cpu {
	app: number
	postgres: number
	loadgen: number
	idlePct: number
	stealPct: number
	/** CPU-seconds used by processes that are not part of the benchmark (other work on the machine). */
	other: number
}

/** CPU-seconds used between two snapshots by the server, the postmaster and its children, and the load generator. */
function cpuBetween(a: Ticks, b: Ticks, pids: { app: number; postmaster: number; loadgen: number }): Cpu {
	const out = { app: 0, postgres: 0, loadgen: 0 }
	for (const [pid, p] of b.procs) {
		const kind = pid === pids.app ? 'app' : pid === pids.postmaster || p.ppid === pids.postmaster ? 'postgres' : pid === pids.loadgen ? 'loadgen' : null
		if (!kind) continue
		out[kind] += (p.ticks - (a.procs.get(pid)?.ticks ?? 0)) / CLK_TCK
	}
	const d = b.stat.map((v, i) => v - (a.stat[i] ?? 0))
	const total = d.reduce((s, v) => s + v, 0) || 1
	const round = (v: number) => Math.round(v * 100) / 100
	const busy = (total - (d[3] ?? 0) - (d[4] ?? 0) - (d[7] ?? 0)) / CLK_TCK
	const other = Math.max(0, busy - out.app - out.postgres - out.loadgen)
	return {
		app: round(out.app),
		postgres: round(out.postgres),
		loadgen: round(out.loadgen),
		idlePct: round((100 * ((d[3] ?? 0) + (d[4] ?? 0))) / total),
		stealPct: round((100 * (d[7] ?? 0)) / total),
		other: round(other),
	}
}

/** Waits (up to WAIT_IDLE s) until the machine is idle; returns the seconds waited and the last busy %. */
async function waitIdle(): Promise<{ waited: number; busyPct: number }> {
	const t = performance.now()
	for (;;) {
		const a = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1).map(Number)
		await Bun.sleep(1000)
		const b = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1).map(Number)
		const d = b.map((v, i) => v - (a[i] ?? 0))
		const total = d.reduce((x, y) => x + y, 0) || 1
		const busyPct = Math.round((100 * (total - (d[3] ?? 0) - (d[4] ?? 0))) / total)
		const waited = Math.round((performance.now() - t) / 1000)
		if (busyPct < 15 || waited >= WAIT_IDLE) return { waited, busyPct }
	}
}

// ---------------------------------------------------------------- statistics

const median = (xs: number[]) => {
	const s = [...xs].sort((a, b) => a - b)
	const m = s.length >> 1
	return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!

function wrkMs(v: string): number {
	const m = /^([\d.]+)(us|ms|s|m)$/.exec(v)
	if (!m) throw new Error(`cannot read wrk latency "${v}"`)
	const x = Number(m[1])
	return m[2] === 'us' ? x / 1000 : m[2] === 'ms' ? x : m[2] === 's' ? x * 1000 : x * 60_000
}

// ---------------------------------------------------------------- main

interface Result {
	round: number
	run: RunName
	rps: number
	p50: number
	p99: number
	ops: number
	errors: number
	logPerOp: number
	cpu: Cpu
	/** Seconds waited for an idle machine before the run, and how busy it was then. */
	idleWait: { waited: number; busyPct: number }
	/** Wall-clock window of the measured run (epoch ms). */
	wall: [number, number]
	cmd: string
}

async function main() {
	const started = new Date()
	const t0 = performance.now()
	for (const tool of ['wrk', 'pgbench']) {
		if (!RUNS.some((r) => (tool === 'wrk' ? r === 'app' : r !== 'app'))) continue
		if ((await run(['sh', '-c', `command -v ${tool}`], { check: false })).code !== 0)
			throw new Error(`${tool} is not installed (Debian: apt-get install -y ${tool === 'wrk' ? 'wrk' : 'postgresql-client'})`)
	}

	const work = mkdtempSync(join(tmpdir(), 'benchline-publish-'))
	cleanups.push(() => rmSync(work, { recursive: true, force: true }))
	if (isRoot) {
		const uid = Number((await run(['id', '-u', 'postgres'])).stdout.trim())
		const gid = Number((await run(['id', '-g', 'postgres'])).stdout.trim())
		chownSync(work, uid, gid)
	}
	const dbName = `bench_publish_${process.pid}_${Date.now().toString(36)}`
	let pgPort: number
	let postmaster: number

	// 1. the database
	if (MODE === 'private') {
		pgPort = await freePort()
		const data = join(work, 'pg')
		console.log(`== private PostgreSQL cluster in ${data}, port ${pgPort}`)
		await run(asPostgres([join(PG_BIN, 'initdb'), '-D', data, '--auth=trust', '-U', 'postgres', '--encoding=UTF8', '--locale=C.UTF-8', '--no-sync']), {
			cwd: work,
		})
		const pgCtl = (...args: string[]) => run(asPostgres([join(PG_BIN, 'pg_ctl'), '-D', data, ...args]), { cwd: work, check: false })
		cleanups.push(async () => {
			const r = await pgCtl('stop', '-m', 'fast', '-w')
			if (r.code === 0) console.log('== private cluster stopped')
		})
		const start = await pgCtl('start', '-w', '-t', '60', '-l', join(work, 'pg.log'), '-o', `-p ${pgPort} -k ${work} -c listen_addresses=127.0.0.1`)
		if (start.code !== 0)
			throw new Error(`pg_ctl start failed:\n${start.stderr}${existsSync(join(work, 'pg.log')) ? readFileSync(join(work, 'pg.log'), 'utf8') : ''}`)
		postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0])
		const admin = postgres(`postgres://postgres@127.0.0.1:${pgPort}/postgres`, { max: 1, onnotice: () => {} })
		await admin.unsafe(`create database ${dbName}`)
		await admin.end()
	} else {
		const url = new URL(SHARED_URL)
		pgPort = Number(url.port || 5432)
		console.log(`== database ${dbName} on ${url.host}`)
		const admin = postgres(SHARED_URL, { max: 1, onnotice: () => {} })
		await admin.unsafe(`create database ${dbName}`)
		const [{ pid }] = (await admin`select pg_backend_pid() as pid`) as unknown as [{ pid: number }]
		postmaster = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1])
		await admin.end()
		cleanups.push(async () => {
			const a = postgres(SHARED_URL, { max: 1, onnotice: () => {} })
			await a.unsafe(`drop database if exists ${dbName} with (force)`)
			await a.end()
			console.log(`== dropped database ${dbName}`)
		})
	}
	const databaseUrl = `postgres://postgres@127.0.0.1:${pgPort}/${dbName}`
	const db = postgres(databaseUrl, { max: 2, onnotice: () => {} })
	cleanups.push(() => db.end({ timeout: 2 }))

	// 2. the server (migrates the database), workspace, vendor, seed
	const appPort = await freePort()
	const dataDir = join(work, 'data')
	mkdirSync(dataDir)
	const appEnv = {
		PORT: String(appPort),
		DATABASE_URL: databaseUrl,
		DATA_DIR: dataDir,
		DEMO: 'off',
		RATE_LIMIT_PER_MINUTE: RATE_LIMIT,
		LOG_LEVEL: 'warn',
		BASE_URL: `http://127.0.0.1:${appPort}`,
		REDIS_URL: '',
		// As it runs in production (checks meant for tests and development are off).
		NODE_ENV: 'production',
	}
	const profDir = join(work, 'prof')
	const serverCmd = [BUN, ...(CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []), 'core/main.ts']
	console.log(`== server: ${serverCmd.join(' ')} (PORT=${appPort}, RATE_LIMIT_PER_MINUTE=${RATE_LIMIT})`)
	const serverLog = join(work, 'server.log')
	const server = Bun.spawn(serverCmd, { cwd: ROOT, env: { ...env, ...appEnv }, stdout: Bun.file(serverLog), stderr: Bun.file(join(work, 'server.err')) })
	children.add(server)
	const stopServer = async () => {
		if (server.exitCode !== null || server.signalCode !== null) return
		server.kill('SIGTERM')
		await Promise.race([server.exited, Bun.sleep(15_000)])
		server.kill('SIGKILL')
		children.delete(server)
	}
	cleanups.push(stopServer)
	const base = `http://127.0.0.1:${appPort}`
	for (let i = 0; ; i++) {
		if (server.exitCode !== null) throw new Error(`the server exited ${server.exitCode}:\n${readFileSync(join(work, 'server.err'), 'utf8')}`)
		const ok = await fetch(`${base}/health`).then(
			(r) => r.ok,
			() => false,
		)
		if (ok) break
		if (i > 600) throw new Error('the server did not become healthy in 60 s')
		await Bun.sleep(100)
	}
	const cli = async (...args: string[]) => {
		const out = await run([BUN, 'core/cli.ts', ...args, '--json'], { env: appEnv })
		return JSON.parse(out.stdout.trim().split('\n').pop()!) as Record<string, string>
	}
	const ws = await cli('workspace', 'create', '--slug', 'bench', '--name', 'Benchmark')
	const vendor = await cli('vendor', 'create', '--workspace', 'bench', '--name', 'Bench Vendor')
	const apiKey = vendor.apiKey!
	console.log(`== workspace ${ws.workspaceId}, vendor ${vendor.vendorId}, key ${vendor.keyId}`)

	const seedStart = performance.now()
	await db`insert into jobs (id, workspace_id, vendor_id, vendor_job_id, slug, title, location, summary, description, must_have, schedule, status, published_at, created_at, updated_at)
		select 'job_seed' || lpad(n::text, 12, '0'), ${ws.workspaceId!}, ${vendor.vendorId!}, 'job-' || n, 'senior-backend-engineer-' || n || '-seed',
			${TITLE_PREFIX} || n, ${LOCATION}, ${SUMMARY_PREFIX} || 'seed', ${DESCRIPTION}, ${MUST_HAVE}::text[], ${SCHEDULE}, 'Open', t, t, t
		from generate_series(1, ${JOBS}::int) n, lateral (select '2025-01-01'::timestamptz + n * interval '1 second' as t) s`
	await db.unsafe('vacuum analyze')
	console.log(`== seeded ${JOBS} jobs in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`)
	// The server's resident memory at rest, before any load (issue 33's goal: under 200 MB).
	const memory = { idleMB: residentMB(server.pid), afterAppRunsMB: [] as number[], loadAverage: loadavg()[0] }
	console.log(`== server resident memory at rest: ${memory.idleMB} MB (load average ${memory.loadAverage.toFixed(1)})`)

	// The key's actor, as the app records it in the activity log.
	const [actor] =
		await db`select v.name as "vendorName", k.last_four as "lastFour" from vendor_api_keys k join vendors v on v.id = k.vendor_id where k.id = ${vendor.keyId!}`
	const credentialName = `API key …${actor!.lastFour}`

	let appWritesActivity = true
	// The app logs a change when the upsert says it changed the row (jobs.last_write_changed, set in the
	// same statement); the ceilings decide the same way.
	// Preflight: one publish through the API must take the update path, change the job, keep the
	// description as sent and write one activity line.
	{
		const body = {
			vendorJobId: 'job-1',
			title: `${TITLE_PREFIX}1`,
			location: LOCATION,
			schedule: SCHEDULE,
			summary: `${SUMMARY_PREFIX}preflight`,
			description: DESCRIPTION,
			mustHave: MUST_HAVE,
		}
		const before = await db`select count(*)::int as n from activity`
		const res = await fetch(`${base}/api/v1/jobs`, {
			method: 'POST',
			headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
			body: JSON.stringify(body),
		})
		const json = (await res.json()) as { job?: { description: string; summary: string }; warnings?: string[] }
		const after = await db`select count(*)::int as n from activity`
		const problems = [
			res.status !== 200 && `status ${res.status} (expected 200, the update path)`,
			json.warnings && `warnings ${JSON.stringify(json.warnings)}`,
			json.job?.description !== DESCRIPTION && 'description was changed by the sanitizer',
			json.job?.summary !== body.summary && 'summary not stored',
			res.headers.get('ratelimit-policy')?.includes(`q=${RATE_LIMIT}`) === false && `rate limit policy ${res.headers.get('ratelimit-policy')}`,
		].filter(Boolean)
		if (problems.length) throw new Error(`preflight publish failed: ${problems.join('; ')}\n${JSON.stringify(json).slice(0, 500)}`)
		appWritesActivity = after[0]!.n - before[0]!.n === 1
		console.log(`== preflight publish ok (200, no warnings); request body ${JSON.stringify(body).length} bytes`)
		if (!appWritesActivity) console.log('== WARNING: the publish changed the job but wrote NO activity line.')
	}

	// 3. the load scripts
	const changes = `(jobs.status <> 'Open' or (jobs."title", jobs."location", jobs."summary", jobs."description", jobs."must_have", jobs."schedule", null) is distinct from (excluded."title", excluded."location", excluded."summary", excluded."description", excluded."must_have", excluded."schedule", null))`
	const assignments = `"title" = excluded."title", "location" = excluded."location", "summary" = excluded."summary", "description" = excluded."description", "must_have" = excluded."must_have", "schedule" = excluded."schedule",
		status = 'Open',
		published_at = case when jobs.status = 'Open' then jobs.published_at else now() end,
		closed_at = null,
		updated_at = case when ${changes} then now() else jobs.updated_at end,
		last_write_changed = ${changes},
		last_write_event = case when jobs.status <> 'Open' then case when jobs.published_at is null then 'job.published' else 'job.reopened' end when ${changes} then 'job.changed' else null end`
	// The ceiling: the upsert of the fields the benchmark sends and its log line, written out by hand
	// (the smallest statement that does the publish's work). The app's own statement (pgbench-app,
	// below) also looks the key up and has one fixed text for every set of sent fields.
	const upsert = `insert into "jobs" (id, workspace_id, vendor_id, vendor_job_id, slug, status, created_at, published_at, "title", "location", "summary", "description", "must_have", "schedule")
		values ('job_b' || :n, :ws, :ven, 'job-' || :jid, 'senior-backend-engineer-' || :jid || '-' || :n, 'Open', date_trunc('milliseconds', now()), now(), :title_prefix || :jid, :loc, :summary_prefix || :n, :desc, array[:m1, :m2, :m3]::text[], :sched)
		on conflict (vendor_id, vendor_job_id) do update set
		${assignments}`
	const columnNames = [
		'id',
		'workspace_id',
		'vendor_id',
		'vendor_job_id',
		'slug',
		'title',
		'location',
		'employment',
		'contract_type',
		'summary',
		'description',
		'must_have',
		'nice_to_have',
		'visa',
		'interview',
		'schedule',
		'min_years',
		'department',
		'salary_min',
		'salary_max',
		'status',
		'actively_hiring',
		'created_by_user_id',
		'created_at',
		'updated_at',
		'published_at',
		'closed_at',
	]
	const jobColumns = columnNames.map((c) => `j.${c} as "${c.replace(/_(.)/g, (_, x: string) => x.toUpperCase())}"`).join(', ')
	const activityColumns =
		'insert into "activity" (id, workspace_id, actor_user_id, actor_vendor_id, actor_name, credential_kind, credential_id, credential_name, action, target_type, target_id)'
	// Since the domain events (modules/events), a publish that changes the job also records its event.
	const eventColumns = 'insert into "events" (id, type, data, workspace_id, actor_kind, actor_user_id, actor_vendor_id)'
	const eventData = (id: string, status: string) => `jsonb_build_object('jobId', ${id}::text, 'vendorId', :ven::text, 'status', ${status}::text)`
	const vars = `\\set jid random(1, ${JOBS})\n\\set n random(1, 9000000000000000)\n`
	const cteScript = `${vars}with j as (
	${upsert}
	returning ${columnNames.join(', ')}, last_write_changed, last_write_event, (xmax = 0) as inserted
), log as (
	${activityColumns}
	select 'act_b' || :n, :ws, null, :ven, :vname, 'vendor_key', :credid, :credname, case when j.inserted then 'job.published' else 'job.republished' end, 'job', j.id
	from j where j.last_write_changed
), event as (
	${eventColumns}
	select 'evt_b' || :n, j.last_write_event, ${eventData('j.id', 'j.status')}, :ws, 'vendor_key', null, :ven
	from j where j.last_write_event is not null
)
select ${jobColumns}, j.inserted as "inserted" from j;
`
	const txScript = `${vars}begin;
${upsert}
	returning ${columnNames.join(', ')}, (xmax = 0) as inserted, last_write_changed as changed, coalesce(last_write_event, '') as event \\gset r_
${activityColumns}
	select 'act_b' || :n, :ws, null, :ven, :vname, 'vendor_key', :credid, :credname, case when :r_inserted::boolean then 'job.published' else 'job.republished' end, 'job', :r_id
	where :r_changed::boolean;
${eventColumns}
	select 'evt_b' || :n, :r_event, ${eventData(':r_id', ':r_status')}, :ws, 'vendor_key', null, :ven
	where :r_event::text <> '';
end;
`
	writeFileSync(join(work, 'publish-cte.sql'), cteScript)
	writeFileSync(join(work, 'publish-tx.sql'), txScript)
	// The app's statement, text for text, its parameters bound to the same values as the API's.
	const appBound: Record<string, string> = {
		keyHash: ':keyhash',
		activityId: "'act_b' || :n",
		eventId: "'evt_b' || :n",
		id: "'job_b' || :n",
		vendorJobId: "'job-' || :jid",
		slug: "'senior-backend-engineer-' || :jid || '-' || :n",
		title: ':title_prefix || :jid',
		location: ':loc',
		summary: ':summary_prefix || :n',
		description: ':desc',
		mustHave: ':musthave',
		schedule: ':sched',
		sent: ':sent',
	}
	const appScript = `${vars}${publishStatement.text.replace(/\$(\d+)/g, (_, i: string) => {
		const param = publishStatement.params[Number(i) - 1]
		if (param instanceof Placeholder) return param.name in appBound ? `(${appBound[param.name]})` : 'null' // fields not sent
		return `'${String(param).replaceAll("'", "''")}'`
	})};\n`
	writeFileSync(join(work, 'publish-app.sql'), appScript)
	const pgbenchDefines = Object.entries({
		ws: ws.workspaceId!,
		ven: vendor.vendorId!,
		vname: actor!.vendorName as string,
		credid: vendor.keyId!,
		credname: credentialName,
		desc: DESCRIPTION,
		loc: LOCATION,
		sched: SCHEDULE,
		m1: MUST_HAVE[0]!,
		m2: MUST_HAVE[1]!,
		m3: MUST_HAVE[2]!,
		title_prefix: TITLE_PREFIX,
		summary_prefix: SUMMARY_PREFIX,
		keyhash: hashSecret(apiKey),
		musthave: `{${MUST_HAVE.map((m) => JSON.stringify(m)).join(',')}}`,
		sent: String(
			['title', 'location', 'schedule', 'mustHave', 'summary', 'description'].reduce((bits, f) => bits | (1 << EDITABLE_FIELDS.indexOf(f as EditableField)), 0),
		),
	}).flatMap(([k, v]) => ['-D', `${k}=${v}`])

	// wrk builds each body (a random seeded job, a new summary) so that every request changes the job.
	const json = (s: string) => JSON.stringify(s).slice(1, -1)
	const lua = `-- generated by bench/publish.ts
local desc = [==[${json(DESCRIPTION)}]==]
local head = '{"vendorJobId":"job-'
local mid1 = '","title":"${json(TITLE_PREFIX)}'
local mid2 = '","location":"${json(LOCATION)}","schedule":"${json(SCHEDULE)}","mustHave":${JSON.stringify(MUST_HAVE)},"summary":"${json(SUMMARY_PREFIX)}'
local mid3 = '","description":"' .. desc .. '"}'
local counter = 0
local nonce
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer ${apiKey}"
function init(args)
  math.randomseed(os.time() + math.floor(os.clock() * 1000000))
  nonce = math.random(1, 1000000000)
end
function request()
  counter = counter + 1
  local jid = math.random(1, ${JOBS})
  return wrk.format(nil, "/api/v1/jobs", nil, head .. jid .. mid1 .. jid .. mid2 .. nonce .. "-" .. counter .. mid3)
end
`
	writeFileSync(join(work, 'publish.lua'), lua)

	const pgbenchCmd = (name: RunName, seconds: number, logPrefix?: string) => [
		'pgbench',
		'-h',
		'127.0.0.1',
		'-p',
		String(pgPort),
		'-U',
		'postgres',
		'-n',
		'-M',
		name === 'pgbench-cte-unprepared' ? 'extended' : 'prepared',
		'-f',
		join(work, { 'pgbench-tx': 'publish-tx.sql', 'pgbench-app': 'publish-app.sql' }[name as string] ?? 'publish-cte.sql'),
		'-c',
		String(PGBENCH_CLIENTS),
		'-j',
		String(PGBENCH_THREADS),
		'-T',
		String(seconds),
		...(logPrefix ? ['-l', `--log-prefix=${logPrefix}`] : []),
		...pgbenchDefines,
		dbName,
	]
	const wrkCmd = (seconds: number) => [
		'wrk',
		`-t${WRK_THREADS}`,
		`-c${WRK_CONNECTIONS}`,
		`-d${seconds}s`,
		'--latency',
		'-s',
		join(work, 'publish.lua'),
		`${base}/api/v1/jobs`,
	]
	const printable = (cmd: string[]) => cmd.map((a) => (a.startsWith('desc=') ? 'desc=<1 KB HTML>' : /[\s"'<>;…]/.test(a) ? `'${a}'` : a)).join(' ')

	const activityCount = async () => (await db`select count(*)::int as n from activity`)[0]!.n as number

	async function measure(name: RunName, round: number): Promise<Result> {
		const isApp = name === 'app'
		// warm-up
		if (WARMUP > 0) await run(isApp ? wrkCmd(WARMUP) : pgbenchCmd(name, WARMUP))
		const logDir = join(work, `pglog-${round}-${name}`)
		if (!isApp) mkdirSync(logDir)
		const cmd = isApp ? wrkCmd(DURATION) : pgbenchCmd(name, DURATION, join(logDir, 'log'))
		const idleWait = WAIT_IDLE > 0 ? await waitIdle() : { waited: 0, busyPct: -1 }
		const logBefore = await activityCount()
		let loadgen = 0
		let cpu: Cpu | null = null
		const wallStart = Date.now()
		const pending = run(cmd, { onStart: (p) => (loadgen = p.pid) })
		// CPU window [0.5 s, DURATION - 0.5 s]: the load generator and its backends are alive at both ends.
		await Bun.sleep(500)
		const a = snapshot()
		await Bun.sleep(Math.max(0, DURATION * 1000 - 1000))
		const b = snapshot()
		cpu = cpuBetween(a, b, { app: server.pid, postmaster, loadgen })
		const out = await pending
		const wall: [number, number] = [wallStart, Date.now()]
		await Bun.sleep(200) // let the server finish requests still in flight when wrk stopped
		const logRows = (await activityCount()) - logBefore
		let rps: number, p50: number, p99: number, ops: number, errors: number
		if (isApp) {
			const text = out.stdout
			rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(text)![1])
			p50 = wrkMs(/^\s+50%\s+(\S+)/m.exec(text)![1]!)
			p99 = wrkMs(/^\s+99%\s+(\S+)/m.exec(text)![1]!)
			ops = Number(/(\d+) requests in/.exec(text)![1])
			errors = Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0)
			const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text)
			if (socket) errors += socket.slice(1).reduce((s, v) => s + Number(v), 0)
		} else {
			const text = out.stdout
			rps = Number(/tps = ([\d.]+)/.exec(text)![1])
			ops = Number(/number of transactions actually processed: (\d+)/.exec(text)![1])
			errors = Number(/number of failed transactions: (\d+)/.exec(text)?.[1] ?? 0)
			const lat: number[] = []
			for (const f of readdirSync(logDir))
				for (const line of readFileSync(join(logDir, f), 'utf8').split('\n')) if (line) lat.push(Number(line.split(' ')[2]) / 1000)
			lat.sort((x, y) => x - y)
			p50 = percentile(lat, 0.5)
			p99 = percentile(lat, 0.99)
			rmSync(logDir, { recursive: true, force: true })
		}
		if (isApp) memory.afterAppRunsMB.push(residentMB(server.pid))
		return { round, run: name, rps, p50, p99, ops, errors, logPerOp: ops ? logRows / ops : 0, cpu, idleWait, wall, cmd: printable(cmd) }
	}

	const results: Result[] = []
	/** A run is flagged when other processes used more than this many CPU-seconds in its window. */
	const NOISY = Math.max(0.5, 0.05 * 2 * (DURATION - 1))
	const fmt = (v: number, d = 0) => v.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d })
	console.log(
		`\n== ${ROUNDS} rounds x ${RUNS.length} runs, ${WARMUP} s warm-up + ${DURATION} s measured each; pgbench -c${PGBENCH_CLIENTS} -j${PGBENCH_THREADS}, wrk -t${WRK_THREADS} -c${WRK_CONNECTIONS}`,
	)
	console.log(
		`${'round'.padEnd(6)}${'run'.padEnd(50)}${'upserts/s'.padStart(10)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'errors'.padStart(8)}${'log/op'.padStart(8)}   CPU-s app / pg / loadgen / other, idle %`,
	)
	for (let round = 1; round <= ROUNDS; round++) {
		await db.unsafe('truncate activity, events')
		await db.unsafe('vacuum analyze jobs')
		await db.unsafe('checkpoint')
		const order = RUNS.map((_, i) => RUNS[(i + round - 1) % RUNS.length]!)
		for (const name of order) {
			const r = await measure(name, round)
			results.push(r)
			console.log(
				`${String(round).padEnd(6)}${LABEL[name].padEnd(50)}${fmt(r.rps).padStart(10)}${fmt(r.p50, 2).padStart(9)}${fmt(r.p99, 2).padStart(9)}${String(r.errors).padStart(8)}${r.logPerOp.toFixed(2).padStart(8)}   ${r.cpu.app.toFixed(1)} / ${r.cpu.postgres.toFixed(1)} / ${r.cpu.loadgen.toFixed(1)} / ${r.cpu.other.toFixed(1)}, idle ${r.cpu.idlePct.toFixed(0)} %${r.cpu.other > NOISY ? '  NOISY' : ''}`,
			)
		}
	}
	const jobsAfter = (await db`select count(*)::int as n from jobs where vendor_id = ${vendor.vendorId!}`)[0]!.n as number

	// 4. summary
	const byRun = (name: RunName) => results.filter((r) => r.run === name)
	console.log(`\n== summary: median over ${ROUNDS} rounds (${fmt(DURATION)} s runs)\n`)
	console.log('| run | upserts/s | p50 ms | p99 ms | upserts/s per round | CPU ms per upsert: app / postgres / loadgen |')
	console.log('|---|---:|---:|---:|---|---|')
	const window = Math.max(0, DURATION - 1)
	const perOp = (r: Result, k: 'app' | 'postgres' | 'loadgen') => (1000 * r.cpu[k]) / (r.rps * window || 1)
	const summary: Record<string, unknown> = {}
	for (const name of RUNS) {
		const rs = byRun(name)
		const s = {
			rps: median(rs.map((r) => r.rps)),
			p50: median(rs.map((r) => r.p50)),
			p99: median(rs.map((r) => r.p99)),
			perRound: rs.map((r) => Math.round(r.rps)),
			cpuMsPerUpsert: {
				app: median(rs.map((r) => perOp(r, 'app'))),
				postgres: median(rs.map((r) => perOp(r, 'postgres'))),
				loadgen: median(rs.map((r) => perOp(r, 'loadgen'))),
			},
		}
		summary[name] = s
		const c = s.cpuMsPerUpsert
		console.log(
			`| ${LABEL[name]} | ${fmt(s.rps)} | ${fmt(s.p50, 2)} | ${fmt(s.p99, 2)} | ${s.perRound.map((v) => fmt(v)).join(' / ')} | ${c.app.toFixed(2)} / ${c.postgres.toFixed(2)} / ${c.loadgen.toFixed(2)} |`,
		)
	}
	const ratios: Record<string, { median: number; perRound: number[] }> = {}
	const ratio = (num: RunName, den: RunName, what: string) => {
		if (!RUNS.includes(num) || !RUNS.includes(den)) return
		const per = Array.from({ length: ROUNDS }, (_, i) => byRun(num)[i]!.rps / byRun(den)[i]!.rps)
		ratios[`${num} / ${den}`] = { median: median(per), perRound: per }
		console.log(`| ${what} | **${median(per).toFixed(2)}** | ${per.map((v) => v.toFixed(2)).join(' / ')} |`)
	}
	console.log('\n| ratio (per round, same round) | median | per round |')
	console.log('|---|---:|---|')
	ratio('app', 'pgbench-cte', 'app / pgbench CTE prepared (issue 2 goal ≥ 0.5)')
	ratio('app', 'pgbench-tx', 'app / pgbench 2-stmt tx (issue 8 goal ≥ 0.75)')
	ratio('app', 'pgbench-cte-unprepared', 'app / pgbench CTE -M extended')
	ratio('app', 'pgbench-app', "app / pgbench running the app's statement (the cost of everything around the SQL)")
	ratio('pgbench-app', 'pgbench-cte', "pgbench: the app's statement / the upsert + log CTE (the key lookup and fixed text, in SQL)")
	ratio('pgbench-cte-unprepared', 'pgbench-cte', 'pgbench CTE -M extended / prepared (parse+plan per call)')
	ratio('pgbench-cte', 'pgbench-tx', 'pgbench CTE / 2-stmt tx')
	const noisy = results.filter((r) => r.cpu.other > NOISY).length
	console.log(
		`\n${noisy} of ${results.length} runs NOISY (other processes used > ${NOISY.toFixed(1)} CPU-s of their window)${noisy ? ': the machine was shared, rerun when it is quiet' : ''}`,
	)
	const errors = results.reduce((s, r) => s + r.errors, 0)
	if (!appWritesActivity)
		console.log(
			'\nWARNING: the app wrote no activity line for its upserts (see log/op and the preflight warning): its figure does less work than the ceilings.',
		)
	console.log(
		`\nerrors (non-2xx, socket errors, failed transactions): ${errors}; seeded jobs after the run: ${jobsAfter} (${jobsAfter === JOBS ? 'every upsert took the update path' : 'SOME UPSERTS INSERTED'})`,
	)

	// the profile (BENCH_CPU_PROF=1) is written when the server exits
	let profile: string | null = null
	let profileSummary: ProfileSummary | null = null
	if (CPU_PROF) {
		await stopServer()
		const file = existsSync(profDir) ? readdirSync(profDir).find((f) => f.endsWith('.cpuprofile')) : undefined
		if (file) {
			mkdirSync(join(ROOT, 'bench/results'), { recursive: true })
			profile = join(ROOT, 'bench/results', `publish-${started.toISOString().replace(/[:.]/g, '-')}.cpuprofile`)
			copyFileSync(join(profDir, file), profile)
			console.log(`CPU profile of the server: ${profile}`)
			profileSummary = summarizeProfile(
				profile,
				byRun('app').map((r) => r.wall),
			)
			printProfile(profileSummary)
		} else console.log('no CPU profile was written')
	}

	console.log(
		`server resident memory: ${memory.idleMB} MB at rest, ${memory.afterAppRunsMB.join(' / ')} MB after each app run; load average now ${loadavg()[0]!.toFixed(1)}`,
	)
	const outFile = env.BENCH_JSON ?? join(ROOT, 'bench/results', `publish-${started.toISOString().replace(/[:.]/g, '-')}.json`)
	mkdirSync(resolve(outFile, '..'), { recursive: true })
	const machine = {
		nproc: cpus().length,
		cpuModel: /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpus()[0]?.model,
		memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
		kernel: readFileSync('/proc/sys/kernel/osrelease', 'utf8').trim(),
		bun: (await run([BUN, '--version'])).stdout.trim(),
		pgbench: (await run(['pgbench', '--version'])).stdout.trim(),
		wrk: (await run(['sh', '-c', 'wrk -v 2>&1 | head -1'], { check: false })).stdout.trim(),
		postgres: ((await db`select version() as v`)[0]!.v as string).split(',')[0],
	}
	writeFileSync(
		outFile,
		JSON.stringify(
			{
				started: started.toISOString(),
				seconds: Math.round((performance.now() - t0) / 1000),
				settings: { ROUNDS, DURATION, WARMUP, JOBS, PGBENCH_CLIENTS, PGBENCH_THREADS, WRK_CONNECTIONS, WRK_THREADS, MODE, RATE_LIMIT, CPU_PROF },
				machine,
				memory,
				noisyRuns: noisy,
				appWritesActivity,
				summary,
				ratios,
				errors,
				jobsAfter,
				profile,
				profileSummary,
				results,
				scripts: { cte: cteScript, tx: txScript, app: appScript, wrk: lua.replace(apiKey, '<api key>') },
			},
			null,
			1,
		),
	)
	console.log(`raw results: ${outFile}`)
	console.log(
		`machine: ${machine.nproc} CPU ${machine.cpuModel}, ${machine.memoryGiB} GiB, ${machine.postgres}, bun ${machine.bun}, ${machine.wrk.split(' ')[0]} ${machine.wrk.split(' ')[1] ?? ''}`,
	)
	console.log(`total ${Math.round((performance.now() - t0) / 1000)} s`)
	if (errors > 0 || jobsAfter !== JOBS) process.exitCode = 1
}

try {
	await main()
} catch (error) {
	console.error(`\nbench/publish failed: ${(error as Error).stack ?? error}`)
	process.exitCode = 1
} finally {
	await cleanup()
}
