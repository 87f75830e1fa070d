/**
 * An address is one account however its letters are typed: `josé` with a combining accent is the
 * `josé` on file, `ｏｗｎｅｒ` in full-width letters the plain `owner` (NFKC); an address whose part
 * before the `@` is no dot-atom (`a..b@`, `.a@`) is refused; and an address with an invisible or control character (a zero-width space, a
 * right-to-left override) is refused on its field at every door that makes an account (the CLI, the
 * people page, SCIM), never kept as a second account that looks like the first (core/email.ts).
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { AppError } from '../../core/errors.ts'
import { callOn, newPerson, newScimToken, newWorkspace, testDeps, unique } from '../../tests/helpers.ts'
import { PortalClient, portalApp, signedIn, uniqueAddress } from '../../tests/portal.ts'
import { addPerson, operatorActor } from './index.ts'

setDefaultTimeout(60_000)

const INVISIBLE = 'has invisible or control characters in it (such as a zero-width space or a direction mark): type it again without them'
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User'

let app: Awaited<ReturnType<typeof portalApp>>['app']
beforeAll(async () => {
	app = (await portalApp()).app
})

const looksLike = (local: string) => [`${local}\u200b@firm.example`, `\u202e${local}@firm.example`, `${local}\u0085@firm.example`]

describe('an address with an invisible or control character is refused on its field', () => {
	test('CLI user create: the email field, nothing made', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		for (const email of looksLike(unique('jane'))) {
			const refused = await addPerson(deps, operatorActor(ws), ws, { email, name: 'Jane', role: 'viewer', password: 'correct horse battery' }).catch((e) => e)
			expect(refused).toBeInstanceOf(AppError)
			expect((refused as AppError).fields).toEqual([{ field: 'email', message: INVISIBLE }])
		}
	})

	test('the people page: beside the Email field, with what was typed kept', async () => {
		const ws = await newWorkspace()
		const page = await signedIn(await newPerson(ws, 'owner'))
		await page.get('/people')
		const [email] = looksLike(unique('jane'))
		const res = await page.post('/people', { email: email!, name: 'Jane Doe', role: 'viewer', password: 'temporary password' })
		expect(res.status).toBe(422)
		expect(res.text).toContain(`<span class="field-error" id="p-email-error">Email ${INVISIBLE}.</span>`)
		expect(res.text).toContain('value="Jane Doe"')
	})

	test('SCIM: 400 invalidValue naming userName', async () => {
		const token = await newScimToken(await newWorkspace())
		for (const email of looksLike(unique('jane'))) {
			const res = await callOn(app, 'POST', '/scim/v2/Users', { key: token, body: { schemas: [USER], userName: email } })
			expect(res.status, JSON.stringify(email)).toBe(400)
			expect(res.json.scimType).toBe('invalidValue')
			expect(res.json.detail).toContain(`userName ${INVISIBLE}`)
		}
	})
})

describe('an address typed with a combining accent is the composed one on file', () => {
	test('SCIM finds it and refuses a second account; signing in with it opens the account', async () => {
		const token = await newScimToken(await newWorkspace())
		const local = unique('jose')
		const composed = `${local}\u00e9@firm.example`
		const decomposed = `${local}e\u0301@firm.example`
		const made = await callOn(app, 'POST', '/scim/v2/Users', { key: token, body: { schemas: [USER], userName: decomposed } })
		expect(made.status).toBe(201)
		expect(made.json.userName).toBe(composed)
		const again = await callOn(app, 'POST', '/scim/v2/Users', { key: token, body: { schemas: [USER], userName: composed } })
		expect([again.status, again.json.scimType]).toEqual([409, 'uniqueness'])
		const found = await callOn(app, 'GET', `/scim/v2/Users?filter=${encodeURIComponent(`userName eq "${decomposed}"`)}`, { key: token })
		expect(found.json.totalResults).toBe(1)
		// The people page's account, signed in with the other spelling.
		const ws = await newWorkspace()
		const deps = await testDeps()
		await addPerson(deps, operatorActor(ws), ws, { email: `x${composed}`, name: 'José', role: 'viewer', password: 'correct horse battery' })
		const client = new PortalClient(app, { address: uniqueAddress() })
		const res = await client.signIn(`X${decomposed}`, 'correct horse battery')
		expect([res.status, res.headers.get('location')]).toEqual([303, '/portal'])
	})
})

describe('an address typed in full-width letters is the plain one on file', () => {
	test('SCIM finds it and refuses a second account; signing in with it opens the account', async () => {
		const token = await newScimToken(await newWorkspace())
		const local = unique('owner')
		const plain = `${local}@firm.example`
		const wide = (text: string) => text.replace(/[a-z0-9]/g, (c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0))
		const made = await callOn(app, 'POST', '/scim/v2/Users', { key: token, body: { schemas: [USER], userName: plain } })
		expect(made.status).toBe(201)
		for (const look of [`${wide(local)}@firm.example`, `${local}\uff20firm.example`]) {
			const again = await callOn(app, 'POST', '/scim/v2/Users', { key: token, body: { schemas: [USER], userName: look } })
			expect([again.status, again.json.scimType], look).toEqual([409, 'uniqueness'])
		}
		const found = await callOn(app, 'GET', `/scim/v2/Users?filter=${encodeURIComponent(`userName eq "${wide(local)}@firm.example"`)}`, { key: token })
		expect(found.json.totalResults).toBe(1)
		const ws = await newWorkspace()
		await addPerson(await testDeps(), operatorActor(ws), ws, { email: `x${plain}`, name: 'Owner', role: 'viewer', password: 'correct horse battery' })
		const client = new PortalClient(app, { address: uniqueAddress() })
		const res = await client.signIn(`ｘ${wide(local)}@firm.example`, 'correct horse battery')
		expect([res.status, res.headers.get('location')]).toEqual([303, '/portal'])
	})
})

describe('an address whose part before the @ is no dot-atom is refused on its field', () => {
	const broken = (local: string) => [`${local}..b@firm.example`, `.${local}@firm.example`, `${local}.@firm.example`]

	test('SCIM: 400 invalidValue naming userName, nothing made', async () => {
		const token = await newScimToken(await newWorkspace())
		for (const email of broken(unique('a'))) {
			const res = await callOn(app, 'POST', '/scim/v2/Users', { key: token, body: { schemas: [USER], userName: email } })
			expect([res.status, res.json.scimType], email).toEqual([400, 'invalidValue'])
			expect(res.json.detail).toContain('userName')
		}
	})

	test('CLI user create: the email field', async () => {
		const ws = await newWorkspace()
		for (const email of broken(unique('a'))) {
			const refused = await addPerson(await testDeps(), operatorActor(ws), ws, { email, name: 'A', role: 'viewer', password: 'correct horse battery' }).catch(
				(e) => e,
			)
			expect(refused).toBeInstanceOf(AppError)
			expect((refused as AppError).fields?.[0]?.field).toBe('email')
		}
	})
})
