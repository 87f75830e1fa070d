/**
 * Issue 16, item 2: the feed is fetched from the address that was checked, yet https is still
 * verified against the host name in the address: the TLS server name (SNI) and the `Host` header
 * are the name, the certificate must be valid for the name and signed by a trusted authority.
 *
 * A test authority and certificates are made with openssl (tests/test-ca.ts). Trusting the test
 * authority takes NODE_EXTRA_CA_CERTS, which Bun reads when it starts, so the trusted fetches run in a child
 * process (the real `fetchFeed`, with a name look-up that answers 127.0.0.1 for `feed.test`).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import { BUN, ROOT } from '../../tests/reliability/processes.ts'
import { testAuthority, type TestAuthority } from '../../tests/test-ca.ts'
import { fetchFeed, UNREACHABLE } from './fetch.ts'

const ICS = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Benchline test//EN\r\nEND:VCALENDAR\r\n'
let authority: TestAuthority

/** An https feed server with the certificate of `name`; it notes the server name and Host header of each request. */
async function tlsServer(name: string) {
	const seen: { serverName: string | false; host: string | undefined }[] = []
	const { keyFile, certFile } = authority.certificate(name)
	const server = https.createServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) }, (req, res) => {
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
	authority = testAuthority()
	right = await tlsServer('feed.test')
	wrong = await tlsServer('other.test')
})
afterAll(() => {
	right?.close()
	wrong?.close()
	authority?.remove()
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
	const child = Bun.spawn([BUN, '-e', script], { cwd: ROOT, env: { ...process.env, NODE_EXTRA_CA_CERTS: authority.caFile }, stdout: 'pipe', stderr: 'pipe' })
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
