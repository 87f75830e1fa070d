/**
 * bench/feeds — issue 29: the careers feeds at 100,000 open jobs. Time to first byte, the whole
 * download and the server's memory (RSS at rest, peak VmHWM after each feed), on PostgreSQL.
 *
 *   bun bench/feeds.ts            (npm run bench:feeds; JOBS=100000 by default; about 3 minutes)
 *
 * A throwaway database on SHARED_PG_URL; the real server (`bun core/main.ts`) migrates it; with the
 * server down, a workspace and JOBS open jobs (each with a ~1 KB HTML description) are written in one
 * statement; then the server starts again and each feed is read ROUNDS (2) times by a client that
 * counts bytes as they arrive. Prints the figures and the machine.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { cpus, loadavg, totalmem, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { sql } from 'drizzle-orm'
import postgres from 'postgres'
import { loadConfig } from '../core/config.ts'
import { createLogger } from '../core/log.ts'
import { createDeps } from '../core/main.ts'
import { openDatabase } from '../db/client.ts'
import { createWorkspace } from '../modules/auth/index.ts'

const env = process.env
const ROOT = resolve(import.meta.dir, '..')
const JOBS = Number(env.JOBS ?? 100_000)
const ROUNDS = Number(env.ROUNDS ?? 2)
const SHARED = env.SHARED_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const admin = postgres(SHARED, { max: 1, onnotice: () => {} })
const work = mkdtempSync(join(tmpdir(), 'bl-bench-feeds-'))
const dbName = `bl_feeds_bench_${process.pid}`
const DATABASE_URL = SHARED.replace(/\/[^/]*$/, `/${dbName}`)
const kb = (pid: number, field: 'VmRSS' | 'VmHWM') => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN)

async function start(name: string) {
	const s = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
	const port = s.port
	s.stop(true)
	const base = `http://127.0.0.1:${port}`
	const proc = Bun.spawn([process.execPath, 'core/main.ts'], {
		cwd: ROOT,
		env: { ...env, PORT: String(port), BASE_URL: base, DATABASE_URL, DEMO: 'off', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000', REDIS_URL: '' },
		stdout: Bun.file(join(work, `${name}.log`)),
		stderr: Bun.file(join(work, `${name}.err`)),
	})
	for (const t0 = performance.now(); ; await Bun.sleep(50)) {
		if (proc.exitCode !== null) throw new Error(`${name} exited: ${readFileSync(join(work, `${name}.err`), 'utf8').slice(0, 500)}`)
		if (
			await fetch(`${base}/health`).then(
				(r) => r.ok,
				() => false,
			)
		)
			break
		if (performance.now() - t0 > 180_000) throw new Error(`${name}: not healthy in 180 s`)
	}
	const stop = async () => {
		proc.kill('SIGTERM')
		await Promise.race([proc.exited, Bun.sleep(15_000)])
		proc.kill('SIGKILL')
	}
	return { base, pid: proc.pid, stop }
}

async function prepare(): Promise<string> {
	const config = loadConfig({ ...env, DATABASE_URL, BASE_URL: 'http://localhost:3000', REDIS_URL: '', LOG_LEVEL: 'warn', DEMO: 'off' })
	const database = await openDatabase(config)
	try {
		const deps = await createDeps({ config, database, log: createLogger('warn') })
		const ws = await createWorkspace(deps, { slug: 'feeds-bench', name: 'Feeds Bench & Co' })
		const paragraph =
			'<p>Design, build and run services for a payments platform: Java 17, Spring Boot, Kafka, PostgreSQL, AWS. You will own releases end to end.</p>'
		for (let from = 1; from <= JOBS; from += 10_000)
			await database.rows(sql`insert into jobs (id, workspace_id, slug, title, location, schedule, contract_type, department, min_years, description, status, published_at, created_at)
			select 'job_fb' || lpad(g::text, 7, '0'), ${ws.id}, 'job-' || g, 'Senior Java Developer ' || g, 'Charlotte, NC 28202', 'Hybrid', 'W2', 'Technologies', 5,
				repeat(${paragraph}, 7), 'Open', now() - g * interval '1 minute', now() - g * interval '1 minute'
			from generate_series(${from}::int, ${Math.min(from + 9_999, JOBS)}::int) g`)
		return ws.slug
	} finally {
		await database.close()
	}
}

async function read(url: string) {
	const t0 = performance.now()
	const res = await fetch(url)
	const reader = res.body!.getReader()
	let first = 0
	let bytes = 0
	for (;;) {
		const { done, value } = await reader.read()
		if (done) break
		if (!first) first = performance.now() - t0
		bytes += value.byteLength
	}
	return { status: res.status, ttfbMs: first, totalMs: performance.now() - t0, mb: bytes / 1024 / 1024 }
}

try {
	console.log(
		`machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB; Bun ${Bun.version}; load average ${loadavg()
			.map((l) => l.toFixed(2))
			.join(' ')}`,
	)
	await admin.unsafe(`create database ${dbName}`)
	const first = await start('migrate')
	await first.stop()
	const t0 = performance.now()
	const slug = await prepare()
	console.log(`${JOBS.toLocaleString('en-US')} open jobs written in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
	const server = await start('serve')
	await Bun.sleep(3000)
	console.log(`server RSS at rest: ${(kb(server.pid, 'VmRSS') / 1024).toFixed(0)} MB`)
	for (let round = 1; round <= ROUNDS; round++)
		for (const feed of ['indeed.xml', 'jobs.rss']) {
			const r = await read(`${server.base}/careers/${slug}/feeds/${feed}`)
			console.log(
				`round ${round} ${feed.padEnd(10)} ${r.status}: first byte ${r.ttfbMs.toFixed(0)} ms, whole ${(r.totalMs / 1000).toFixed(1)} s, ${r.mb.toFixed(0)} MB; server RSS now ${(kb(server.pid, 'VmRSS') / 1024).toFixed(0)} MB, peak so far ${(kb(server.pid, 'VmHWM') / 1024).toFixed(0)} MB`,
			)
		}
	console.log(
		`load average after: ${loadavg()
			.map((l) => l.toFixed(2))
			.join(' ')}`,
	)
	await server.stop()
} finally {
	await admin.unsafe(`drop database if exists ${dbName} with (force)`)
	await admin.end()
	rmSync(work, { recursive: true, force: true })
}
