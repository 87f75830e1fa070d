/**
 * Real processes for the reliability tests and `bench/` fault runs: a private PostgreSQL cluster
 * (initdb/pg_ctl, as the postgres user when run as root), a private redis-server, Benchline server
 * processes (`bun core/main.ts`) and a TCP proxy that can cut the link (nginx: nginx.ts).
 * Everything listens on loopback ports and lives in a temp folder; `stop()` removes it.
 *
 * A missing binary is an error with the command that installs it — never a silent skip.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { appendFileSync, chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'

export const ROOT = resolve(import.meta.dir, '../..')
export const BUN = resolve(ROOT, 'node_modules/.bin/bun')
/** The run's log file, scanned for secrets by `.ci/run`: server processes' log lines go there too. */
export const TEST_LOG = process.env.BENCHLINE_TEST_LOG ?? resolve(ROOT, '.tmp/test-log.jsonl')
mkdirSync(dirname(TEST_LOG), { recursive: true })

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * Everything started here is stopped when this process ends, even when a test run is interrupted
 * (Ctrl-C, `timeout`): no PostgreSQL cluster, Redis, nginx, socat or server is left behind.
 */
const stoppers = new Set<() => void>()
const stopAll = () => {
	for (const stop of stoppers)
		try {
			stop()
		} catch {}
	stoppers.clear()
}
process.once('exit', stopAll)
for (const signal of ['SIGINT', 'SIGTERM'] as const)
	process.once(signal, () => {
		stopAll()
		process.exit(signal === 'SIGINT' ? 130 : 143)
	})
export const track = (stop: () => void) => {
	stoppers.add(stop)
	return () => void stoppers.delete(stop)
}

/** The first existing path of a binary, or an Error saying how to install it. */
export function binary(name: string, debianPackage: string, extra: string[] = []): string {
	const found = [
		...extra,
		`/usr/bin/${name}`,
		`/usr/sbin/${name}`,
		`/usr/local/bin/${name}`,
		`/usr/local/sbin/${name}`,
		`/usr/lib/postgresql/15/bin/${name}`,
	].find((p) => existsSync(p))
	if (!found) throw new Error(`${name} is not installed: run \`apt-get install -y ${debianPackage}\` (the reliability tests need it)`)
	return found
}

/** A loopback port that was free a moment ago. */
export async function freePort(): Promise<number> {
	const server = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
	const port = server.port
	server.stop(true)
	return port
}

export async function waitFor(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 20_000, everyMs = 100): Promise<void> {
	const until = Date.now() + timeoutMs
	for (;;) {
		try {
			if (await check()) return
		} catch (error) {
			if ((error as { fatal?: boolean }).fatal) throw error
		}
		if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
		await sleep(everyMs)
	}
}

export const tcpOpen = (port: number) =>
	new Promise<boolean>((done) => {
		Bun.connect({
			hostname: '127.0.0.1',
			port,
			socket: {
				open: (s) => {
					s.end()
					done(true)
				},
				connectError: () => done(false),
				data() {},
			},
		}).catch(() => done(false))
	})

export function tempDir(prefix: string): string {
	const dir = mkdtempSync(join(tmpdir(), prefix))
	chmodSync(dir, 0o755)
	return dir
}

const isRoot = () => process.getuid?.() === 0

/** Runs a command as the postgres user when we are root (PostgreSQL refuses to run as root). */
function asPostgres(cmd: string, args: string[]): { status: number | null; output: string } {
	const run = isRoot() ? spawnSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { encoding: 'utf8' }) : spawnSync(cmd, args, { encoding: 'utf8' })
	return { status: run.status, output: `${run.stdout ?? ''}${run.stderr ?? ''}` }
}

export interface PrivatePostgres {
	readonly port: number
	readonly dataDir: string
	url(database?: string): string
	createDatabase(name: string): Promise<void>
	/** `pg_ctl restart -m fast|immediate`. */
	restart(mode: 'fast' | 'immediate'): void
	/** SIGSTOP to the postmaster and every backend (the database stops answering); `resume()` sends SIGCONT. */
	pause(): void
	resume(): void
	stop(): void
}

/** A PostgreSQL cluster of our own on a private port (initdb + pg_ctl), trust auth on loopback. */
export async function privatePostgres(): Promise<PrivatePostgres> {
	const initdb = binary('initdb', 'postgresql')
	const pgCtl = binary('pg_ctl', 'postgresql')
	const dir = tempDir('bl-pg-')
	const dataDir = join(dir, 'data')
	if (isRoot()) spawnSync('chown', ['postgres:postgres', dir])
	const init = asPostgres(initdb, ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8'])
	if (init.status !== 0) throw new Error(`initdb failed: ${init.output}`)
	const port = await freePort()
	const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=60 -c shared_buffers=32MB -c log_min_messages=fatal`
	const ctl = (...args: string[]) => {
		const r = asPostgres(pgCtl, ['-D', dataDir, '-l', join(dir, 'postgres.log'), '-w', '-t', '30', ...args])
		if (r.status !== 0) throw new Error(`pg_ctl ${args[0]} failed: ${r.output}`)
	}
	ctl('start', '-o', options)
	const untrack = track(() => {
		asPostgres(pgCtl, ['-D', dataDir, 'stop', '-m', 'immediate'])
		rmSync(dir, { recursive: true, force: true })
	})
	const pids = () => {
		const main = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0])
		const children = spawnSync('pgrep', ['-P', String(main)], { encoding: 'utf8' })
			.stdout.split('\n')
			.filter(Boolean)
			.map(Number)
		return [main, ...children]
	}
	const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`
	return {
		port,
		dataDir,
		url,
		async createDatabase(name) {
			const psql = binary('psql', 'postgresql-client')
			const r = spawnSync(psql, ['-q', '-d', url(), '-c', `create database ${name}`], { encoding: 'utf8' })
			if (r.status !== 0) throw new Error(`create database failed: ${r.stderr}`)
		},
		restart: (mode) => ctl('restart', '-m', mode, '-o', options),
		pause: () => {
			for (const pid of pids()) process.kill(pid, 'SIGSTOP')
		},
		resume: () => {
			for (const pid of pids()) process.kill(pid, 'SIGCONT')
		},
		stop() {
			untrack()
			try {
				for (const pid of pids()) process.kill(pid, 'SIGCONT')
				ctl('stop', '-m', 'immediate')
			} catch {}
			rmSync(dir, { recursive: true, force: true })
		},
	}
}

/** A database created for the run on the machine's PostgreSQL (127.0.0.1:5432), or on a private cluster when that is not there. */
export async function scratchPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
	const name = `bl_rel_${Date.now().toString(36)}_${process.pid}`
	const psql = binary('psql', 'postgresql-client')
	const admin = 'postgres://postgres@127.0.0.1:5432/postgres'
	const created = spawnSync(psql, ['-q', '-d', admin, '-c', `create database ${name}`], { encoding: 'utf8' })
	if (created.status === 0)
		return {
			url: `postgres://postgres@127.0.0.1:5432/${name}`,
			drop: async () => void spawnSync(psql, ['-q', '-d', admin, '-c', `drop database if exists ${name} with (force)`]),
		}
	const pg = await privatePostgres()
	await pg.createDatabase(name)
	return { url: pg.url(name), drop: async () => pg.stop() }
}

export interface PrivateRedis {
	readonly port: number
	readonly url: string
	start(): Promise<void>
	/** Kills redis-server (SIGKILL: nothing is saved, clients see the connection drop). */
	kill(): Promise<void>
	stop(): Promise<void>
}

/** A redis-server of our own on a private port, without persistence; can be killed and started again on the same port. */
export async function privateRedis(): Promise<PrivateRedis> {
	const redis = binary('redis-server', 'redis-server')
	const dir = tempDir('bl-redis-')
	const port = await freePort()
	let proc: ChildProcess | undefined
	const start = async () => {
		proc = spawn(redis, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--protected-mode', 'no'], {
			stdio: 'ignore',
		})
		const child = proc
		const untrack = track(() => child.kill('SIGKILL'))
		child.once('exit', untrack)
		await waitFor(`redis-server on ${port}`, () => tcpOpen(port), 10_000, 50)
	}
	const kill = async () => {
		// Killed by a signal, a process has a signalCode and no exitCode: either means it is gone.
		if (!proc || proc.exitCode !== null || proc.signalCode !== null) return
		const exited = new Promise((r) => proc!.once('exit', r))
		proc.kill('SIGKILL')
		await exited
	}
	const untrackDir = track(() => rmSync(dir, { recursive: true, force: true }))
	await start()
	return {
		port,
		url: `redis://127.0.0.1:${port}`,
		start,
		kill,
		stop: async () => {
			await kill()
			untrackDir()
			rmSync(dir, { recursive: true, force: true })
		},
	}
}

export interface ServerProcess {
	readonly port: number
	/** Its own address (not the proxy's). */
	readonly url: string
	readonly proc: ChildProcess
	/** Parsed JSON log lines written so far. */
	readonly logs: Record<string, any>[]
	/** What it printed on stdout for people (the start-up lines), so far. */
	readonly printed: string[]
	readonly exited: Promise<{ code: number | null; signal: string | null; at: number }>
	alive(): boolean
	kill(signal?: NodeJS.Signals): void
}

/** Starts `bun core/main.ts` (of this tree, or of the copy at `root`) with the given settings and waits until it serves /health. */
export async function startServer(env: Record<string, string>, options: { port?: number; waitHealthy?: boolean; root?: string } = {}): Promise<ServerProcess> {
	const port = options.port ?? (await freePort())
	const clean = Object.fromEntries(
		Object.entries(process.env).filter(([k]) => !/^(DATABASE_URL|REDIS_URL|SMTP_URL|BASE_URL|PORT|RATE_LIMIT_PER_MINUTE|LOG_LEVEL|HTTP_IDLE_TIMEOUT)$/.test(k)),
	)
	const proc = spawn(BUN, ['core/main.ts'], {
		cwd: options.root ?? ROOT,
		env: { ...clean, PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, DEMO: 'off', LOG_LEVEL: 'info', ...env },
		stdio: ['ignore', 'pipe', 'pipe'],
	})
	const logs: Record<string, any>[] = []
	let pending = ''
	proc.stderr!.on('data', (chunk: Buffer) => {
		pending += chunk.toString()
		const lines = pending.split('\n')
		pending = lines.pop()!
		for (const line of lines) {
			if (!line.trim()) continue
			appendFileSync(TEST_LOG, line + '\n')
			try {
				logs.push(JSON.parse(line))
			} catch {
				logs.push({ msg: line })
			}
		}
	})
	const printed: string[] = []
	proc.stdout!.on('data', (chunk: Buffer) => void printed.push(...chunk.toString().split('\n').filter(Boolean)))
	const untrack = track(() => proc.kill('SIGKILL'))
	const exited = new Promise<{ code: number | null; signal: string | null; at: number }>((done) =>
		proc.once('exit', (code, signal) => {
			untrack()
			done({ code, signal, at: Date.now() })
		}),
	)
	const server: ServerProcess = {
		port,
		url: `http://127.0.0.1:${port}`,
		proc,
		logs,
		printed,
		exited,
		alive: () => proc.exitCode === null && proc.signalCode === null,
		kill: (signal = 'SIGTERM') => void proc.kill(signal),
	}
	if (options.waitHealthy !== false)
		await waitFor(
			`the server on port ${port} to answer /health`,
			async () => {
				if (!server.alive()) throw Object.assign(new Error(`the server on port ${port} exited: ${logs.map((l) => l.msg).join(' | ')}`), { fatal: true })
				return (await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(2000) })).ok
			},
			60_000,
			200,
		).catch((error) => {
			proc.kill('SIGKILL')
			throw new Error(
				`${error.message}; its log: ${logs
					.slice(-5)
					.map((l) => JSON.stringify(l))
					.join('\n')}`,
			)
		})
	return server
}

export interface TcpProxy {
	readonly port: number
	/** Kills the proxy and every connection it carries: the link is cut, new connections are refused. */
	cut(): void
	/** Starts the proxy again on the same port. */
	restore(): Promise<void>
	stop(): void
}

/** socat (Debian's package) forwarding 127.0.0.1:port → 127.0.0.1:target, in its own process group so a cut kills every forked connection. */
export async function tcpProxy(targetPort: number): Promise<TcpProxy> {
	const socat = binary('socat', 'socat')
	const port = await freePort()
	let proc: ChildProcess | undefined
	const start = async () => {
		proc = spawn(socat, [`TCP-LISTEN:${port},bind=127.0.0.1,fork,reuseaddr`, `TCP:127.0.0.1:${targetPort}`], { stdio: 'ignore', detached: true })
		const group = proc.pid!
		const untrack = track(() => process.kill(-group, 'SIGKILL'))
		proc.once('exit', untrack)
		await waitFor(`socat on ${port}`, () => tcpOpen(port), 5000, 20)
	}
	const cut = () => {
		if (!proc?.pid) return
		try {
			process.kill(-proc.pid, 'SIGKILL')
		} catch {}
		proc = undefined
	}
	await start()
	return { port, cut, restore: start, stop: cut }
}

export interface Pgbouncer {
	readonly port: number
	/** The address of `database` through the pooler (same user as the server's). */
	url(database: string): string
	/** Transactions of clients and the server connections they ran on, from PgBouncer's own counters (`SHOW STATS`). */
	stats(database: string): { transactions: number; queries: number }
	stop(): void
}

/**
 * PgBouncer (Debian's package) in transaction mode in front of a PostgreSQL server, on a loopback
 * port, trust auth, run as the postgres user (it refuses to run as root), its files in a temp folder.
 * Few server connections (`default_pool_size`) for many clients: consecutive transactions of one
 * client land on different server connections, as in production.
 */
export async function privatePgbouncer(target: { host: string; port: number }, options: { poolSize?: number } = {}): Promise<Pgbouncer> {
	const pgbouncer = binary('pgbouncer', 'pgbouncer')
	const dir = tempDir('bl-pgbouncer-')
	const port = await freePort()
	await Bun.write(join(dir, 'userlist.txt'), '"postgres" ""\n')
	await Bun.write(
		join(dir, 'pgbouncer.ini'),
		`[databases]
* = host=${target.host} port=${target.port}
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = trust
auth_file = ${dir}/userlist.txt
admin_users = postgres
stats_users = postgres
pool_mode = transaction
default_pool_size = ${options.poolSize ?? 6}
max_client_conn = 500
server_reset_query =
logfile = ${dir}/pgbouncer.log
pidfile = ${dir}/pgbouncer.pid
`,
	)
	if (isRoot()) spawnSync('chown', ['-R', 'postgres:postgres', dir])
	const command = isRoot() ? ['runuser', '-u', 'postgres', '--', pgbouncer, join(dir, 'pgbouncer.ini')] : [pgbouncer, join(dir, 'pgbouncer.ini')]
	const proc = spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] })
	let errors = ''
	proc.stderr!.on('data', (c: Buffer) => (errors += c.toString()))
	const kill = () => {
		// runuser passes the signal on to pgbouncer.
		proc.kill('SIGINT')
		const pid = Number(existsSync(join(dir, 'pgbouncer.pid')) ? readFileSync(join(dir, 'pgbouncer.pid'), 'utf8') : 0)
		if (pid)
			try {
				process.kill(pid, 'SIGKILL')
			} catch {}
	}
	const untrack = track(() => {
		kill()
		rmSync(dir, { recursive: true, force: true })
	})
	await waitFor(
		`pgbouncer on ${port}`,
		() => {
			if (proc.exitCode !== null)
				throw Object.assign(
					new Error(`pgbouncer exited: ${errors} ${existsSync(join(dir, 'pgbouncer.log')) ? readFileSync(join(dir, 'pgbouncer.log'), 'utf8') : ''}`),
					{ fatal: true },
				)
			return tcpOpen(port)
		},
		10_000,
		50,
	)
	return {
		port,
		url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
		stats(database) {
			const psql = binary('psql', 'postgresql-client')
			const r = spawnSync(psql, ['-At', '-F', '|', '-d', `postgres://postgres@127.0.0.1:${port}/pgbouncer`, '-c', 'SHOW STATS'], { encoding: 'utf8' })
			const row =
				r.stdout
					.split('\n')
					.find((l) => l.startsWith(`${database}|`))
					?.split('|') ?? []
			return { transactions: Number(row[1] ?? 0), queries: Number(row[2] ?? 0) }
		},
		stop() {
			untrack()
			kill()
			rmSync(dir, { recursive: true, force: true })
		},
	}
}
