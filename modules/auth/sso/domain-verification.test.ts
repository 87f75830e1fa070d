/**
 * Single sign-on domains are verified by a DNS TXT record before they cover anyone (found by review:
 * any owner could list another firm's domain, point it at a provider they control, and so attach
 * that firm's people's accounts and squat the domain). Against a real DNS server (dnsmasq,
 * tests/sso/dns.ts) and a real OpenID provider (tests/sso/provider.ts): a listed domain is a claim
 * that attaches no one and blocks no one; **Verify domain** reads the record; the first workspace to
 * verify a domain holds it; an operator can verify a listed domain (`sso verify-domain`); the
 * migration turns domains listed before into unverified claims.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq, sql } from 'drizzle-orm'
import { pgTable, text } from 'drizzle-orm/pg-core'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseCommand, runCommand } from '../../../core/cli.ts'
import { allCommands } from '../../../core/commands.ts'
import type { AppError } from '../../../core/errors.ts'
import { modules } from '../../../core/main.ts'
import { callOn, configProblems, emptyDatabase, migrationsBefore, tableAsItWas, newPerson, newScimToken, newWorkspace, unique } from '../../../tests/helpers.ts'
import { PortalClient, portalApp, signedIn, uniqueAddress } from '../../../tests/portal.ts'
import { startDns, type TestDns } from '../../../tests/sso/dns.ts'
import { recordShown, verifyByDns } from '../../../tests/sso/domains.ts'
import { loginAt, startProvider, type TestProvider } from '../../../tests/sso/provider.ts'
import auth from '../index.ts'
import * as authTables from '../table.ts'
import { memberships, ssoDomainClaims, ssoDomains, users } from '../table.ts'
import { ssoWorkspaceOf } from './domains.ts'

setDefaultTimeout(120_000)

let provider: TestProvider
let dns: TestDns
let SETTINGS: Record<string, string> = {}
const VERIFIED = '/settings/sso?done=domain-verified#domain-verification'

beforeAll(async () => {
	provider = await startProvider('http://localhost:3000/sign-in/sso/callback')
	dns = await startDns()
	SETTINGS = { SSO_ALLOW_HTTP: 'on', DNS_SERVERS: dns.server }
})
afterAll(async () => {
	await provider.stop()
	await dns.stop()
})

/** A workspace whose owner saved the test provider for `domains` (not verified). */
async function ownerListing(domains: string, settings = SETTINGS) {
	const ws = await newWorkspace()
	const page = await signedIn(await newPerson(ws, 'owner'), { overrides: settings })
	await page.get('/settings/sso')
	const saved = await page.submit('/settings/sso', {
		issuer: provider.issuer,
		clientId: provider.clientId,
		clientSecret: provider.clientSecret,
		domains,
		newPersonRole: 'recruiter',
	})
	return { ws, page, saved }
}

/** Starts Sign in with SSO for `email` and, when sent to the provider, comes back; the answers. */
async function ssoSignIn(email: string) {
	const { app } = await portalApp(SETTINGS)
	const client = new PortalClient(app, { address: uniqueAddress() })
	await client.get('/sign-in/sso')
	const started = await client.post('/sign-in/sso', { email, next: '/portal' })
	if (started.status !== 303) return { started, callback: null }
	const back = new URL(await loginAt(started.headers.get('location')!, email, 'http://localhost:3000/sign-in/sso/callback'))
	return { started, callback: await client.get(back.pathname + back.search) }
}

const domainName = () => `${unique('firm')}.example`

describe('a listed domain is a claim until its DNS record is checked', () => {
	test('it starts unverified with its own TXT record; it signs no one in; another workspace may list it too, with another record', async () => {
		const domain = domainName()
		const first = await ownerListing(domain)
		expect(first.saved.redirectedTo).toBe('/settings/sso?done=saved')
		const shown = first.saved.text
		expect(shown).toContain('Not verified')
		expect(shown).toContain('covers no one until one of its domains is verified')
		expect(shown).not.toContain(`Single sign-on is on for ${domain}`)
		const record = recordShown(shown, domain)!
		expect(record.name).toBe(`_benchline-challenge.${domain}`)
		expect(record.value).toMatch(/^benchline-domain-verification=[a-z0-9]{32}$/)

		const refused = (await ssoSignIn(`dana.${unique('p')}@${domain}`)).started
		expect(refused.status).toBe(422)
		expect(refused.text).toContain(`No single sign-on is set up for ${domain}`)

		// Blocks no one: a second workspace lists the same domain, and gets a record of its own.
		const second = await ownerListing(domain)
		expect(second.saved.redirectedTo).toBe('/settings/sso?done=saved')
		expect(recordShown(second.saved.text, domain)!.value).not.toBe(record.value)
		// Saving again keeps the record the owner may already have published.
		await first.page.get('/settings/sso')
		await first.page.submit('/settings/sso', {
			issuer: provider.issuer,
			clientId: provider.clientId,
			clientSecret: '',
			domains: `${domain}, ${domainName()}`,
			newPersonRole: 'viewer',
		})
		expect(recordShown((await first.page.get('/settings/sso')).text, domain)!.value).toBe(record.value)
	})

	test('another firm’s unverified claim attaches no one: its provider signs in none of the firm’s people, its SCIM attaches none of their accounts, and the firm provisions and verifies its own domain', async () => {
		const domain = domainName()
		const firm = await newWorkspace()
		const employee = await newPerson(firm, 'recruiter')
		const { deps, app } = await portalApp(SETTINGS)
		const address = `ceo.${unique('p')}@${domain}`
		await deps.db.update(users).set({ email: address }).where(eq(users.email, employee.email))

		const squatter = await ownerListing(domain)
		expect(squatter.saved.redirectedTo).toBe('/settings/sso?done=saved')
		expect(await ssoWorkspaceOf(deps.db, address)).toBeNull()
		expect((await ssoSignIn(address)).started.status).toBe(422)
		const scim = async (ws: { id: string; slug: string; name: string }, userName: string) =>
			callOn(app, 'POST', '/scim/v2/Users', {
				key: await newScimToken(ws),
				raw: JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName, active: true }),
				headers: { 'content-type': 'application/scim+json' },
			})
		const attached = await scim(squatter.ws, address)
		expect(attached.status).toBe(409)
		const [employeeRow] = await deps.db.select({ id: users.id }).from(users).where(eq(users.email, address))
		const inSquatter = await deps.db
			.select()
			.from(memberships)
			.where(and(eq(memberships.workspaceId, squatter.ws.id), eq(memberships.userId, employeeRow!.id)))
		expect(inSquatter).toEqual([])
		// The squatter's claim does not keep the firm from provisioning a new person of its domain.
		expect((await scim(firm, `new.${unique('p')}@${domain}`)).status).toBe(201)

		// The firm lists and verifies its domain; the squatter cannot, even publishing its own value elsewhere.
		const firmOwner = await signedIn(await newPerson(firm, 'owner'), { overrides: SETTINGS })
		await firmOwner.get('/settings/sso')
		await firmOwner.submit('/settings/sso', {
			issuer: provider.issuer,
			clientId: provider.clientId,
			clientSecret: provider.clientSecret,
			domains: domain,
			newPersonRole: 'recruiter',
		})
		expect((await verifyByDns(firmOwner, dns, domain)).redirectedTo).toBe(VERIFIED)
		expect(await ssoWorkspaceOf(deps.db, address)).toBe(firm.id)
		const late = await squatter.page.submit('/settings/sso/domains/verify', { domain })
		expect(late.status).toBe(422)
		expect(late.text).toContain('Another workspace’s single sign-on covers')
		expect((await squatter.page.get('/settings/sso')).text).toContain('Another workspace verified it')
		const relisted = await squatter.page.submit('/settings/sso', {
			issuer: provider.issuer,
			clientId: provider.clientId,
			clientSecret: '',
			domains: domain,
			newPersonRole: 'recruiter',
		})
		expect(relisted.status).toBe(422)
		expect(relisted.text).toContain(`Another workspace’s single sign-on covers ${domain}`)
	})
})

describe('Verify domain', () => {
	test('only owners may verify a domain or forget a provider account: every other role is refused, nothing changes', async () => {
		const domain = domainName()
		const { ws } = await ownerListing(domain)
		for (const role of ['admin', 'recruiter', 'hiring_manager', 'viewer']) {
			const other = await signedIn(await newPerson(ws, role), { overrides: SETTINGS })
			expect((await other.submit('/settings/sso/domains/verify', { domain })).status).toBe(403)
			expect((await other.submit('/settings/sso/provider-accounts/forget', { email: `someone@${domain}` })).status).toBe(403)
		}
	})

	test('reads the real record: none, another value, then the right one among others; then single sign-on covers the domain, and removing it frees it', async () => {
		const domain = domainName()
		const { ws, page } = await ownerListing(domain)
		const record = recordShown((await page.get('/settings/sso')).text, domain)!
		const none = await page.submit('/settings/sso/domains/verify', { domain })
		expect(none.status).toBe(422)
		expect(none.text).toContain(`No TXT record was found at _benchline-challenge.${domain}`)
		expect(none.text).toContain(record.value)

		await dns.setTxt(record.name, 'benchline-domain-verification=someoneelse')
		const wrong = await page.submit('/settings/sso/domains/verify', { domain })
		expect(wrong.status).toBe(422)
		expect(wrong.text).toContain('says “benchline-domain-verification=someoneelse”, not this workspace’s value')
		expect((await ssoSignIn(`a.${unique('p')}@${domain}`)).started.status).toBe(422)

		await dns.setTxt(record.name, 'v=spf1 -all', record.value)
		const verified = await page.submit('/settings/sso/domains/verify', { domain })
		expect(verified.redirectedTo).toBe(VERIFIED)
		expect(verified.text).toContain(`Single sign-on is on for ${domain}`)
		expect(verified.text).toContain('Verified')
		expect(verified.text).not.toContain('Not verified')
		const email = `dana.${unique('p')}@${domain}`
		expect((await ssoSignIn(email)).callback!.status).toBe(303)
		const { deps } = await portalApp(SETTINGS)
		const [joined] = await deps.db
			.select({ role: memberships.role })
			.from(memberships)
			.innerJoin(users, eq(users.id, memberships.userId))
			.where(and(eq(memberships.workspaceId, ws.id), eq(users.email, email)))
		expect(joined!.role).toBe('recruiter')

		// Removed from the list: the domain covers no one, and another workspace may verify it.
		await page.get('/settings/sso')
		await page.submit('/settings/sso', {
			issuer: provider.issuer,
			clientId: provider.clientId,
			clientSecret: '',
			domains: domainName(),
			newPersonRole: 'recruiter',
		})
		expect(await ssoWorkspaceOf(deps.db, email)).toBeNull()
		const next = await ownerListing(domain)
		expect((await verifyByDns(next.page, dns, domain)).redirectedTo).toBe(VERIFIED)
		expect(await ssoWorkspaceOf(deps.db, email)).toBe(next.ws.id)
	})

	test('DNS_SERVERS takes IP addresses with optional ports, nothing else', () => {
		for (const good of ['1.1.1.1', '127.0.0.1:5353, ::1', '[::1]:53']) expect(configProblems({ DNS_SERVERS: good })).toEqual([])
		for (const bad of ['dns.example', '1.1.1.1:0', '[1.1.1.1]:53', '10.0.0.1:99999'])
			expect(configProblems({ DNS_SERVERS: bad }).join(' ')).toContain(`DNS_SERVERS must be IP addresses, each optionally with a port`)
	})

	test('a DNS server that does not answer is a bounded wait and a sentence, and verifies nothing', async () => {
		const silent = await startDns()
		const server = silent.server
		await silent.stop()
		const domain = domainName()
		const { page } = await ownerListing(domain, { ...SETTINGS, DNS_SERVERS: server, HTTP_IDLE_TIMEOUT: '3' })
		const started = Date.now()
		const refused = await page.submit('/settings/sso/domains/verify', { domain })
		expect(Date.now() - started).toBeLessThan(3000)
		expect(refused.status).toBe(422)
		expect(refused.text).toContain('DNS did not answer within 2 seconds')
		expect(await ssoWorkspaceOf((await portalApp(SETTINGS)).deps.db, `a@${domain}`)).toBeNull()
	})

	test('a record name pointed elsewhere (a CNAME) shows only verification values: the TXT records the resolver reaches there, internal names included, are not repeated to the owner', async () => {
		const domain = domainName()
		const { page } = await ownerListing(domain)
		const record = recordShown((await page.get('/settings/sso')).text, domain)!
		// A name the internet does not see, answered by the company resolver DNS_SERVERS names.
		const internal = `vault.${unique('corp')}.internal.test`
		await dns.setTxt(internal, 'db-password=hunter2-secret')
		await dns.setCname(record.name, internal)
		const refused = await page.submit('/settings/sso/domains/verify', { domain })
		expect(refused.status).toBe(422)
		expect(refused.text).toContain(`The TXT record at ${record.name} is not a Benchline verification value (their values are not shown)`)
		expect(refused.text).not.toContain('hunter2')
		expect(refused.text).toContain(record.value)

		await dns.setTxt(internal, 'db-password=hunter2-secret', 'benchline-domain-verification=someoneelse')
		const other = await page.submit('/settings/sso/domains/verify', { domain })
		expect(other.text).toContain('says “benchline-domain-verification=someoneelse” (besides 1 other record), not this workspace’s value')
		expect(other.text).not.toContain('hunter2')
	})

	test('a domain too long for its record name (past 253 characters with _benchline-challenge.) is refused when listed, not left unverifiable', async () => {
		const label = 'a'.repeat(60)
		// Three labels of 60, one of `size`, then .example: 191 + size characters.
		const named = (size: number) => `${label}.${label}.${label}.${unique('l').padEnd(size, 'b')}.example`
		const long = named(49)
		expect(long.length).toBe(240)
		const { saved } = await ownerListing(long)
		expect(saved.status).toBe(422)
		expect(saved.text).toContain('Too long to verify')
		expect(saved.text).toContain('at most 232 characters')
		const fits = named(41)
		expect(fits.length).toBe(232)
		expect((await ownerListing(fits)).saved.redirectedTo).toBe('/settings/sso?done=saved')
	})
})

describe('the operator’s sso verify-domain', () => {
	test('verifies a domain a workspace listed, without DNS; refuses one it did not list, or another workspace verified', async () => {
		const { deps } = await portalApp(SETTINGS)
		const domain = domainName()
		const { ws } = await ownerListing(domain)
		const other = await ownerListing(domain)
		const parsed = parseCommand(allCommands(deps), ['sso', 'verify-domain', '--workspace', ws.slug, '--domain', domain.toUpperCase(), '--json'])
		expect([parsed.command.name, parsed.json]).toEqual(['sso verify-domain', true])
		const done = await runCommand(deps, 'sso verify-domain', parsed.options)
		expect(done.json).toEqual({ workspaceId: ws.id, domain, verified: true, already: false })
		expect(await ssoWorkspaceOf(deps.db, `a@${domain}`)).toBe(ws.id)
		expect((await runCommand(deps, 'sso verify-domain', parsed.options)).json).toMatchObject({ already: true })
		const listed = await runCommand(deps, 'sso list-domains', {})
		expect(listed.json.domains).toContainEqual({ domain, workspace: ws.slug, status: 'verified' })

		const failure = (options: Record<string, string>) =>
			runCommand(deps, 'sso verify-domain', options).then(
				() => null,
				(e: AppError) => [e.code, e.message],
			)
		expect(await failure({ workspace: ws.slug, domain: domainName() })).toEqual(['NOT_FOUND', expect.stringContaining('list it first')])
		expect(await failure({ workspace: other.ws.slug, domain })).toEqual(['CONFLICT', expect.stringContaining('Another workspace’s single sign-on covers')])
		expect(await failure({ workspace: `no-${unique()}`, domain })).toEqual(['NOT_FOUND', expect.stringContaining('No workspace')])
	})
})

describe('upgrading', () => {
	test('domains listed before verification existed become unverified claims with their own tokens, covering no one', async () => {
		const before = migrationsBefore(fileURLToPath(auth.migrations!), 'sso_domain_verification')
		// The auth module as it was, declaring the tables other modules point at and sso_domains as it was
		// (start-up checks the declared tables and columns exist).
		const oldDomains = pgTable('sso_domains', { domain: text('domain').primaryKey(), workspaceId: text('workspace_id').notNull() })
		const tables = { workspaces: tableAsItWas('workspaces'), users: tableAsItWas('users'), oldDomains }
		const earlier = modules.map((m) => (m === auth ? { ...m, migrations: pathToFileURL(`${before.folder}/`), tables } : m))
		const scratch = await emptyDatabase()
		try {
			await scratch.database.migrate(earlier)
			const db = scratch.database
			await db.rows(sql`insert into workspaces (id, slug, name) values ('ws_a', 'a', 'A'), ('ws_b', 'b', 'B')`)
			await db.rows(sql`insert into sso_domains (domain, workspace_id) values ('a.example', 'ws_a'), ('squatted.example', 'ws_b'), ('b.example', 'ws_b')`)
			await db.migrate(modules)
			expect(await db.db.select().from(ssoDomains)).toEqual([])
			const claims = await db.db.select().from(ssoDomainClaims).orderBy(ssoDomainClaims.domain)
			expect(claims.map((c) => [c.domain, c.workspaceId])).toEqual([
				['a.example', 'ws_a'],
				['b.example', 'ws_b'],
				['squatted.example', 'ws_b'],
			])
			for (const c of claims) expect(c.token).toMatch(/^[0-9a-f]{32}$/)
			expect(new Set(claims.map((c) => c.token)).size).toBe(3)
			expect(await ssoWorkspaceOf(db.db, 'x@a.example')).toBeNull()
		} finally {
			await scratch.close()
			before.remove()
		}
	})

	test('an owner whose domain waits for verification is told, and with Require single sign-on on, that only owners can sign in', async () => {
		const { ws } = await ownerListing(domainName())
		const { deps } = await portalApp(SETTINGS)
		await deps.db.update(authTables.ssoConfigs).set({ requireSso: true }).where(eq(authTables.ssoConfigs.workspaceId, ws.id))
		const page = await signedIn(await newPerson(ws, 'owner'), { overrides: SETTINGS })
		const shown = (await page.get('/settings/sso')).text
		expect(shown).toContain('Domains listed before Benchline verified them wait here too')
		expect(shown).toContain('until a domain is verified, only owners can sign in')
	})
})
