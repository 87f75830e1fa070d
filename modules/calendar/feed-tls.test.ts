/**
 * Issue 16, item 2: the feed is fetched from the address that was checked, yet https is still
 * verified against the host name in the address: the TLS server name (SNI) and the `Host` header
 * are the name, the certificate must be valid for the name and signed by a trusted authority.
 *
 * A test authority and certificates are made with openssl. Trusting the test authority takes
 * NODE_EXTRA_CA_CERTS, which Bun reads when it starts, so the trusted fetches run in a child
 * process (the real `fetchFeed`, with a name look-up that answers 127.0.0.1 for `feed.test`).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { binary, BUN, ROOT } from '../../tests/reliability/processes.ts'
import { fetchFeed, UNREACHABLE } from './fetch.ts'

const ICS = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Benchline test//EN\r\nEND:VCALENDAR\r\n'
let dir: string
const file = (name: string) => join(dir, name)

/** A certificate for `name` signed by the test authority. */
function certificate(openssl: string, name: string) {
	const run = (...args: string[]) => {
		const done = spawnSync(openssl, args, { cwd: dir })
		if (done.status !== 0) throw new Error(`openssl ${args[0]} failed: ${done.stderr}`)
	}
	writeFileSync(file(`${name}.ext`), `subjectAltName=DNS:${name}\n`)
	run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`)
	run(
		'x509',
		'-req',
		'-in',
		`${name}.csr`,
		'-CA',
		'ca.pem',
		'-CAkey',
		'ca.key',
		'-CAcreateserial',
		'-out',
		`${name}.pem`,
		'-days',
		'2',
		'-extfile',
		`${name}.ext`,
	)
}

/** An https feed server with the certificate of `name`; it notes the server name and Host header of each request. */
async function tlsServer(name: string) {
	const seen: { serverName: string | false; host: string | undefined }[] = []
	const server = https.createServer({ key: readFileSync(file(`${name}.key`)), cert: readFileSync(file(`${name}.pem`)) }, (req, res) => {
		seen.push({ serverName: (req.socket as { servername?: string | false }).servername ?? false, host: req.headers.host })
		res.setHeader('content-type', 'text/calendar')
		res.end(ICS)
	})
	await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
	return { port: (server.address() as AddressInfo).port, seen, close: () => server.close() }
}

let right: Awaited<ReturnType<typeof tlsServer>>
let wrong: Awaited<ReturnType<typeof tlsServer>>

beforeAll(async () => {
	const openssl = binary('openssl', 'openssl')
	dir = mkdtempSync(join(tmpdir(), 'benchline-tls-'))
	const ca = spawnSync(
		openssl,
		['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Benchline test authority'],
		{ cwd: dir },
	)
	if (ca.status !== 0) throw new Error(`openssl req failed: ${ca.stderr}`)
	certificate(openssl, 'feed.test')
	certificate(openssl, 'other.test')
	right = await tlsServer('feed.test')
	wrong = await tlsServer('other.test')
})
afterAll(() => {
	right?.close()
	wrong?.close()
	if (dir) rmSync(dir, { recursive: true, force: true })
})

/** `fetchFeed` of each address in a child process that trusts the test authority; each result or error message. */
async function fetchTrusting(urls: string[]): Promise<string[]> {
	const script = `
const { fetchFeed } = await import(${JSON.stringify(resolve(import.meta.dir, 'fetch.ts'))})
const { anyAddress } = await import(${JSON.stringify(resolve(ROOT, 'core/http/public-address.ts'))})
const network = { resolve: async (host) => (host === 'feed.test' ? ['127.0.0.1'] : []), reachable: anyAddress }
const results = []
for (const url of ${JSON.stringify(urls)}) results.push(await fetchFeed({ calendarFeedsAllowPrivate: true, calendarFeedTimeout: 10 }, url, network).catch((error) => error.message))
console.log(JSON.stringify(results))`
	const child = Bun.spawn([BUN, '-e', script], { cwd: ROOT, env: { ...process.env, NODE_EXTRA_CA_CERTS: file('ca.pem') }, stdout: 'pipe', stderr: 'pipe' })
	const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
	if (code !== 0) throw new Error(`child failed (${code}): ${err}`)
	return JSON.parse(out.trim().split('\n').at(-1)!)
}

describe('https feeds reached through a checked address', () => {
	test('the certificate is checked against the host name, which is also the TLS server name and the Host header', async () => {
		const [good, mismatched] = await fetchTrusting([`https://feed.test:${right.port}/feed.ics`, `https://feed.test:${wrong.port}/feed.ics`])
		expect(good).toBe(ICS)
		expect(right.seen).toEqual([{ serverName: 'feed.test', host: `feed.test:${right.port}` }])
		// A certificate for another name, from the same trusted authority: refused before any request is sent.
		expect(mismatched).toBe(UNREACHABLE)
		expect(wrong.seen).toEqual([])
	})

	test('a certificate from an authority the server does not trust is refused', async () => {
		const network = { resolve: async () => ['127.0.0.1'], reachable: (ip: string) => ip }
		const before = right.seen.length
		expect(
			await fetchFeed({ calendarFeedsAllowPrivate: true, calendarFeedTimeout: 10 }, `https://feed.test:${right.port}/feed.ics`, network).catch(
				(error: Error) => error.message,
			),
		).toBe(UNREACHABLE)
		expect(right.seen.length).toBe(before)
	})
})
