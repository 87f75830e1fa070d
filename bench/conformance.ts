/**
 * bench/conformance — the MCP conformance suite (npm `@modelcontextprotocol/conformance`) against
 * `/api/mcp`.
 *
 *   bun bench/conformance.ts        (npm run bench:conformance)
 *
 * The suite's client cannot send an Authorization header, so a small loopback proxy in front of
 * the server adds `Authorization: Bearer <a personal token>` to every request and passes everything
 * else (Host, Origin, MCP headers) through unchanged. The server is a real process on a database
 * created for the run (dropped afterwards).
 *
 * The tool needs Node 22 (it imports fs.globSync); it is installed once into a cache folder in the
 * temp directory and run with Bun, which has that API. Expected failures, with their reasons, are in
 * bench/conformance-expected-failures.yml (also passed to the tool); the script prints every
 * scenario's outcome, writes bench/results/conformance-<date>.json, and exits 1 on a failure that
 * is not listed there.
 *
 * Settings (environment): CONFORMANCE_VERSION=0.1.16 CONFORMANCE_SUITE=active.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { depsOn, seedTenant } from '../tests/reliability/load.ts'
import { BUN, freePort, scratchPostgresDatabase, startServer } from '../tests/reliability/processes.ts'

const VERSION = process.env.CONFORMANCE_VERSION ?? '0.1.16'
const SUITE = process.env.CONFORMANCE_SUITE ?? 'active'
const EXPECTED = resolve(import.meta.dir, 'conformance-expected-failures.yml')

// 1. The tool, installed once.
const cache = join(tmpdir(), `benchline-conformance-${VERSION}`)
const entry = join(cache, 'node_modules/@modelcontextprotocol/conformance/dist/index.js')
if (!existsSync(entry)) {
	mkdirSync(cache, { recursive: true })
	const install = spawnSync(
		'npm',
		['install', '--prefix', cache, '--no-audit', '--no-fund', '--loglevel=error', `@modelcontextprotocol/conformance@${VERSION}`],
		{ stdio: 'inherit' },
	)
	if (install.status !== 0) throw new Error('could not install @modelcontextprotocol/conformance')
}

// 2. A server with a person and a personal token.
const database = await scratchPostgresDatabase()
const fixtures = await depsOn(database.url)
const tenant = await seedTenant(fixtures.deps)
await fixtures.close()
// The suite's DNS-rebinding check sends `Host: localhost:<port>` with the matching Origin and
// expects it accepted: that origin is allowed the way a deployment allows its own (ALLOWED_ORIGINS).
const proxyPort = await freePort()
const server = await startServer({ DATABASE_URL: database.url, ALLOWED_ORIGINS: `http://localhost:${proxyPort},http://127.0.0.1:${proxyPort}` })

// 3. The proxy that adds the token.
const proxy = Bun.serve({
	hostname: '127.0.0.1',
	port: proxyPort,
	idleTimeout: 120,
	async fetch(request) {
		const url = new URL(request.url)
		const headers = new Headers(request.headers)
		headers.set('authorization', `Bearer ${tenant.tokens[0]}`)
		// The body is read whole before forwarding: a streamed request body left the upstream waiting.
		const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer()
		const upstream = await fetch(`${server.url}${url.pathname}${url.search}`, { method: request.method, headers, body, redirect: 'manual' })
		return new Response(upstream.body, { status: upstream.status, headers: upstream.headers })
	},
})

// 4. The suite.
const out = mkdtempSync(join(tmpdir(), 'bl-conformance-'))
let status = 1
try {
	const run = Bun.spawn(
		[BUN, entry, 'server', '--url', `http://127.0.0.1:${proxyPort}/api/mcp`, '--suite', SUITE, '--expected-failures', EXPECTED, '-o', out],
		{ stdout: 'inherit', stderr: 'inherit' },
	)
	status = await run.exited
	const results: Record<string, { status: string; checks: { id: string; status: string; errorMessage?: string }[] }> = {}
	const walk = (dir: string) => {
		for (const name of readdirSync(dir, { withFileTypes: true })) {
			const path = join(dir, name.name)
			if (name.isDirectory()) walk(path)
			else if (name.name.endsWith('.json'))
				try {
					const data = JSON.parse(readFileSync(path, 'utf8'))
					const checks = Array.isArray(data) ? data : (data.checks ?? [])
					results[path.slice(out.length + 1)] = {
						status: checks.some((c: { status: string }) => c.status === 'FAILURE') ? 'FAILURE' : 'SUCCESS',
						checks: checks
							.filter((c: { status: string }) => c.status !== 'INFO')
							.map((c: { id: string; status: string; errorMessage?: string }) => ({ id: c.id, status: c.status, errorMessage: c.errorMessage })),
					}
				} catch {}
		}
	}
	walk(out)
	const dir = resolve(import.meta.dir, 'results')
	mkdirSync(dir, { recursive: true })
	const file = resolve(dir, `conformance-${new Date().toISOString().replace(/[:.]/g, '-')}.json`)
	writeFileSync(file, JSON.stringify({ version: VERSION, suite: SUITE, exitStatus: status, results }, null, 2))
	console.log(`\nresults written to ${file}`)
} finally {
	proxy.stop(true)
	server.kill('SIGTERM')
	await server.exited
	await database.drop()
	rmSync(out, { recursive: true, force: true })
}
process.exit(status === 0 ? 0 : 1)
