/**
 * A candidate's unsubscribe from marketing mail (the outbox's `outbox_unsubscribes`, by candidate id)
 * is candidate data like the rest: in their export, and gone with their erasure, while another
 * candidate's unsubscribe, and the rule that marketing mail does not reach them, stays. An unsubscribe
 * from a job alert goes with the alert it deletes: no row stays keyed by an alert that is gone.
 */
import { expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { strFromU8, unzipSync } from 'fflate'
import { personActor } from '../../modules/auth/index.ts'
import { enqueueMail, isUnsubscribed, UNSUBSCRIBED } from '../../modules/outbox/index.ts'
import { unsubscribe } from '../../modules/outbox/service.ts'
import { eraseCandidate, exportCandidate } from '../../modules/privacy/index.ts'
import { eraseAddress, exportAddress } from '../../modules/privacy/address-data.ts'
import { requestAlert } from '../../modules/careers/alerts.ts'
import { NO_CRITERIA } from '../../modules/careers/search.ts'
import { newPerson, newWorkspace, testApp, testDeps, unique } from '../helpers.ts'
import { newCandidate } from '../staffing-fixtures.ts'

setDefaultTimeout(120_000)

test('an unsubscribe is in the candidate’s export and is erased with them; another candidate’s stays and still stops marketing mail', async () => {
	await testApp()
	const deps = await testDeps()
	const ws = await newWorkspace()
	const actor = await personActor(deps, ws.slug, (await newPerson(ws, 'owner', {}, deps)).email)
	const erased = await newCandidate(ws, { name: 'Ulla Unsubscribe', email: `${unique('u')}@example.test`, resume: false }, deps)
	const otherEmail = `${unique('o')}@example.test`
	const other = await newCandidate(ws, { name: 'Otto Other', email: otherEmail, resume: false }, deps)
	for (const id of [erased, other]) await unsubscribe(deps, deps.db, { workspaceId: ws.id, type: 'candidate', id })
	const [row] = await deps.database.rows<{ at: string }>(
		sql`select created_at as at from outbox_unsubscribes where workspace_id = ${ws.id} and recipient_id = ${erased}`,
	)

	const exported = await exportCandidate(deps, actor, erased, '127.0.0.1')
	const data = JSON.parse(strFromU8(unzipSync(exported.bytes)['candidate.json']!))
	expect(data.marketingMail).toEqual({ unsubscribedAt: new Date(row!.at).toISOString() })
	const neverUnsubscribed = await newCandidate(ws, { name: 'Nora Never', resume: false }, deps)
	const none = JSON.parse(strFromU8(unzipSync((await exportCandidate(deps, actor, neverUnsubscribed, '127.0.0.1')).bytes)['candidate.json']!))
	expect(none.marketingMail).toEqual({ unsubscribedAt: null })

	await eraseCandidate(deps, actor, erased, '127.0.0.1')
	const left = await deps.database.rows<{ id: string }>(sql`select recipient_id as id from outbox_unsubscribes where workspace_id = ${ws.id}`)
	expect(left.map((r) => r.id)).toEqual([other])
	// The other candidate's rule holds: their next marketing mail is recorded as not sent.
	expect(await isUnsubscribed(deps.db, ws.id, { type: 'candidate', id: other })).toBe(true)
	const next = await deps.db.transaction((tx) =>
		enqueueMail(tx, { workspaceId: ws.id, to: otherEmail, subject: 'New role', text: 'x', recipient: { type: 'candidate', id: other }, marketing: true }, deps),
	)
	expect(next).toMatchObject({ status: 'not_sent' })
	const [mail] = await deps.database.rows<{ lastError: string }>(sql`select last_error as "lastError" from outbox where id = ${next.id}`)
	expect(mail!.lastError).toBe(UNSUBSCRIBED)
})

test('an unsubscribe from a job alert goes with the alert: nothing stays keyed by a deleted alert, outside every export, for a candidate or an address alone', async () => {
	await testApp()
	const deps = await testDeps()
	const ws = await newWorkspace()
	const actor = await personActor(deps, ws.slug, (await newPerson(ws, 'owner', {}, deps)).email)
	const candidateEmail = `${unique('c')}@example.test`
	const candidateId = await newCandidate(ws, { name: 'Alma Alerts', email: candidateEmail, resume: false }, deps)
	const addressOnly = `${unique('a')}@example.test`
	const alertIds: string[] = []
	/** An alert of the address, unsubscribed from (which deletes it), then one asked for again: the address's alert now. */
	async function unsubscribedThenAgain(email: string): Promise<string> {
		await requestAlert(deps, ws, email, { ...NO_CRITERIA, q: 'java' })
		const [first] = await deps.database.rows<{ id: string }>(sql`select id from job_alerts where workspace_id = ${ws.id} and email = ${email}`)
		await unsubscribe(deps, deps.db, { workspaceId: ws.id, type: 'job_alert', id: first!.id })
		await requestAlert(deps, ws, email, { ...NO_CRITERIA, q: 'kotlin' })
		const [now] = await deps.database.rows<{ id: string }>(sql`select id from job_alerts where workspace_id = ${ws.id} and email = ${email}`)
		alertIds.push(first!.id, now!.id)
		return now!.id
	}
	const keyedByTheirAlerts = () =>
		deps.database.rows(sql`select * from outbox_unsubscribes where workspace_id = ${ws.id} and recipient_id = any(${sql.param(alertIds)}::text[])`)

	const candidateAlert = await unsubscribedThenAgain(candidateEmail)
	const addressAlert = await unsubscribedThenAgain(addressOnly)
	expect(await keyedByTheirAlerts()).toEqual([])
	// What the exports hold is all there is: the alert they have now.
	const data = JSON.parse(strFromU8(unzipSync((await exportCandidate(deps, actor, candidateId, '127.0.0.1')).bytes)['candidate.json']!))
	expect(data.jobAlerts.map((a: { id: string }) => a.id)).toEqual([candidateAlert])
	expect(((await exportAddress(deps, ws.id, addressOnly))!.jobAlerts as { id: string }[]).map((a) => a.id)).toEqual([addressAlert])

	await eraseCandidate(deps, actor, candidateId, '127.0.0.1')
	await deps.db.transaction((tx) => eraseAddress(deps, tx, ws.id, addressOnly))
	expect(await keyedByTheirAlerts()).toEqual([])
	expect(await deps.database.rows(sql`select id from job_alerts where id = any(${sql.param(alertIds)}::text[])`)).toEqual([])
})
