/**
 * Erasing a person with interviews scheduled: invitations still waiting are not sent, and each
 * interviewer an invitation reached gets a cancellation with its UID that names no one, so no
 * calendar app keeps "Interview: <their name>".
 */
import { describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq, inArray } from 'drizzle-orm'
import ICAL from 'ical.js'
import { newPerson, testDeps } from '../../tests/helpers.ts'
import { onTeam } from '../../tests/sdk.ts'
import { newApplication, newCandidate, newVendorJob, workspaceWithOwner } from '../../tests/staffing-fixtures.ts'
import { personActor } from '../auth/index.ts'
import { outbox } from '../outbox/table.ts'
import { eraseCandidate } from '../privacy/index.ts'
import { scheduleInterview } from './service.ts'

setDefaultTimeout(60_000)

const futureDay = (days: number) => new Date(Date.UTC(new Date().getUTCFullYear() + 1, 0, 10 + days)).toISOString().slice(0, 10)

describe('erasing a person with interviews scheduled', () => {
	test('waiting invitations are not sent; interviewers an invitation reached get a CANCEL with its UID naming no one; the candidate gets nothing', async () => {
		const deps = await testDeps()
		const { ws, owner } = await workspaceWithOwner(deps)
		const r = await newPerson(ws, 'recruiter', {}, deps)
		const m = await newPerson(ws, 'hiring_manager', {}, deps)
		const recruiter = await personActor(deps, ws.slug, r.email)
		const job = await newVendorJob(ws, { title: 'Platform Engineer' }, deps)
		await onTeam(job, m.userId)
		const candidateEmail = 'zelda.quartermain@example.test'
		const candidateId = await newCandidate(ws, { name: 'Zelda Quartermain', email: candidateEmail, phone: '+1 555 014 7788' }, deps)
		const app = await newApplication(ws, candidateId, job, {}, deps)
		const both = [recruiter.userId!, m.userId]
		const delivered = await scheduleInterview(deps, recruiter, app, { interviewerIds: both, date: futureDay(1), time: '10:00', minutes: '45', videoUrl: '' })
		const waiting = await scheduleInterview(deps, recruiter, app, { interviewerIds: both, date: futureDay(2), time: '11:00', minutes: '30', videoUrl: '' })
		// The first interview's invitation went out to the recruiter and the candidate; the hiring manager's is still queued.
		const mailOf = (id: string) => deps.db.select().from(outbox).where(eq(outbox.relatedId, id)).orderBy(outbox.seq)
		const firstSent = (await mailOf(delivered.id)).filter((row) => row.to !== m.email)
		expect(firstSent).toHaveLength(2)
		await deps.db
			.update(outbox)
			.set({ status: 'sent', sentAt: new Date() })
			.where(
				inArray(
					outbox.id,
					firstSent.map((row) => row.id),
				),
			)

		await eraseCandidate(deps, owner, candidateId, 'test')

		const afterFirst = await mailOf(delivered.id)
		const afterWaiting = await mailOf(waiting.id)
		// Nothing about either interview is still waiting, but the new cancellations.
		const queued = [...afterFirst, ...afterWaiting].filter((row) => row.status === 'pending')
		expect(queued.map((row) => row.to)).toEqual([r.email])
		expect(afterFirst.filter((row) => row.to === m.email).map((row) => row.status)).toEqual(['not_sent'])
		expect(afterWaiting.map((row) => row.status)).toEqual(['not_sent', 'not_sent', 'not_sent'])

		const cancel = queued[0]!
		expect(cancel.subject).toBe('Cancelled: interview for Platform Engineer')
		expect(cancel.calendar?.method).toBe('CANCEL')
		const root = new ICAL.Component(ICAL.parse(cancel.calendar!.content))
		const event = new ICAL.Event(root.getFirstSubcomponent('vevent')!)
		expect(root.getFirstPropertyValue('method')).toBe('CANCEL')
		expect(event.uid).toBe(`${delivered.id}@localhost`)
		expect(event.sequence).toBe(1)
		for (const text of [cancel.subject, cancel.text, cancel.calendar!.content])
			for (const needle of ['Zelda', 'Quartermain', candidateEmail, '014 7788']) expect(text).not.toContain(needle)
		// The scheduled interviews are gone; the candidate was sent nothing new.
		const toCandidate = await deps.db
			.select()
			.from(outbox)
			.where(and(eq(outbox.workspaceId, ws.id), eq(outbox.status, 'pending')))
		expect(toCandidate.map((row) => row.to)).toEqual([r.email])
	})
})
