/**
 * Privacy requests and addresses in either spelling (core/email.ts): a request typed with a Unicode
 * domain is kept, and its confirmation sent, in the ASCII form, and it finds the candidate stored in
 * ASCII; a request in ASCII finds a candidate stored before in a Unicode spelling (rewritten at start);
 * a request stored before in a Unicode spelling finds the candidate in ASCII. A domain with no ASCII
 * form is refused on the field. What is no text (a NUL, a direction override, a noncharacter) is not kept in a note.
 */
import { describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { normalDomain } from '../../core/email.ts'
import { rewriteStoredAddresses } from '../../core/stored-addresses.ts'
import { newWorkspace, testDeps, unique, type TestWorkspace } from '../../tests/helpers.ts'
import { uniqueAddress } from '../../tests/portal.ts'
import { newCandidate } from '../../tests/staffing-fixtures.ts'
import { candidateAddresses } from '../candidates/apply.ts'
import { textToSend } from '../outbox/index.ts'
import { outbox } from '../outbox/table.ts'
import { confirmPrivacyRequest, getPrivacyRequest, submitPrivacyRequest } from './requests.ts'
import { privacyRequests } from './table.ts'

function newUnicodeDomain() {
	const unicode = `bücher-${unique('d')}.example`
	return { unicode, ascii: normalDomain(unicode)! }
}

/** Asks as typed, confirms with the link mailed to `mailedTo`; the request as owners see it. */
async function askAndConfirm(ws: TestWorkspace, typed: string, mailedTo: string) {
	const deps = await testDeps()
	await submitPrivacyRequest(deps, ws, { email: typed, kind: 'access', note: '', address: uniqueAddress() })
	const [mail] = await deps.db
		.select()
		.from(outbox)
		.where(and(eq(outbox.workspaceId, ws.id), eq(outbox.to, mailedTo)))
	const token = /\/confirm\/(bl_prq_[0-9A-Za-z]{36})/.exec(await textToSend(deps.secret, mail!))![1]!
	const { id } = await confirmPrivacyRequest(deps, ws, token)
	return getPrivacyRequest(deps, ws.id, id)
}

describe('a privacy request finds the candidate whatever the spelling', () => {
	test('asked in the Unicode spelling: kept and mailed in ASCII, it finds the candidate stored in ASCII', async () => {
		const ws = await newWorkspace()
		const domain = newUnicodeDomain()
		const candidate = await newCandidate(ws, { email: `ann@${domain.ascii}` })
		const request = await askAndConfirm(ws, ` Ann@${domain.unicode.toUpperCase()}. `, `ann@${domain.ascii}`)
		expect(request.email).toBe(`ann@${domain.ascii}`)
		expect(request.matches.map((m) => m.id)).toEqual([candidate])
	})

	test('asked in ASCII, it finds the candidate stored before in the Unicode spelling, once rewritten at start', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const domain = newUnicodeDomain()
		const candidate = await newCandidate(ws, { email: `ann@${domain.unicode}` })
		await rewriteStoredAddresses(deps, candidateAddresses)
		const request = await askAndConfirm(ws, `ann@${domain.ascii}`, `ann@${domain.ascii}`)
		expect(request.matches.map((m) => m.id)).toEqual([candidate])
	})

	test('a request stored before in the Unicode spelling finds the candidate in ASCII', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const domain = newUnicodeDomain()
		const candidate = await newCandidate(ws, { email: `ann@${domain.ascii}` })
		const request = await askAndConfirm(ws, `ann@${domain.ascii}`, `ann@${domain.ascii}`)
		await deps.db
			.update(privacyRequests)
			.set({ email: `ann@${domain.unicode}` })
			.where(eq(privacyRequests.id, request.id))
		expect((await getPrivacyRequest(deps, ws.id, request.id)).matches.map((m) => m.id)).toEqual([candidate])
	})

	test('a domain with no ASCII form is refused on the e-mail field, saying so', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		await expect(submitPrivacyRequest(deps, ws, { email: 'ann@xn--a.example', kind: 'erasure', note: '', address: uniqueAddress() })).rejects.toMatchObject({
			code: 'VALIDATION',
			fields: [{ field: 'email', message: '“xn--a.example” is not a domain name: it has no ASCII (IDNA) form' }],
		})
	})
})

describe('what a request keeps', () => {
	test('the note keeps no NUL, control or direction character and no noncharacter (U+FFFE, U+FFFF); an address with a noncharacter is refused', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const email = `${unique('note')}@example.test`
		await submitPrivacyRequest(deps, ws, { email, kind: 'access', note: '\ufffePlease\u0000 send \u202eall\uffff of it.\u{10ffff}', address: uniqueAddress() })
		const [row] = await deps.db
			.select({ note: privacyRequests.note })
			.from(privacyRequests)
			.where(and(eq(privacyRequests.workspaceId, ws.id), eq(privacyRequests.email, email)))
		expect(row!.note).toBe('Please send all of it.')
		await expect(submitPrivacyRequest(deps, ws, { email: `ann\ufffe@example.test`, kind: 'access', note: '', address: uniqueAddress() })).rejects.toMatchObject(
			{
				code: 'VALIDATION',
				fields: [{ field: 'email', message: expect.stringContaining('invisible or control characters') }],
			},
		)
	})
})
