/**
 * Conversations and addresses in either spelling (core/email.ts): mail from `Ann@Bücher.example` and
 * from `ann@xn--bcher-kva.example.` is one conversation, the candidate's when the address is theirs
 * in either spelling; conversations stored before in a Unicode spelling are rewritten at start
 * (`threadAddresses`), and one whose key another conversation already has in ASCII is left, logged.
 */
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { normalDomain } from '../../core/email.ts'
import { rewriteStoredAddresses } from '../../core/stored-addresses.ts'
import { logLines, newWorkspace, testDeps, unique } from '../../tests/helpers.ts'
import { newCandidate } from '../../tests/staffing-fixtures.ts'
import { inboxThreads } from './table.ts'
import { type Counterpart, counterpartAt, senderOf, threadAddresses, threadFor, unattributedCounterpart } from './threads.ts'

function newUnicodeDomain() {
	const unicode = `bücher-${unique('d')}.example`
	return { unicode, ascii: normalDomain(unicode)! }
}

const noVendors = async () => new Map()
const at = new Date()

describe('one conversation per address, in either spelling', () => {
	test('mail from an address nobody has, in the Unicode spelling and in ASCII: one conversation, its address in ASCII', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const domain = newUnicodeDomain()
		const first = await counterpartAt(deps, ws.id, `Ann@${domain.unicode.toUpperCase()}`, null, noVendors)
		const second = await counterpartAt(deps, ws.id, `ann@${domain.ascii}.`, null, noVendors)
		expect(first).toEqual(second)
		expect(first).toMatchObject({ key: `address:ann@${domain.ascii}`, address: `ann@${domain.ascii}` })
		expect(await threadFor(deps.db, ws.id, first, 'Hello', at)).toBe(await threadFor(deps.db, ws.id, second, 'Hello again', at))
		expect(unattributedCounterpart(`ann@${domain.unicode}`, null, 'unverified').key).toBe(`unverified:ann@${domain.ascii}`)
	})

	test('the candidate stored in ASCII is the one writing from the Unicode spelling, and the reverse', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const domain = newUnicodeDomain()
		const candidate = await newCandidate(ws, { email: `ann@${domain.ascii}` })
		const counterpart = await counterpartAt(deps, ws.id, `ann@${domain.unicode}`, null, noVendors)
		expect(counterpart).toMatchObject({ key: `candidate:${candidate}`, type: 'candidate' })
		const thread = { workspaceId: ws.id, counterpartType: 'candidate', candidateId: candidate, vendorId: null, counterpartAddress: counterpart.address }
		expect(await senderOf(deps, thread, `Ann@${domain.unicode}.`)).toEqual({ writtenBy: 'candidate', counterpart: true })
		const other = { ...thread, counterpartType: 'other', candidateId: null, counterpartAddress: `ann@${domain.unicode}` }
		expect(await senderOf(deps, other, `ann@${domain.ascii}`)).toEqual({ writtenBy: 'outside', counterpart: true })
	})
})

describe('conversations stored before addresses had one spelling', () => {
	test('rewritten in ASCII at start: mail in either spelling finds them; one whose ASCII key another has is left, and logged', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const domain = newUnicodeDomain()
		const stored = (local: string, address: string): Counterpart => ({
			key: `address:${local}@${address}`,
			type: 'other',
			candidateId: null,
			vendorId: null,
			name: local,
			address: `${local}@${address}`,
		})
		const old = await threadFor(deps.db, ws.id, stored('ann', `${domain.unicode}.`), 'Before', at)
		const twin = await threadFor(deps.db, ws.id, stored('bo', domain.unicode), 'Before', at)
		const clash = await threadFor(deps.db, ws.id, stored('bo', domain.ascii), 'Before', at)

		expect(await rewriteStoredAddresses(deps, ...threadAddresses)).toBeGreaterThanOrEqual(3)
		const row = async (id: string) =>
			(
				await deps.db.select({ key: inboxThreads.counterpartKey, address: inboxThreads.counterpartAddress }).from(inboxThreads).where(eq(inboxThreads.id, id))
			)[0]
		expect(await row(old)).toEqual({ key: `address:ann@${domain.ascii}`, address: `ann@${domain.ascii}` })
		expect(await row(twin)).toEqual({ key: `address:bo@${domain.unicode}`, address: `bo@${domain.ascii}` })
		expect(logLines.some((l) => l.includes('left as it is for an operator to merge') && l.includes(twin))).toBe(true)
		for (const typed of [`ann@${domain.unicode}`, `ann@${domain.ascii}`])
			expect(await threadFor(deps.db, ws.id, await counterpartAt(deps, ws.id, typed, null, noVendors), 'After', at)).toBe(old)
		expect(await threadFor(deps.db, ws.id, await counterpartAt(deps, ws.id, `bo@${domain.unicode}`, null, noVendors), 'After', at)).toBe(clash)
	})
})
