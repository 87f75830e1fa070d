/**
 * compose.yaml cannot run here (no Docker engine), so `npm run cluster` (scripts/cluster.ts) brings up
 * the same topology from Debian's packages, and this test runs it: a job published through nginx is
 * read from every instance. compose.yaml itself is held to the same topology and to the README's
 * nginx configuration (deploy/nginx.conf).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { checkCluster, composeInstances, startCluster, type Cluster } from '../../scripts/cluster.ts'
import { describeProcesses } from './gate.ts'
import { nginxConfig } from './nginx.ts'

setDefaultTimeout(90_000)
const ROOT = resolve(import.meta.dir, '../..')
const compose = Bun.YAML.parse(readFileSync(resolve(ROOT, 'compose.yaml'), 'utf8')) as { services: Record<string, any> }

describe('compose.yaml', () => {
	test('PostgreSQL, Redis, two Benchline instances built from this folder, nginx in front publishing the one port', () => {
		expect(Object.keys(compose.services).sort()).toEqual(['app1', 'app2', 'nginx', 'postgres', 'redis'])
		expect(composeInstances().map((i) => i.name)).toEqual(['app1', 'app2'])
		for (const { environment } of composeInstances()) {
			expect(new URL(environment.DATABASE_URL!).host).toBe('postgres:5432')
			expect(new URL(environment.REDIS_URL!).host).toBe('redis:6379')
			// Only nginx's X-Forwarded-For is read: the address compose gives it.
			expect(environment.TRUST_PROXY).toBe(compose.services.nginx.networks.default.ipv4_address)
			expect(environment.BASE_URL).toBe('http://localhost:8080')
		}
		const published = Object.entries(compose.services).filter(([, s]) => s.ports)
		expect(published.map(([name, s]) => [name, s.ports])).toEqual([['nginx', ['8080:80']]])
		// The instances wait for PostgreSQL to answer, and nginx for the instances to be ready.
		expect(compose.services.app1.depends_on.postgres.condition).toBe('service_healthy')
		expect(compose.services.nginx.depends_on).toEqual({ app1: { condition: 'service_healthy' }, app2: { condition: 'service_healthy' } })
		expect(compose.services.app1.healthcheck.test.join(' ')).toContain('/ready')
	})

	test('its nginx configuration is the README’s (the one the cluster test runs), with the compose services upstream', () => {
		const deployed = readFileSync(resolve(ROOT, 'deploy/nginx.conf'), 'utf8')
		const upstreams = [...deployed.matchAll(/^\s*server (\S+) /gm)].map((m) => m[1])
		expect(upstreams).toEqual(composeInstances().map((i) => `${i.name}:3000`))
		const directives = (text: string) =>
			new Set(
				text
					.split('\n')
					.map((l) => l.trim())
					.filter((l) => /^(client_|send_timeout|proxy_|keepalive|location)/.test(l) && !l.includes('_temp_path')),
			)
		const tested = directives(nginxConfig({ port: 80, upstreamPorts: [1, 2], tempDir: '/tmp' }))
		expect(directives(deployed)).toEqual(tested)
		// The Dockerfile's image listens on every interface, as the instances behind nginx must.
		expect(readFileSync(resolve(ROOT, 'Dockerfile'), 'utf8')).toMatch(/ENV [^\n]*HOST=0\.0\.0\.0/)
	})
})

describeProcesses('the same topology without Docker (npm run cluster)', () => {
	let cluster: Cluster
	beforeAll(async () => {
		cluster = await startCluster()
	}, 120_000)
	afterAll(async () => {
		await cluster?.stop()
	})

	test('a job published through nginx is read from every instance; /ready and /health answer through it', async () => {
		const servedBy = await checkCluster(cluster)
		expect(servedBy.sort()).toEqual(cluster.instances.map((i) => `127.0.0.1:${i.port}`).sort())
		for (const i of cluster.instances) expect(i.printed.some((l) => l.startsWith(`Benchline is listening on http://127.0.0.1:${i.port}`))).toBe(true)
	})
})
