/**
 * What an erasure or an export of one candidate may reach: nothing filed under another candidate
 * who shares their phone number or e-mail address, nothing filed under no one at an address another
 * candidate still holds, and no copy of that address scrubbed from the other's mail. And what it
 * must reach: the résumé copied for a vendor submission, the submission mail still waiting (not
 * sent, no attachments), the file-name form of the name (`First_Last-Resume.pdf`).
 */
import { expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { strFromU8, unzipSync } from 'fflate'
import { newId } from '../../core/credentials.ts'
import { fileStore } from '../../core/files.ts'
import { operatorActor, personActor } from '../../modules/auth/index.ts'
import { submitToVendor } from '../../modules/documents/index.ts'
import { enqueueMail, enqueueMessage } from '../../modules/outbox/index.ts'
import { eraseCandidate, exportCandidate } from '../../modules/privacy/index.ts'
import { newPerson, newWorkspace, testApp, testDeps, unique, type TestWorkspace } from '../helpers.ts'
import { newApplication, newCandidate, newSubmissionVendor, newVendorJob } from '../staffing-fixtures.ts'

setDefaultTimeout(120_000)

/** A conversation with one inbound message; `candidateId` null: filed under the address alone. */
async function thread(ws: TestWorkspace, candidateId: string | null, address: string, text: string) {
	const deps = await testDeps()
	const id = newId('thr')
	const key = `${candidateId ? `candidate:${candidateId}` : `address:${address}`}:${id}`
	await deps.database.rows(sql`insert into inbox_threads (id, workspace_id, counterpart_key, counterpart_type, candidate_id, counterpart_name, counterpart_address, subject, last_message_at)
		values (${id}, ${ws.id}, ${key}, 'candidate', ${candidateId}, ${address}, ${address}, 'Messages', now())`)
	await deps.database.rows(sql`insert into inbox_messages (id, workspace_id, thread_id, direction, channel, from_address, to_address, text)
		values (${newId('msg')}, ${ws.id}, ${id}, 'in', ${address.includes('@') ? 'email' : 'message'}, ${address}, 'us@firm.example', ${text})`)
	return id
}

const threadCount = async (id: string) =>
	(await (await testDeps()).database.rows<{ n: number }>(sql`select count(*)::int n from inbox_threads where id = ${id}`))[0]!.n

const outboxRow = async (id: string) =>
	(
		await (
			await testDeps()
		).database.rows<{ status: string; to: string; text: string; lastError: string | null }>(
			sql`select status, "to", text, last_error as "lastError" from outbox where id = ${id}`,
		)
	)[0]!

test('a phone number two candidates share: one’s export and erasure leave the other’s conversations and messages alone', async () => {
	await testApp()
	const deps = await testDeps()
	const ws = await newWorkspace()
	const actor = operatorActor(ws)
	const phone = '+14155550177'
	const alice = await newCandidate(ws, { name: `Alice ${unique('ph')}`, phone, resume: false })
	// The same number written another way is still the same number.
	const bob = await newCandidate(ws, { name: `Bob ${unique('ph')}`, phone: '+1 (415) 555-0177', resume: false })
	const own = await thread(ws, alice, phone, 'Alice here, see you Monday')
	const bobs = await thread(ws, bob, phone, 'Hi, this is Bob: my SSN is 123-45-6789')
	const unfiled = await thread(ws, null, phone, 'Who is this? (sent from the shared number)')
	const { id: toBob } = await enqueueMessage(
		deps.db,
		{ workspaceId: ws.id, to: phone, text: `Bob, call us at ${phone}`, recipient: { type: 'candidate', id: bob } },
		deps,
	)
	const { id: toAlice } = await enqueueMessage(
		deps.db,
		{ workspaceId: ws.id, to: phone, text: 'Alice, your interview', recipient: { type: 'candidate', id: alice } },
		deps,
	)

	const out = await exportCandidate(deps, actor, alice, 'test')
	const messages = JSON.stringify(JSON.parse(strFromU8(unzipSync(out.bytes)['candidate.json']!)).messages)
	expect(messages).toContain('Alice here')
	expect(messages).not.toContain('this is Bob')
	expect(messages).not.toContain('Who is this?')

	await eraseCandidate(deps, actor, alice, 'test')
	expect(await threadCount(own)).toBe(0)
	expect(await threadCount(bobs)).toBe(1)
	// Filed under no one, at a number Bob still has: it may be Bob's.
	expect(await threadCount(unfiled)).toBe(1)
	expect(await outboxRow(toBob)).toMatchObject({ status: 'pending', to: phone })
	expect((await outboxRow(toBob)).text).toContain(`call us at ${phone}`)
	expect(await outboxRow(toAlice)).toMatchObject({ status: 'not_sent', lastError: 'The recipient was erased' })
})

test('an e-mail address two candidates share: mail for the other, or for no one at that address, is neither cancelled nor scrubbed; an address only they hold still is', async () => {
	await testApp()
	const deps = await testDeps()
	const ws = await newWorkspace()
	const actor = operatorActor(ws)
	const shared = `${unique('family')}@shared.example`
	const alicePhone = '+12125550199'
	const alice = await newCandidate(ws, { name: `Alice ${unique('em')}`, email: shared, phone: alicePhone, resume: false })
	const bob = await newCandidate(ws, { name: `Bob ${unique('em')}`, email: shared.toUpperCase(), phone: null, resume: false })
	const carol = await newCandidate(ws, { name: `Carol ${unique('em')}`, phone: null, resume: false })
	const [carolRow] = await deps.database.rows<{ email: string }>(sql`select email from candidates where id = ${carol}`)
	const mail = (to: string, text: string, recipient?: string) =>
		enqueueMail(deps.db, { workspaceId: ws.id, to, subject: 'Hello', text, ...(recipient ? { recipient: { type: 'candidate', id: recipient } } : {}) }, deps)
	const { id: toBob } = await mail(shared, `Bob, reply to confirm (${shared})`, bob)
	const { id: toNoOne } = await mail(shared, 'A newsletter to the shared address')
	const bobs = await thread(ws, bob, shared, 'Bob writing from the family address')
	const unfiledShared = await thread(ws, null, shared, 'Someone at the family address')
	// Bob once wrote from a number that is now Alice's alone: filed under Bob, it stays Bob's.
	const bobsOldNumber = await thread(ws, bob, alicePhone, 'Bob from his old number')
	const { id: toBobsOldNumber } = await enqueueMessage(
		deps.db,
		{ workspaceId: ws.id, to: alicePhone, text: 'Bob, are you there?', recipient: { type: 'candidate', id: bob } },
		deps,
	)
	const unfiledCarol = await thread(ws, null, carolRow!.email, 'Carol before her profile existed')
	const { id: toCarol } = await mail(carolRow!.email, 'Carol, before her profile existed')
	// Job alerts belong to an address: the shared one's is neither Alice's to export nor to erase.
	const alert = async (email: string) => {
		const id = newId('jal')
		await deps.database.rows(sql`insert into job_alerts (id, workspace_id, email, q, status) values (${id}, ${ws.id}, ${email}, 'java', 'active')`)
		return id
	}
	const alertCount = async (id: string) => (await deps.database.rows<{ n: number }>(sql`select count(*)::int n from job_alerts where id = ${id}`))[0]!.n
	const sharedAlert = await alert(shared)
	const carolsAlert = await alert(carolRow!.email)
	const exported = strFromU8(unzipSync((await exportCandidate(deps, actor, alice, 'test')).bytes)['candidate.json']!)
	expect(exported).not.toContain(sharedAlert)

	await eraseCandidate(deps, actor, alice, 'test')
	expect(await outboxRow(toBob)).toMatchObject({ status: 'pending', to: shared, text: expect.stringContaining(`reply to confirm (${shared})`) })
	expect(await outboxRow(toNoOne)).toMatchObject({ status: 'pending', to: shared })
	expect(await threadCount(bobs)).toBe(1)
	expect(await threadCount(unfiledShared)).toBe(1)
	expect(await threadCount(bobsOldNumber)).toBe(1)
	expect(await outboxRow(toBobsOldNumber)).toMatchObject({ status: 'pending', to: alicePhone })
	expect(await alertCount(sharedAlert)).toBe(1)

	// Carol's address is hers alone: what is filed under no one at it is hers, and goes with her.
	await eraseCandidate(deps, actor, carol, 'test')
	expect(await threadCount(unfiledCarol)).toBe(0)
	expect(await outboxRow(toCarol)).toMatchObject({ status: 'not_sent', to: 'Erased candidate' })
	expect(await alertCount(carolsAlert)).toBe(0)
})

test('a vendor submission: the résumé copied for it is deleted, its mail still waiting is not sent and carries no attachment, the file-name form of the name is gone', async () => {
	await testApp()
	const deps = await testDeps()
	const ws = await newWorkspace()
	const recruiter = await personActor(deps, ws.slug, (await newPerson(ws, 'recruiter')).email)
	const vendorId = await newSubmissionVendor(ws, { rules: { always: [], byWorkAuthorization: {} } })
	const job = await newVendorJob(ws, { vendorId })
	const tag = unique('q').replace(/[^A-Za-z0-9]/g, '')
	const name = `Quillon ${tag} Erasewell`
	const candidateId = await newCandidate(ws, { name })
	const applicationId = await newApplication(ws, candidateId, job)
	await submitToVendor(deps, recruiter, { applicationId, documents: [] })
	const [sent] = await deps.database.rows<{ id: string; attachments: { filename: string; path: string }[] }>(
		sql`select id, attachments from outbox where workspace_id = ${ws.id} and related_id = ${applicationId}`,
	)
	const fileForm = `Quillon_${tag}_Erasewell`
	expect(sent!.attachments.map((a) => a.filename)).toEqual([`${fileForm}-Resume.pdf`])
	const copy = sent!.attachments[0]!.path
	const store = fileStore(deps.config)
	expect(await store.get(copy)).not.toBeNull()
	// A colleague forwarded the file's name in a note to someone else.
	const { id: forwarded } = await enqueueMail(
		deps.db,
		{ workspaceId: ws.id, to: 'colleague@firm.example', subject: 'Résumé', text: `See ${fileForm}-Resume.pdf in the submission` },
		deps,
	)

	await eraseCandidate(deps, operatorActor(ws), candidateId, 'test')
	expect(await store.get(copy)).toBeNull()
	const [after] = await deps.database.rows<{ status: string; lastError: string; attachments: unknown[]; text: string }>(
		sql`select status, last_error as "lastError", attachments, text from outbox where id = ${sent!.id}`,
	)
	expect(after).toMatchObject({ status: 'not_sent', lastError: 'The person it is about was erased', attachments: [] })
	expect(after!.text).not.toContain(tag)
	expect((await outboxRow(forwarded)).text).toContain('See Erased candidate-Resume.pdf')
})
