/**
 * bench/mcp — issue 8, figure 2: MCP `tools/call` of `list_jobs` (25 rows) and `search`, calls/s
 * and p50/p99, against the SDK's own ceiling and the same SQL. Goal: app ≥ 0.6 × SDK ceiling.
 *
 *   bun bench/mcp.ts             (npm run bench:mcp; about 5 minutes with the defaults)
 *
 * One run:
 *  1. creates a throwaway database on SHARED_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres),
 *     migrates it, creates a workspace, an owner with a personal token and JOBS (5,000) jobs,
 *     CANDIDATES (20,000) candidates and two applications each (SQL generate_series), checks every
 *     application's résumé against its job as a running instance long since has (else the app's
 *     start-up sweep does it during the measurement, taking CPU from every run), VACUUM ANALYZE;
 *  2. calls each tool once in-process with drizzle's query logger on, to capture the exact
 *     statements a call sends (token check included) and its answer;
 *  3. starts, each as its own Bun process on loopback: the app (`bun core/main.ts`) and
 *     bench/mcp-ceiling.ts (the SDK ceiling `/const` and SDK + the same SQL `/sql`);
 *  4. runs ROUNDS (5) rounds, the order rotated each round, WARMUP (2) s + DURATION (10) s each, of
 *     `wrk -t1 -c32 --latency` against: ceiling const, ceiling + SQL, the app; and the captured
 *     statements run directly with postgres.js (pool 10, 32 concurrent callers, in this process);
 *  5. prints every run (with the serving process's CPU per call and that of every PostgreSQL process
 *     on the machine: run it on a quiet one), the medians and the per-round ratios; writes
 *     bench/results/mcp-<date>.json.
 * BENCH_RUNS=<regex> keeps the runs whose name matches (the summary ratios need both sides).
 * BENCH_CPU_PROF=1 runs the app under `bun --cpu-prof` into bench/results/prof-mcp (summarise with
 * bench/cpu-profile.ts).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import postgres from 'postgres'
import { loadConfig } from '../core/config.ts'
import { createLogger } from '../core/log.ts'
import { createApp, createDeps } from '../core/main.ts'
import { openDatabase } from '../db/client.ts'
import { addPerson, createPersonalToken, createWorkspace, operatorActor, personActor } from '../modules/auth/index.ts'
import { flushAudit } from '../modules/audit/index.ts'
import { ROLE_TEMPLATES } from '../modules/jobs/index.ts'
import { recheckChangedJobs } from '../modules/candidates/index.ts'

const env = process.env
const ROOT = resolve(import.meta.dir, '..')
const BUN = process.execPath
const ROUNDS = Number(env.ROUNDS ?? 5)
const DURATION = Number(env.DURATION ?? 10)
const WARMUP = Number(env.WARMUP ?? 2)
const JOBS = Number(env.JOBS ?? 5_000)
const CANDIDATES = Number(env.CANDIDATES ?? 20_000)
const CONNECTIONS = Number(env.WRK_CONNECTIONS ?? 32)
const SHARED = env.SHARED_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const dbName = `bl_mcp_${process.pid}`
const url = SHARED.replace(/\/[^/]*$/, `/${dbName}`)
const work = mkdtempSync(join(tmpdir(), 'bl-bench-mcp-'))
const TOOLS: Record<string, Record<string, unknown>> = { list_jobs: {}, search: { q: 'java developer' } }

const children = new Set<Bun.Subprocess>()
const admin = postgres(SHARED, { max: 1, onnotice: () => {} })
const cleanup = async () => {
	for (const c of children) c.kill('SIGTERM')
	await Promise.all([...children].map((c) => Promise.race([c.exited, Bun.sleep(5000)])))
	await admin.unsafe(`drop database if exists ${dbName} with (force)`).catch(() => {})
	await admin.end()
	rmSync(work, { recursive: true, force: true })
}
process.on('SIGINT', () => void cleanup().then(() => process.exit(130)))

async function freePort(): Promise<number> {
	const s = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
	const port = s.port
	s.stop(true)
	return port
}

function spawn(name: string, cmd: string[], extra: Record<string, string>) {
	const proc = Bun.spawn(cmd, {
		cwd: ROOT,
		env: { ...env, ...extra },
		stdout: Bun.file(join(work, `${name}.log`)),
		stderr: Bun.file(join(work, `${name}.err`)),
	})
	children.add(proc)
	return proc
}

async function healthy(base: string, proc: Bun.Subprocess) {
	for (let i = 0; i < 600; i++) {
		if (proc.exitCode !== null) throw new Error(`${base} exited ${proc.exitCode}: ${await Bun.file(join(work, 'app.err')).text()}`)
		if (
			await fetch(`${base}/health`).then(
				(r) => r.ok,
				() => false,
			)
		)
			return
		await Bun.sleep(100)
	}
	throw new Error(`${base} not healthy in 60 s`)
}

const wrkMs = (v: string) => {
	const m = /^([\d.]+)(us|ms|s)$/.exec(v)
	if (!m) throw new Error(`wrk latency "${v}"`)
	return Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1)
}

interface Result {
	round: number
	run: string
	rps: number
	p50: number
	p99: number
	errors: number
	/** CPU time the serving process spent per call (user + system), ms: unlike the rate, barely moved by other load. */
	cpuMsPerCall?: number
	/** CPU time every PostgreSQL process spent per call (the server shares the machine's cores with it), ms. */
	dbCpuMsPerCall?: number
}

/** A process's CPU time so far (user + system), seconds, from /proc/<pid>/stat (clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
	const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
	return (Number(fields[11]) + Number(fields[12])) / 100
}

/**
 * CPU time of every PostgreSQL process on this machine so far, seconds, counting the CPU of backends
 * that ended (their parent, the postmaster, is credited with it: fields cutime and cstime).
 */
function databaseCpuSeconds(): number {
	let total = 0
	for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
		let stat: string
		try {
			stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
		} catch {
			continue // ended since the directory was read
		}
		if (!stat.includes('(postgres)')) continue
		const fields = stat.split(') ')[1]!.split(' ')
		total += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])
	}
	return total / 100
}

const body = (name: string, args: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } })
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' }

async function wrk(run: string, round: number, base: string, path: string, tool: string, token: string | null, server: number): Promise<Result> {
	const headers = Object.entries({ ...HEADERS, ...(token ? { authorization: `Bearer ${token}` } : {}) })
		.map(([k, v]) => `wrk.headers["${k}"] = "${v}"`)
		.join('\n')
	const lua = join(work, `${run}.lua`)
	writeFileSync(lua, `wrk.method = "POST"\nwrk.body = '${body(tool, TOOLS[tool]!)}'\n${headers}\n`)
	const cmd = (s: number) => ['wrk', '-t1', `-c${CONNECTIONS}`, `-d${s}s`, '--latency', '-s', lua, `${base}${path}`]
	if (WARMUP) await Bun.spawn(cmd(WARMUP), { stdout: 'ignore' }).exited
	const cpuBefore = cpuSeconds(server)
	const dbBefore = databaseCpuSeconds()
	const proc = Bun.spawn(cmd(DURATION), { stdout: 'pipe' })
	const out = await new Response(proc.stdout).text()
	await proc.exited
	const cpu = cpuSeconds(server) - cpuBefore
	const dbCpu = databaseCpuSeconds() - dbBefore
	const calls = Number(/(\d+) requests in/.exec(out)?.[1])
	const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1])
	const p50 = wrkMs(/\s50%\s+(\S+)/.exec(out)![1]!)
	const p99 = wrkMs(/\s99%\s+(\S+)/.exec(out)![1]!)
	const errors =
		Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0) +
		Number(
			/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/
				.exec(out)
				?.slice(1)
				.reduce((a, b) => a + Number(b), 0) ?? 0,
		)
	return { round, run, rps, p50, p99, errors, cpuMsPerCall: (cpu * 1000) / calls, dbCpuMsPerCall: (dbCpu * 1000) / calls }
}

/** The captured statements of one call, run directly with postgres.js: CONNECTIONS callers in a loop. */
async function direct(run: string, round: number, db: postgres.Sql, statements: { text: string; params: unknown[] }[]): Promise<Result> {
	const once = async () => {
		for (const q of statements) await db.unsafe(q.text, q.params as never[], { prepare: true })
	}
	const loop = async (until: number, times: number[] | null) => {
		while (performance.now() < until) {
			const s = performance.now()
			await once()
			times?.push(performance.now() - s)
		}
	}
	await Promise.all(Array.from({ length: CONNECTIONS }, () => loop(performance.now() + WARMUP * 1000, null)))
	const times: number[] = []
	const start = performance.now()
	await Promise.all(Array.from({ length: CONNECTIONS }, () => loop(start + DURATION * 1000, times)))
	const seconds = (performance.now() - start) / 1000
	times.sort((a, b) => a - b)
	return { round, run, rps: times.length / seconds, p50: times[Math.floor(times.length * 0.5)]!, p99: times[Math.floor(times.length * 0.99)]!, errors: 0 }
}

try {
	await admin.unsafe(`create database ${dbName}`)
	// 1. data
	const config = loadConfig({
		...env,
		DATABASE_URL: url,
		BASE_URL: 'http://localhost:3000',
		RATE_LIMIT_PER_MINUTE: '1000000',
		REDIS_URL: '',
		LOG_LEVEL: 'warn',
		DEMO: 'off',
	})
	const database = await openDatabase(config)
	const deps = await createDeps({ config, database, log: createLogger('warn') })
	const ws = await createWorkspace(deps, { slug: `mcp-${process.pid}`, name: 'MCP Bench Staffing' })
	const email = `owner-${process.pid}@bench.test`
	await addPerson(deps, operatorActor(ws), ws, { email, name: 'Bench Owner', role: 'owner', password: 'correct horse battery' })
	const token = (await createPersonalToken(deps, await personActor(deps, ws.slug, email), { name: 'bench' })).token
	const pg = postgres(url, { max: 10, onnotice: () => {} })
	const t = ROLE_TEMPLATES
	await pg.unsafe(
		`insert into jobs (id, workspace_id, slug, title, location, summary, must_have, nice_to_have, status, published_at, created_at, closed_at)
		select 'job_b' || g, $1, 'job-' || g, ($2::text[])[1 + g % $6] || ' ' || g, 'Austin, TX', ($3::text[])[1 + g % $6], string_to_array(($4::text[])[1 + g % $6], '|'), string_to_array(($5::text[])[1 + g % $6], '|'),
			case when g % 10 = 3 then 'Closed' else 'Open' end, now() - g * interval '1 minute', now() - g * interval '1 minute', case when g % 10 = 3 then now() end
		from generate_series(1, $7::int) g`,
		[ws.id, t.map((r) => r.title), t.map((r) => r.summary), t.map((r) => r.mustHave.join('|')), t.map((r) => r.niceToHave.join('|')), t.length, JOBS],
	)
	await pg.unsafe(
		`insert into candidates (id, workspace_id, name, email, headline, location, skills, created_at)
		select 'cand_b' || g, $1, (array['Priya','Rahul','Wei','Maria','John','Fatima','Kenji','Olga','Arjun','Emma'])[1 + g % 10] || ' ' || (array['Sharma','Patel','Nguyen','Garcia','Smith','Khan','Tanaka','Ivanov','Reddy','Lee','Kim'])[1 + (g / 10) % 11],
			'c' || g || '@bench.test', ($2::text[])[1 + g % $4], 'Dallas, TX', string_to_array(($3::text[])[1 + g % $4], '|'), now() - g * interval '30 seconds'
		from generate_series(1, $5::int) g`,
		[ws.id, t.map((r) => r.title), t.map((r) => r.mustHave.join('|')), t.length, CANDIDATES],
	)
	await pg.unsafe(
		`insert into applications (id, workspace_id, candidate_id, job_id, stage_key, created_at)
		select 'app_b' || g || '_' || k, $1, 'cand_b' || g, 'job_b' || (1 + (g * 2 + k * 977) % $2), 'applied', now() - g * interval '30 seconds' from generate_series(1, $3::int) g, generate_series(0, 1) k`,
		[ws.id, JOBS, CANDIDATES],
	)
	// A running instance has long since checked every application's résumé against its job (the
	// sweep that catches up after a job changes, modules/candidates/recheck.ts): done here, so the
	// app does not spend the measurement catching up on 40,000 freshly seeded applications.
	const checking = performance.now()
	const checked = await recheckChangedJobs(deps, new Date(0))
	console.log(`checked ${checked} résumés against their jobs in ${((performance.now() - checking) / 1000).toFixed(1)} s`)
	await pg.unsafe('vacuum analyze')

	// 2. capture the statements and answers
	const app = createApp(deps)
	const session = (deps.db as unknown as { session: { logger: { logQuery(q: string, p: unknown[]): void } } }).session
	const capture: Record<string, { statements: { text: string; params: unknown[] }[]; result: unknown }> = {}
	let lookup: { text: string; params: unknown[] } | undefined
	for (const [tool, args] of Object.entries(TOOLS)) {
		// A first call warms up (and stamps the token's last use, written at most once a minute);
		// the second call's statements are the steady state.
		// The token lookup is a drizzle prepared query, which keeps the logger it was prepared with,
		// so it is only seen on the first call: it is taken from there.
		const first: { text: string; params: unknown[] }[] = []
		const previous = session.logger
		session.logger = { logQuery: (text, params) => void first.push({ text, params }) }
		await app
			.handle(new Request('http://localhost/api/mcp', { method: 'POST', headers: { ...HEADERS, authorization: `Bearer ${token}` }, body: body(tool, args) }))
			.then((r) => r.text())
		session.logger = previous
		if (env.DEBUG_CAPTURE) console.log(first.map((q) => q.text.slice(0, 80)))
		lookup ??= first.find((q) => /^select .* from "personal_tokens"/is.test(q.text))
		if (!lookup) throw new Error('the token lookup was not seen')
		const statements: { text: string; params: unknown[] }[] = [lookup]
		session.logger = { logQuery: (text, params) => void statements.push({ text, params }) }
		const res = await app.handle(
			new Request('http://localhost/api/mcp', { method: 'POST', headers: { ...HEADERS, authorization: `Bearer ${token}` }, body: body(tool, args) }),
		)
		const text = await res.text() // the tool runs while the answer streams
		session.logger = previous
		const message = JSON.parse(text.slice(text.indexOf('{')))
		if (res.status !== 200 || message.result?.isError) throw new Error(`${tool}: ${res.status} ${text.slice(0, 300)}`)
		// Only reads are replayed: the last-use stamp is written at most once a minute per token.
		capture[tool] = { statements: statements.filter((q) => /^\s*select\b/i.test(q.text)), result: message.result.structuredContent }
		const rows = (message.result.structuredContent.jobs ?? message.result.structuredContent.results ?? []).length
		console.log(`captured ${tool}: ${capture[tool].statements.length} statements, ${rows} rows, answer ${text.length} bytes`)
	}
	writeFileSync(join(work, 'capture.json'), JSON.stringify(capture))
	// The calls' audit lines are buffered: written before the database is closed under them.
	await flushAudit(deps)
	await database.close()

	// 3. servers
	const appPort = await freePort()
	const ceilPort = await freePort()
	const appBase = `http://127.0.0.1:${appPort}`
	const ceilBase = `http://127.0.0.1:${ceilPort}`
	const appCmd = [BUN, ...(env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${join(ROOT, 'bench/results/prof-mcp')}`] : []), 'core/main.ts']
	const appProc = spawn('app', appCmd, {
		PORT: String(appPort),
		DATABASE_URL: url,
		DATA_DIR: join(work, 'data'),
		DEMO: 'off',
		RATE_LIMIT_PER_MINUTE: '1000000',
		LOG_LEVEL: 'warn',
		BASE_URL: appBase,
		REDIS_URL: '',
		// As it runs in production: tool results are not checked against their schemas (a test-time check).
		NODE_ENV: 'production',
	})
	const ceilProc = spawn('ceiling', [BUN, 'bench/mcp-ceiling.ts'], { PORT: String(ceilPort), DATABASE_URL: url, CAPTURE: join(work, 'capture.json') })
	await healthy(appBase, appProc)
	await healthy(ceilBase, ceilProc)
	for (const [base, path, tok] of [
		[appBase, '/api/mcp', token],
		[ceilBase, '/const', null],
		[ceilBase, '/sql', null],
	] as const)
		for (const tool of Object.keys(TOOLS)) {
			const res = await fetch(`${base}${path}`, {
				method: 'POST',
				headers: { ...HEADERS, ...(tok ? { authorization: `Bearer ${tok}` } : {}) },
				body: body(tool, TOOLS[tool]!),
			})
			const text = await res.text()
			if (res.status !== 200 || text.includes('"isError":true') || !text.includes('structuredContent'))
				throw new Error(`check ${base}${path} ${tool}: ${res.status} ${text.slice(0, 300)}`)
		}

	// 4. rounds
	const runs: [string, (round: number) => Promise<Result>][] = []
	for (const tool of Object.keys(TOOLS)) {
		runs.push([`${tool}: SDK ceiling (const)`, (r) => wrk(`${tool}-const`, r, ceilBase, '/const', tool, null, ceilProc.pid)])
		runs.push([`${tool}: SDK + same SQL`, (r) => wrk(`${tool}-sql`, r, ceilBase, '/sql', tool, null, ceilProc.pid)])
		runs.push([`${tool}: app`, (r) => wrk(`${tool}-app`, r, appBase, '/api/mcp', tool, token, appProc.pid)])
		runs.push([`${tool}: SQL only (postgres.js)`, (r) => direct(`${tool}-direct`, r, pg, capture[tool]!.statements)])
	}
	if (env.BENCH_RUNS) runs.splice(0, runs.length, ...runs.filter(([name]) => new RegExp(env.BENCH_RUNS!).test(name)))
	const results: Result[] = []
	console.log(
		`\nload average ${loadavg()
			.map((l) => l.toFixed(2))
			.join(' ')}, ${cpus().length} CPUs; ${ROUNDS} rounds × ${runs.length} runs of ${WARMUP} + ${DURATION} s`,
	)
	for (let round = 1; round <= ROUNDS; round++) {
		const order = runs.map((_, i) => runs[(i + round - 1) % runs.length]!)
		for (const [name, measure] of order) {
			const r = { ...(await measure(round)), run: name }
			results.push(r)
			console.log(
				`round ${round}  ${name.padEnd(34)} ${r.rps.toFixed(0).padStart(6)} calls/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  errors ${r.errors}${r.cpuMsPerCall === undefined ? '' : `  server CPU ${r.cpuMsPerCall.toFixed(3)} ms/call  database CPU ${r.dbCpuMsPerCall!.toFixed(3)} ms/call`}  load ${loadavg()[0]!.toFixed(2)}`,
			)
		}
	}

	// 5. summary
	const median = (xs: number[]) => {
		const s = [...xs].sort((a, b) => a - b)
		return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
	}
	console.log(
		`\n| run (median over ${ROUNDS} rounds) | calls/s | p50 ms | p99 ms | server CPU ms/call | database CPU ms/call | calls/s per round |\n|---|---:|---:|---:|---:|---:|---|`,
	)
	for (const [name] of runs) {
		const rs = results.filter((r) => r.run === name)
		const cpu = rs.flatMap((r) => (r.cpuMsPerCall === undefined ? [] : [r.cpuMsPerCall]))
		const dbCpu = rs.flatMap((r) => (r.dbCpuMsPerCall === undefined ? [] : [r.dbCpuMsPerCall]))
		console.log(
			`| ${name} | ${median(rs.map((r) => r.rps)).toFixed(0)} | ${median(rs.map((r) => r.p50)).toFixed(2)} | ${median(rs.map((r) => r.p99)).toFixed(2)} | ${cpu.length ? median(cpu).toFixed(3) : ''} | ${dbCpu.length ? median(dbCpu).toFixed(3) : ''} | ${rs.map((r) => r.rps.toFixed(0)).join(' / ')} |`,
		)
	}
	console.log(`\n| ratio (per round, then median) | median | per round |\n|---|---:|---|`)
	const ratio = (a: string, b: string) => {
		if (!results.some((r) => r.run === a) || !results.some((r) => r.run === b)) return []
		const per = Array.from(
			{ length: ROUNDS },
			(_, i) => results.find((r) => r.run === a && r.round === i + 1)!.rps / results.find((r) => r.run === b && r.round === i + 1)!.rps,
		)
		console.log(`| ${a} / ${b} | **${median(per).toFixed(2)}** | ${per.map((x) => x.toFixed(2)).join(' / ')} |`)
		return [{ a, b, median: median(per), per }]
	}
	const ratios = Object.keys(TOOLS).flatMap((tool) => [
		ratio(`${tool}: app`, `${tool}: SDK ceiling (const)`),
		ratio(`${tool}: app`, `${tool}: SDK + same SQL`),
		ratio(`${tool}: SDK + same SQL`, `${tool}: SDK ceiling (const)`),
	])
	await Bun.write(
		`${import.meta.dir}/results/mcp-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
		JSON.stringify(
			{
				rounds: ROUNDS,
				duration: DURATION,
				connections: CONNECTIONS,
				jobs: JOBS,
				candidates: CANDIDATES,
				results,
				ratios,
				statements: Object.fromEntries(Object.entries(capture).map(([k, v]) => [k, v.statements.map((s) => s.text)])),
			},
			null,
			2,
		),
	)
	await pg.end()
} finally {
	await cleanup()
}
