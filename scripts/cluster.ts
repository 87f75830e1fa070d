/**
 * The topology of compose.yaml without Docker: PostgreSQL, Redis, the Benchline instances and nginx in
 * front of them, as processes from Debian's packages on loopback ports (the reliability tests' helpers,
 * tests/reliability/processes.ts). The instances get compose.yaml's settings, with the addresses of
 * these processes instead of the compose services'; as many instances as compose.yaml builds.
 *
 *   npm run cluster              # starts it and prints the address; Ctrl-C stops everything
 *   npm run cluster -- --check   # starts it, publishes a job through nginx, reads it from every instance, stops
 *
 * PostgreSQL: a database created on 127.0.0.1:5432 when a server answers there, else a private cluster
 * (initdb); dropped at the end. Needs nginx, redis-server and the PostgreSQL binaries (`apt-get install
 * -y nginx redis-server postgresql`).
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { depsOn, seedTenant } from '../tests/reliability/load.ts'
import { startNginx } from '../tests/reliability/nginx.ts'
import { freePort, privateRedis, scratchPostgresDatabase, startServer, track, waitFor, type ServerProcess } from '../tests/reliability/processes.ts'

const ROOT = resolve(import.meta.dir, '..')

interface ComposeService {
	build?: unknown
	environment?: Record<string, string>
}

/** compose.yaml's services that run Benchline (those built from this folder), with their settings. */
export function composeInstances(): { name: string; environment: Record<string, string> }[] {
	const compose = Bun.YAML.parse(readFileSync(resolve(ROOT, 'compose.yaml'), 'utf8')) as { services: Record<string, ComposeService> }
	return Object.entries(compose.services)
		.filter(([, s]) => s.build === '.')
		.map(([name, s]) => ({ name, environment: { ...s.environment } }))
}

export interface Cluster {
	/** nginx's address: the public address of the cluster. */
	readonly url: string
	readonly databaseUrl: string
	readonly instances: ServerProcess[]
	stop(): Promise<void>
}

export async function startCluster(options: { log?: (line: string) => void } = {}): Promise<Cluster> {
	const log = options.log ?? (() => {})
	const database = await scratchPostgresDatabase()
	// Dropped also when the process is interrupted (the helpers stop what they started on SIGINT).
	const untrack = track(() => void database.drop())
	log(`PostgreSQL: ${database.url}`)
	const redis = await privateRedis()
	log(`Redis: ${redis.url}`)
	const port = await freePort()
	const url = `http://127.0.0.1:${port}`
	const instances: ServerProcess[] = []
	try {
		for (const { name, environment } of composeInstances()) {
			// nginx runs on this machine: its connections come from loopback (TRUST_PROXY=on).
			const env = { ...environment, DATABASE_URL: database.url, REDIS_URL: redis.url, BASE_URL: url, HOST: '127.0.0.1', TRUST_PROXY: 'on' }
			instances.push(await startServer(env))
			log(`${name}: ${instances.at(-1)!.url}`)
		}
		const nginx = await startNginx(
			instances.map((i) => i.port),
			port,
		)
		log(`nginx: ${nginx.url}`)
		return {
			url,
			databaseUrl: database.url,
			instances,
			async stop() {
				await nginx.stop()
				for (const i of instances) i.kill('SIGTERM')
				await Promise.all(instances.map((i) => i.exited))
				await redis.stop()
				untrack()
				await database.drop()
			},
		}
	} catch (error) {
		for (const i of instances) i.kill('SIGKILL')
		await redis.stop()
		untrack()
		await database.drop()
		throw error
	}
}

/** Publishes a job through nginx and reads it back until every instance has answered; returns who answered. */
export async function checkCluster(cluster: Cluster): Promise<string[]> {
	for (const path of ['/ready', '/health']) {
		const res = await fetch(`${cluster.url}${path}`)
		if (!res.ok) throw new Error(`${path} through nginx answered ${res.status}`)
	}
	const fixtures = await depsOn(cluster.databaseUrl)
	const tenant = await seedTenant(fixtures.deps)
	await fixtures.close()
	const headers = { authorization: `Bearer ${tenant.vendorKeys[0]}`, 'content-type': 'application/json' }
	const published = await fetch(`${cluster.url}/api/v1/jobs`, {
		method: 'POST',
		headers,
		body: JSON.stringify({ vendorJobId: 'cluster-check', title: 'Cluster check', location: 'Austin, TX' }),
	})
	if (published.status !== 201) throw new Error(`publishing through nginx answered ${published.status}: ${await published.text()}`)
	const servedBy = new Set<string>()
	await waitFor(
		'every instance to answer',
		async () => {
			const res = await fetch(`${cluster.url}/api/v1/jobs/cluster-check`, { headers })
			const body = (await res.json()) as { job?: { title?: string } }
			if (res.status !== 200 || body.job?.title !== 'Cluster check') throw Object.assign(new Error(`reading the job answered ${res.status}`), { fatal: true })
			servedBy.add(res.headers.get('x-served-by') ?? '')
			return servedBy.size >= cluster.instances.length
		},
		20_000,
		10,
	)
	return [...servedBy]
}

if (import.meta.main) {
	const check = process.argv.includes('--check')
	const cluster = await startCluster({ log: (line) => console.log(line) })
	if (check) {
		try {
			const servedBy = await checkCluster(cluster)
			console.log(`cluster check passed: a job published through nginx was read from ${servedBy.length} instances (${servedBy.join(', ')})`)
		} catch (error) {
			console.error(`cluster check failed: ${(error as Error).message}`)
			process.exitCode = 1
		} finally {
			await cluster.stop()
		}
	} else {
		// Ctrl-C: the helpers stop every process they started, and the database is dropped.
		console.log(`Benchline cluster at ${cluster.url} (Ctrl-C stops it and removes its database)`)
		await new Promise(() => {})
	}
}
