/**
 * bench/startup — issue 8, figure 4: time from `bun core/main.ts` to a healthy `/health`, on the
 * embedded database (first start on an empty data folder, then a restart) and on PostgreSQL (first
 * start on an empty database, then a restart); the server's memory at rest and under load.
 *
 *   bun bench/startup.ts          (npm run bench:startup; about 2 minutes)
 *
 * For each database, ROUNDS (3) times:
 *  1. first start: a new data folder (embedded; DEMO at its default, `on`, so the demo workspace is
 *     seeded as a new user sees it) or a new database on SHARED_PG_URL (migrations run); the time
 *     is from spawn to the first 200 of `GET /health` (polled every 20 ms);
 *  2. stop (SIGTERM), then, with the server down, a workspace, an owner with a personal token and
 *     JOBS (2,000) jobs are added through the services (the embedded database is single-process);
 *  3. restart: time to healthy again; RSS at rest 3 s later (/proc/<pid>/status VmRSS);
 *  4. load: `wrk -t1 -c32 -d10s` of MCP `tools/call list_jobs` (25 rows); the peak RSS (VmHWM) and
 *     calls/s.
 * Prints a table of medians and writes bench/results/startup-<date>.json.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import postgres from 'postgres'
import { loadConfig } from '../core/config.ts'
import { createLogger } from '../core/log.ts'
import { createDeps } from '../core/main.ts'
import { openDatabase } from '../db/client.ts'
import { addPerson, createPersonalToken, createWorkspace, operatorActor, personActor } from '../modules/auth/index.ts'

const env = process.env
const ROOT = resolve(import.meta.dir, '..')
const ROUNDS = Number(env.ROUNDS ?? 3)
const JOBS = Number(env.JOBS ?? 2_000)
const SHARED = env.SHARED_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const admin = postgres(SHARED, { max: 1, onnotice: () => {} })
const work = mkdtempSync(join(tmpdir(), 'bl-bench-startup-'))
const children = new Set<Bun.Subprocess>()

async function freePort(): Promise<number> {
	const s = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
	const port = s.port
	s.stop(true)
	return port
}

const kb = (pid: number, field: 'VmRSS' | 'VmHWM') => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN)

async function start(name: string, extra: Record<string, string>) {
	const port = await freePort()
	const base = `http://127.0.0.1:${port}`
	const t0 = performance.now()
	const proc = Bun.spawn([process.execPath, 'core/main.ts'], {
		cwd: ROOT,
		env: { ...env, PORT: String(port), BASE_URL: base, LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000', REDIS_URL: '', ...extra },
		stdout: Bun.file(join(work, `${name}.log`)),
		stderr: Bun.file(join(work, `${name}.err`)),
	})
	children.add(proc)
	for (;;) {
		if (proc.exitCode !== null) throw new Error(`${name} exited ${proc.exitCode}: ${readFileSync(join(work, `${name}.err`), 'utf8').slice(0, 500)}`)
		if (
			await fetch(`${base}/health`).then(
				(r) => r.status === 200,
				() => false,
			)
		)
			break
		if (performance.now() - t0 > 180_000) throw new Error(`${name}: not healthy in 180 s`)
		await Bun.sleep(20)
	}
	const ms = performance.now() - t0
	const stop = async () => {
		proc.kill('SIGTERM')
		await Promise.race([proc.exited, Bun.sleep(15_000)])
		proc.kill('SIGKILL')
		children.delete(proc)
	}
	return { ms, base, pid: proc.pid, stop }
}

/** A workspace, an owner's token and JOBS jobs, written with the server down. */
async function prepare(extra: Record<string, string>) {
	const config = loadConfig({ ...env, BASE_URL: 'http://localhost:3000', REDIS_URL: '', LOG_LEVEL: 'warn', ...extra, DEMO: 'off' })
	const database = await openDatabase(config)
	try {
		const deps = await createDeps({ config, database, log: createLogger('warn') })
		const ws = await createWorkspace(deps, { slug: `startup-${Date.now().toString(36)}`, name: 'Startup Bench' })
		const email = `owner@${ws.slug}.test`
		await addPerson(deps, operatorActor(ws), ws, { email, name: 'Owner', role: 'owner', password: 'correct horse battery' })
		const token = (await createPersonalToken(deps, await personActor(deps, ws.slug, email), { name: 'bench' })).token
		const { sql } = await import('drizzle-orm')
		await database.rows(sql`insert into jobs (id, workspace_id, slug, title, location, status, published_at, created_at)
			select 'job_st' || g, ${ws.id}, 'job-' || g, 'Senior Java Developer ' || g, 'Austin, TX', 'Open', now() - g * interval '1 minute', now() - g * interval '1 minute' from generate_series(1, ${JOBS}::int) g`)
		return token
	} finally {
		await database.close()
	}
}

async function load(base: string, token: string) {
	const lua = join(work, 'list.lua')
	writeFileSync(
		lua,
		`wrk.method = "POST"\nwrk.body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_jobs","arguments":{}}}'\nwrk.headers["content-type"] = "application/json"\nwrk.headers["accept"] = "application/json, text/event-stream"\nwrk.headers["mcp-protocol-version"] = "2025-06-18"\nwrk.headers["authorization"] = "Bearer ${token}"\n`,
	)
	const proc = Bun.spawn(['wrk', '-t1', '-c32', '-d10s', '--latency', '-s', lua, `${base}/api/mcp`], { stdout: 'pipe' })
	const out = await new Response(proc.stdout).text()
	await proc.exited
	if (/Non-2xx/.test(out)) throw new Error(`load: errors\n${out}`)
	return Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1])
}

interface Row {
	db: string
	round: number
	firstMs: number
	restartMs: number
	restMb: number
	loadMb: number
	callsPerS: number
}

const rows: Row[] = []
try {
	console.log(
		`load average ${loadavg()
			.map((l) => l.toFixed(2))
			.join(' ')}, ${cpus().length} CPUs`,
	)
	for (let round = 1; round <= ROUNDS; round++)
		for (const db of ['embedded', 'postgres'] as const) {
			const dataDir = join(work, `data-${db}-${round}`)
			const dbName = `bl_startup_${process.pid}_${round}`
			if (db === 'postgres') await admin.unsafe(`create database ${dbName}`)
			const extra = db === 'embedded' ? { DATA_DIR: dataDir, DATABASE_URL: '' } : { DATA_DIR: dataDir, DATABASE_URL: SHARED.replace(/\/[^/]*$/, `/${dbName}`) }
			const first = await start(`${db}-first-${round}`, extra)
			await first.stop()
			const token = await prepare(extra)
			const again = await start(`${db}-restart-${round}`, extra)
			await Bun.sleep(3000)
			const restMb = kb(again.pid, 'VmRSS') / 1024
			const callsPerS = await load(again.base, token)
			const loadMb = kb(again.pid, 'VmHWM') / 1024
			await again.stop()
			if (db === 'postgres') await admin.unsafe(`drop database if exists ${dbName} with (force)`)
			rmSync(dataDir, { recursive: true, force: true })
			const row = { db, round, firstMs: first.ms, restartMs: again.ms, restMb, loadMb, callsPerS }
			rows.push(row)
			console.log(
				`round ${round} ${db.padEnd(9)} first start ${first.ms.toFixed(0)} ms, restart ${again.ms.toFixed(0)} ms, RSS at rest ${restMb.toFixed(0)} MB, peak under load ${loadMb.toFixed(0)} MB (${callsPerS.toFixed(0)} list_jobs calls/s)`,
			)
		}
	const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!
	console.log(
		`\n| database (median of ${ROUNDS}) | first start → healthy ms | restart → healthy ms | RSS at rest MB | peak RSS under load MB | list_jobs calls/s under load |\n|---|---:|---:|---:|---:|---:|`,
	)
	for (const db of ['embedded', 'postgres']) {
		const rs = rows.filter((r) => r.db === db)
		console.log(
			`| ${db} | ${median(rs.map((r) => r.firstMs)).toFixed(0)} | ${median(rs.map((r) => r.restartMs)).toFixed(0)} | ${median(rs.map((r) => r.restMb)).toFixed(0)} | ${median(rs.map((r) => r.loadMb)).toFixed(0)} | ${median(rs.map((r) => r.callsPerS)).toFixed(0)} |`,
		)
	}
	await Bun.write(
		`${import.meta.dir}/results/startup-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
		JSON.stringify({ loadavg: loadavg(), rows }, null, 2),
	)
} finally {
	for (const c of children) c.kill('SIGKILL')
	await admin.end()
	rmSync(work, { recursive: true, force: true })
}
