/**
 * Runs `@modelcontextprotocol/conformance authorization` against the app (the authorization-server
 * scenarios: metadata endpoint and authorization-code grant), playing the person's part: the tool
 * prints an authorization address and waits for the callback; this script signs in through the
 * portal, presses Allow over HTTP and follows the redirect to the tool's callback server.
 *
 * Run with tests/oauth/conformance.sh (needs the npm registry the first time, to fetch the tool).
 * Exit code 0 when every check passed (warnings allowed).
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { newPerson, newWorkspace, serveApp } from '../helpers.ts'
import { PortalClient } from '../portal.ts'

const VERSION = process.env.CONFORMANCE_VERSION ?? '0.2.0-alpha.12'

const { url: base, deps } = await serveApp()
const ws = await newWorkspace(deps)
const person = await newPerson(ws, 'owner', {}, deps)
const portal = new PortalClient({ handle: (request) => fetch(request, { redirect: 'manual' }) }, { origin: base })
const signIn = await portal.signIn(person.email, person.password)
if (signIn.status !== 303) throw new Error(`sign-in failed: ${signIn.status}`)

/** A free loopback port for the tool's callback server. */
const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
const port = probe.port
probe.stop(true)

const registration = await fetch(`${base}/oauth/register`, {
	method: 'POST',
	headers: { 'content-type': 'application/json' },
	body: JSON.stringify({ client_name: 'MCP conformance', redirect_uris: [`http://127.0.0.1:${port}/callback`], token_endpoint_auth_method: 'none' }),
})
const client = (await registration.json()) as { client_id: string }
if (registration.status !== 201) throw new Error(`registration failed: ${JSON.stringify(client)}`)

/** The person's part: consent page, Allow, then the redirect to the tool's callback. */
async function allow(authorizeUrl: string) {
	const u = new URL(authorizeUrl)
	const page = await portal.get(u.pathname + u.search)
	if (page.status !== 200) throw new Error(`consent page answered ${page.status}`)
	const request = /name="request" value="([^"]*)"/.exec(page.text)![1]!.replaceAll('&amp;', '&')
	const consent = /name="consent" value="([^"]*)"/.exec(page.text)![1]!
	const answer = await portal.post('/oauth/authorize', { request, consent, decision: 'allow' })
	const location = answer.headers.get('location')
	if (answer.status !== 303 || !location) throw new Error(`consent answered ${answer.status}`)
	await fetch(location)
}

const outputDir = mkdtempSync(join(tmpdir(), 'conformance-'))
const runs: { label: string; args: string[] }[] = [
	{ label: 'without resource (the tool default)', args: [] },
	{ label: `with resource=${base}/api/mcp`, args: ['--resource', `${base}/api/mcp`] },
]
let failed = 0
for (const run of runs) {
	const dir = join(outputDir, String(runs.indexOf(run)))
	const args = [
		'x',
		'--bun',
		`@modelcontextprotocol/conformance@${VERSION}`,
		'authorization',
		'--url',
		base,
		'--client-id',
		client.client_id,
		'-p',
		String(port),
		'-o',
		dir,
		...run.args,
	]
	console.log(`\n== conformance authorization ${run.label}`)
	const child = Bun.spawn([process.execPath, ...args], { stdout: 'pipe', stderr: 'inherit' })
	const decoder = new TextDecoder()
	let buffered = ''
	const consents: Promise<void>[] = []
	for await (const chunk of child.stdout) {
		const text = decoder.decode(chunk)
		process.stdout.write(text)
		buffered += text
		let nl: number
		while ((nl = buffered.indexOf('\n')) >= 0) {
			const line = buffered.slice(0, nl).trim()
			buffered = buffered.slice(nl + 1)
			if (line.startsWith(`${base}/oauth/authorize?`)) consents.push(allow(line).catch((e) => console.error('consent failed:', e)))
		}
	}
	await Promise.all(consents)
	const code = await child.exited
	// Every scenario writes its checks; count anything that is not a success, info or warning.
	const files = readdirSync(dir, { recursive: true })
		.map(String)
		.filter((f) => f.endsWith('checks.json'))
	for (const file of files) {
		const checks = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { id: string; status: string; errorMessage?: string }[]
		for (const c of checks) {
			console.log(`${c.status.padEnd(8)} ${file.split('/')[0]} :: ${c.id}${c.errorMessage ? ` — ${c.errorMessage}` : ''}`)
			if (c.status === 'FAILURE') failed++
		}
	}
	if (!files.length) failed++
	console.log(`exit code ${code}`)
}
console.log(failed ? `\n${failed} check(s) failed` : '\nall authorization checks passed')
process.exit(failed ? 1 : 0)
