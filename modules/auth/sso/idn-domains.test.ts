/**
 * Internationalised e-mail domains (core/email.ts): `Bücher.example.` and `xn--bcher-kva.example`
 * are one domain everywhere a domain is stored, compared or turned into a DNS name. A claim listed in
 * one spelling is the claim of the other, its TXT record is named in ASCII (verified on the real test
 * DNS server), and a domain verified in one spelling covers the addresses typed in the other: single
 * sign-on (real OpenID provider), SCIM, sign-in. Text with no ASCII form is refused saying so;
 * addresses stored before in a Unicode spelling are rewritten (stored-addresses.ts). The spelling
 * itself is tested beside it (core/email.test.ts).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { callOn, newPerson, newWorkspace, unique } from '../../../tests/helpers.ts'
import { PortalClient, portalApp, signedIn, uniqueAddress } from '../../../tests/portal.ts'
import { startDns, type TestDns } from '../../../tests/sso/dns.ts'
import { recordShown, verifyByDns } from '../../../tests/sso/domains.ts'
import { loginAt, startProvider, type TestProvider } from '../../../tests/sso/provider.ts'
import { normalDomain } from '../../../core/email.ts'
import { signIn } from '../sessions.ts'
import { normaliseStoredAddresses } from '../stored-addresses.ts'
import { users } from '../table.ts'
import { personActor } from '../tokens.ts'
import { createScimToken } from './scim-tokens.ts'

setDefaultTimeout(120_000)

let SETTINGS: Record<string, string> = {}
let provider: TestProvider
let dns: TestDns

beforeAll(async () => {
	provider = await startProvider('http://localhost:3000/sign-in/sso/callback')
	dns = await startDns()
	SETTINGS = { SSO_ALLOW_HTTP: 'on', DNS_SERVERS: dns.server }
})
afterAll(async () => {
	await provider.stop()
	await dns.stop()
})

/** A new Unicode domain of its own for each test: its Unicode and ASCII spellings. */
function newUnicodeDomain() {
	const unicode = `bücher-${unique('d')}.example`
	return { unicode, ascii: normalDomain(unicode)! }
}

async function ownerSaves(owner: PortalClient, domains: string) {
	await owner.get('/settings/sso')
	return owner.submit('/settings/sso', {
		issuer: provider.issuer,
		clientId: provider.clientId,
		clientSecret: provider.clientSecret,
		domains,
		newPersonRole: 'recruiter',
	})
}

async function workspaceWithUnicodeDomain() {
	const ws = await newWorkspace()
	const owner = await signedIn(await newPerson(ws, 'owner'), { overrides: SETTINGS })
	const domain = newUnicodeDomain()
	// Typed in capitals with the trailing dot of a fully qualified name.
	expect((await ownerSaves(owner, `${domain.unicode.toUpperCase()}.`)).redirectedTo).toBe('/settings/sso?done=saved')
	return { ws, owner, domain }
}

describe('single sign-on domains', () => {
	test('kept in ASCII, shown readable; the TXT record is named in ASCII; the other spelling is the same claim; no ASCII form is refused saying so', async () => {
		const { owner, domain } = await workspaceWithUnicodeDomain()
		const page = (await owner.get('/settings/sso')).text
		expect(page).toContain(`${domain.unicode} (${domain.ascii})`)
		const record = recordShown(page, domain.unicode)
		expect(record?.name).toBe(`_benchline-challenge.${domain.ascii}`)
		// Listed again in its ASCII spelling: still one claim, with the same record (its token kept).
		await ownerSaves(owner, domain.ascii)
		const again = (await owner.get('/settings/sso')).text
		expect(recordShown(again, domain.unicode)).toEqual(record)
		expect(again.match(/<div class="stack" id="record-/g)).toHaveLength(1)
		const refused = await ownerSaves(owner, 'xn--zz.example, a_b c.example')
		expect(refused.status).toBe(422)
		expect(refused.text).toContain('Not a domain (it has no ASCII form, which DNS and e-mail use): xn--zz.example')
	})

	test('verified by its ASCII record, typed in either spelling; then another workspace can list neither spelling, and its SCIM cannot provision either', async () => {
		const { domain, owner } = await workspaceWithUnicodeDomain()
		// The owner presses Verify domain for the domain as they typed it (capitals): the same claim.
		const record = recordShown((await owner.get('/settings/sso')).text, domain.unicode)!
		await dns.setTxt(record.name, record.value)
		const verified = await owner.submit('/settings/sso/domains/verify', { domain: domain.unicode.toUpperCase() })
		expect(verified.redirectedTo).toBe('/settings/sso?done=domain-verified#domain-verification')

		const other = await newWorkspace()
		const otherOwner = await signedIn(await newPerson(other, 'owner'), { overrides: SETTINGS })
		for (const spelling of [domain.ascii, domain.unicode]) {
			const taken = await ownerSaves(otherOwner, spelling)
			expect(taken.status).toBe(422)
			expect(taken.text).toContain(`Another workspace’s single sign-on covers ${domain.unicode} (${domain.ascii})`)
		}
		const { deps, app } = await portalApp(SETTINGS)
		const otherActor = await personActor(deps, other.slug, (await newPerson(other, 'owner')).email)
		const { token } = await createScimToken(deps, otherActor, { name: 'Okta' })
		for (const userName of [`lee@${domain.unicode}`, `lee@${domain.ascii.toUpperCase()}.`]) {
			const res = await callOn(app, 'POST', '/scim/v2/Users', {
				key: token,
				body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName },
				headers: { 'content-type': 'application/scim+json' },
			})
			expect(res.status).toBe(409)
			expect(res.json.detail).toContain(`${domain.ascii} belongs to another workspace’s single sign-on`)
		}
	})
})

describe('addresses of a Unicode domain', () => {
	test('single sign-on: typed in either spelling, the provider’s Unicode address and the ASCII one are one person, stored in ASCII', async () => {
		const { owner, domain } = await workspaceWithUnicodeDomain()
		expect((await verifyByDns(owner, dns, domain.unicode)).redirectedTo).toBe('/settings/sso?done=domain-verified#domain-verification')
		const local = unique('dana')
		const { app, deps } = await portalApp(SETTINGS)
		const signInAs = async (typed: string, atProvider: string) => {
			const client = new PortalClient(app, { address: uniqueAddress() })
			await client.get('/sign-in/sso')
			const started = await client.post('/sign-in/sso', { email: typed, next: '/portal' })
			expect(started.status).toBe(303)
			expect(new URL(started.headers.get('location')!).origin).toBe(provider.issuer)
			const back = new URL(await loginAt(started.headers.get('location')!, atProvider, 'http://localhost:3000/sign-in/sso/callback'))
			return client.get(back.pathname + back.search)
		}
		// The provider says the address in Unicode; then the person types it in ASCII and the provider agrees.
		const first = await signInAs(`${local}@${domain.unicode.toUpperCase()}`, `${local}@${domain.unicode}`)
		expect([first.status, first.headers.get('location')]).toEqual([303, '/portal'])
		const second = await signInAs(`${local}@${domain.ascii}`, `${local}@${domain.unicode}`)
		expect([second.status, second.headers.get('location')]).toEqual([303, '/portal'])
		const accounts = await deps.db
			.select({ email: users.email })
			.from(users)
			.where(eq(users.email, `${local}@${domain.ascii}`))
		expect(accounts).toEqual([{ email: `${local}@${domain.ascii}` }])
		// An address whose domain has no ASCII form is refused saying so, before any provider is asked.
		const client = new PortalClient(app, { address: uniqueAddress() })
		await client.get('/sign-in/sso')
		const refused = await client.post('/sign-in/sso', { email: `${local}@xn--zz.example`, next: '/portal' })
		expect(refused.status).toBe(422)
		expect(refused.text).toContain('is not a domain name: it has no ASCII (IDNA) form')
	})

	test('an account stored before in a Unicode spelling is rewritten in ASCII at start, then signs in by either spelling; one whose ASCII address is taken is left for an operator', async () => {
		const { deps } = await portalApp()
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'recruiter')
		const domain = newUnicodeDomain()
		const local = unique('old')
		await deps.db
			.update(users)
			.set({ email: `${local}@${domain.unicode}.` })
			.where(eq(users.id, person.userId))
		// A second pair: the Unicode spelling stored next to an account that already has the ASCII one.
		const twin = await newPerson(ws, 'viewer')
		const clash = await newPerson(ws, 'viewer')
		await deps.db
			.update(users)
			.set({ email: `${local}.twin@${domain.unicode}` })
			.where(eq(users.id, twin.userId))
		await deps.db
			.update(users)
			.set({ email: `${local}.twin@${domain.ascii}` })
			.where(eq(users.id, clash.userId))

		const changed = await normaliseStoredAddresses(deps)
		expect(changed.accounts).toBeGreaterThanOrEqual(1)
		const emailOf = async (id: string) => (await deps.db.select({ email: users.email }).from(users).where(eq(users.id, id)))[0]!.email
		expect(await emailOf(person.userId)).toBe(`${local}@${domain.ascii}`)
		expect(await emailOf(twin.userId)).toBe(`${local}.twin@${domain.unicode}`)
		for (const typed of [`${local}@${domain.unicode.toUpperCase()}`, `${local}@${domain.ascii}.`]) {
			const result = await signIn(deps, { email: typed, password: person.password, address: uniqueAddress() })
			expect('token' in result).toBe(true)
		}
		// Nothing left to do: a second run changes nothing.
		expect((await normaliseStoredAddresses(deps)).accounts).toBe(0)
	})
})
