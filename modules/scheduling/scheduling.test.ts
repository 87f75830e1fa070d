/**
 * Scheduling interviews: the rules (who, when in the scheduler's zone, length, link), the
 * invitations as a calendar app reads them (parsed with ical.js: METHOD, UID, SEQUENCE, TZID,
 * DTSTART), reschedule and cancel, the calendar and get_calendar, and the pages with free/busy.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import ICAL from 'ical.js'
import type { Actor } from '../../core/actor.ts'
import { newId } from '../../core/credentials.ts'
import { AppError } from '../../core/errors.ts'
import { clock, newPerson, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { signedIn } from '../../tests/portal.ts'
import { closeClients, mcpClient, onTeam } from '../../tests/sdk.ts'
import { newApplication, newCandidate, newVendorJob, workspaceWithOwner } from '../../tests/staffing-fixtures.ts'
import { personActor } from '../auth/index.ts'
import { users } from '../auth/table.ts'
import { calendarBusy, calendarFeeds } from '../calendar/table.ts'
import { outbox } from '../outbox/table.ts'
import { scheduledInterviewers, scheduledInterviews } from './table.ts'
import { cancelInterview, rescheduleInterview, scheduleInterview, type ScheduleInput } from './service.ts'

setDefaultTimeout(60_000)

const ZONE = 'America/Chicago'
let w: {
	ws: TestWorkspace
	owner: Actor
	recruiter: Actor
	manager: Actor
	outsider: Actor
	viewer: Actor
	login: { email: string; password: string }
	app: string
	candidateEmail: string
}

/** A day in the coming winter (no DST change around it): `YYYY-MM-DD`. */
const futureDay = (days: number) => new Date(Date.UTC(new Date().getUTCFullYear() + 1, 0, 10 + days)).toISOString().slice(0, 10)

const refusal = async (p: Promise<unknown>) => {
	const error = await p.then(
		() => null,
		(e) => e,
	)
	expect(error).toBeInstanceOf(AppError)
	return error as AppError
}

/** The invitations sent about an interview, oldest first, each parsed as a calendar app would. */
async function invitations(interviewId: string) {
	const deps = await testDeps()
	const rows = await deps.db.select().from(outbox).where(eq(outbox.relatedId, interviewId)).orderBy(outbox.createdAt, outbox.seq)
	return rows.map((r) => {
		const root = new ICAL.Component(ICAL.parse(r.calendar!.content))
		for (const z of root.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(new ICAL.Timezone(z))
		const vevent = root.getFirstSubcomponent('vevent')!
		const event = new ICAL.Event(vevent)
		const dtstart = vevent.getFirstProperty('dtstart')!
		return {
			to: r.to,
			subject: r.subject,
			text: r.text,
			method: root.getFirstPropertyValue('method'),
			partMethod: r.calendar!.method,
			uid: event.uid,
			sequence: event.sequence,
			tzid: dtstart.getParameter('tzid'),
			local: dtstart.getFirstValue()!.toString(),
			start: event.startDate.toJSDate(),
			end: event.endDate.toJSDate(),
			attendees: vevent.getAllProperties('attendee').map((a) => String(a.getFirstValue()).toLowerCase()),
			status: vevent.getFirstPropertyValue('status'),
		}
	})
}

beforeAll(async () => {
	const deps = await testDeps()
	const { ws, owner } = await workspaceWithOwner(deps)
	const r = await newPerson(ws, 'recruiter', {}, deps)
	const m = await newPerson(ws, 'hiring_manager', {}, deps)
	const o = await newPerson(ws, 'hiring_manager', {}, deps)
	const v = await newPerson(ws, 'viewer', {}, deps)
	await deps.db.update(users).set({ timeZone: ZONE }).where(eq(users.id, r.userId))
	const job = await newVendorJob(ws, { title: 'Senior Java Developer' }, deps)
	await onTeam(job, m.userId)
	const candidateEmail = 'ava.jackson@example.test'
	const app = await newApplication(ws, await newCandidate(ws, { name: 'Ava Jackson', email: candidateEmail }, deps), job, {}, deps)
	const actor = (email: string) => personActor(deps, ws.slug, email)
	w = {
		ws,
		owner,
		recruiter: await actor(r.email),
		manager: await actor(m.email),
		outsider: await actor(o.email),
		viewer: await actor(v.email),
		login: r,
		app,
		candidateEmail,
	}
}, 180_000)
afterAll(closeClients)

describe('schedule, reschedule, cancel', () => {
	test('invitations a calendar app reads: REQUEST with the scheduler’s TZID, then an update (same UID, higher SEQUENCE), then CANCEL', async () => {
		const deps = await testDeps()
		const day = futureDay(1)
		const { id } = await scheduleInterview(deps, w.recruiter, w.app, {
			interviewerIds: [w.recruiter.userId!, w.manager.userId!],
			date: day,
			time: '09:30',
			minutes: '45',
			videoUrl: 'https://meet.example.test/abc-defg',
		})
		const sent = await invitations(id)
		expect(sent.map((s) => s.to).sort()).toEqual([w.candidateEmail, ...(await emails([w.recruiter, w.manager]))].sort())
		const uid = sent[0]!.uid
		expect(uid).toBe(`${id}@localhost`)
		// 09:30 in Chicago in January is 15:30 UTC.
		const start = new Date(`${day}T15:30:00Z`)
		for (const s of sent)
			expect(s).toMatchObject({
				method: 'REQUEST',
				partMethod: 'REQUEST',
				uid,
				sequence: 0,
				tzid: ZONE,
				local: `${day}T09:30:00`,
				start,
				end: new Date(start.getTime() + 45 * 60_000),
				status: 'CONFIRMED',
			})
		expect(sent.find((s) => s.to === w.candidateEmail)!.attendees).toContain(`mailto:${w.candidateEmail}`)
		const toCandidate = sent.find((s) => s.to === w.candidateEmail)!
		expect(toCandidate.text).toContain('09:30 CST')
		expect(toCandidate.text).toContain('https://meet.example.test/abc-defg')

		// Moved to 14:00 and the hiring manager replaced by the owner: the manager gets a cancellation.
		await rescheduleInterview(deps, w.recruiter, id, {
			interviewerIds: [w.recruiter.userId!, w.owner.userId!],
			date: day,
			time: '14:00',
			minutes: 60,
			videoUrl: '',
		})
		const moved = (await invitations(id)).slice(sent.length)
		const [managerEmail] = await emails([w.manager])
		expect(moved.find((s) => s.to === managerEmail)).toMatchObject({ method: 'CANCEL', uid, sequence: 1, local: `${day}T09:30:00` })
		for (const s of moved.filter((s) => s.to !== managerEmail))
			expect(s).toMatchObject({ method: 'REQUEST', uid, sequence: 1, tzid: ZONE, local: `${day}T14:00:00`, start: new Date(`${day}T20:00:00Z`) })
		expect(
			moved
				.filter((s) => s.method === 'REQUEST')
				.map((s) => s.to)
				.sort(),
		).toEqual([w.candidateEmail, ...(await emails([w.recruiter, w.owner]))].sort())

		await cancelInterview(deps, w.recruiter, id)
		const cancelled = (await invitations(id)).slice(sent.length + moved.length)
		expect(cancelled).toHaveLength(3)
		for (const s of cancelled) expect(s).toMatchObject({ method: 'CANCEL', partMethod: 'CANCEL', uid, sequence: 2, status: 'CANCELLED' })
		// Cancelling twice sends nothing more; a cancelled interview cannot be moved.
		await cancelInterview(deps, w.recruiter, id)
		expect(await invitations(id)).toHaveLength(sent.length + moved.length + cancelled.length)
		expect(
			(
				await refusal(
					rescheduleInterview(deps, w.recruiter, id, { interviewerIds: [w.recruiter.userId!], date: day, time: '10:00', minutes: 30, videoUrl: '' }),
				)
			).code,
		).toBe('CONFLICT')
	})

	test('changes at once: whoever is taken off by any of them, or by a cancellation, has a cancellation as their last invitation', async () => {
		const deps = await testDeps()
		const [recruiterEmail, managerEmail, ownerEmail] = await emails([w.recruiter, w.manager, w.owner])
		for (let round = 0; round < 6; round++) {
			const when = { date: futureDay(10 + round), time: '09:00', minutes: '30', videoUrl: '' }
			const { id } = await scheduleInterview(deps, w.recruiter, w.app, { ...when, interviewerIds: [w.recruiter.userId!] })
			const last = round % 3 === 2
			await Promise.all([
				rescheduleInterview(deps, w.recruiter, id, { ...when, interviewerIds: [w.recruiter.userId!, w.manager.userId!] }),
				last
					? cancelInterview(deps, w.owner, id)
					: rescheduleInterview(deps, w.owner, id, { ...when, time: '11:00', interviewerIds: [w.recruiter.userId!, w.owner.userId!] }),
			]).catch((error) => expect(error.code).toBe('CONFLICT'))
			const sent = await invitations(id)
			const [row] = await deps.db.select().from(scheduledInterviews).where(eq(scheduledInterviews.id, id))
			const on =
				row!.status === 'cancelled'
					? []
					: (await deps.db.select().from(scheduledInterviewers).where(eq(scheduledInterviewers.interviewId, id))).map((p) => p.userId)
			for (const [person, email] of [
				[w.recruiter, recruiterEmail],
				[w.manager, managerEmail],
				[w.owner, ownerEmail],
			] as const) {
				const theirs = sent.filter((s) => s.to === email).sort((a, b) => a.sequence - b.sequence)
				if (!theirs.length) continue
				expect({ round, email, last: theirs.at(-1)!.method }).toEqual({ round, email, last: on.includes(person.userId!) ? 'REQUEST' : 'CANCEL' })
			}
		}
	})

	test('a hiring manager’s invitation (and cancellation) does not carry the candidate’s address; the others’ do', async () => {
		const deps = await testDeps()
		const when = { date: futureDay(20), time: '09:00', minutes: '30', videoUrl: '' }
		const { id } = await scheduleInterview(deps, w.recruiter, w.app, { ...when, interviewerIds: [w.recruiter.userId!, w.manager.userId!] })
		await rescheduleInterview(deps, w.recruiter, id, { ...when, interviewerIds: [w.recruiter.userId!] })
		const [recruiterEmail, managerEmail] = await emails([w.recruiter, w.manager])
		const candidate = `mailto:${w.candidateEmail}`
		const sent = await invitations(id)
		const toManager = sent.filter((s) => s.to === managerEmail)
		expect(toManager.map((s) => s.method)).toEqual(['REQUEST', 'CANCEL'])
		for (const s of toManager) {
			expect(s.attendees).not.toContain(candidate)
			expect(s.attendees).toContain(`mailto:${managerEmail}`)
		}
		for (const s of sent.filter((s) => s.to === recruiterEmail || s.to === w.candidateEmail)) expect(s.attendees).toContain(candidate)
	})

	test('the same interview sent 20 times at once is scheduled once and its invitations sent once; another at that time names who is busy', async () => {
		const deps = await testDeps()
		const input = { interviewerIds: [w.recruiter.userId!, w.owner.userId!], date: futureDay(30), time: '09:00', minutes: '30', videoUrl: '' }
		const answers = await Promise.all(Array.from({ length: 20 }, () => scheduleInterview(deps, w.recruiter, w.app, input)))
		const ids = new Set(answers.map((a) => a.id))
		expect(ids.size).toBe(1)
		expect(answers.filter((a) => !a.repeated)).toHaveLength(1)
		const [id] = [...ids]
		expect(await invitations(id!)).toHaveLength(3)
		const rows = await deps.db.select().from(scheduledInterviews).where(eq(scheduledInterviews.applicationId, w.app))
		const at = rows.find((r) => r.id === id)!.startsAt.getTime()
		expect(rows.filter((r) => r.startsAt.getTime() === at)).toHaveLength(1)
		// Other interviewers at that time: another interview, and the recruiter (booked by the first) is named.
		const other = await scheduleInterview(deps, w.recruiter, w.app, { ...input, interviewerIds: [w.recruiter.userId!] })
		expect(other).toMatchObject({ repeated: false, busy: [w.recruiter.name] })
		expect(other.id).not.toBe(id)
	})

	test('in summer the same TZID carries daylight time: a calendar app places 09:30 CDT at 14:30 UTC', async () => {
		const deps = await testDeps()
		const day = `${new Date().getUTCFullYear() + 1}-07-15`
		const { id } = await scheduleInterview(deps, w.recruiter, w.app, {
			interviewerIds: [w.recruiter.userId!],
			date: day,
			time: '09:30',
			minutes: '30',
			videoUrl: '',
		})
		const [first] = await invitations(id)
		expect(first).toMatchObject({ method: 'REQUEST', tzid: ZONE, local: `${day}T09:30:00`, start: new Date(`${day}T14:30:00Z`) })
		expect((await invitations(id)).find((s) => s.to === w.candidateEmail)!.text).toContain('09:30 CDT')
	})

	test('refused: no interviewer, someone who cannot interview, a past or missing time, a bad length or link', async () => {
		const deps = await testDeps()
		const ok: ScheduleInput = { interviewerIds: [w.recruiter.userId!], date: futureDay(2), time: '10:00', minutes: '30', videoUrl: '' }
		const fields = async (input: ScheduleInput) => (await refusal(scheduleInterview(deps, w.recruiter, w.app, input))).fields?.map((f) => f.field)
		expect(await fields({ ...ok, interviewerIds: [] })).toEqual(['interviewers'])
		expect(await fields({ ...ok, interviewerIds: [w.outsider.userId!] })).toEqual(['interviewers'])
		expect(await fields({ ...ok, interviewerIds: [w.viewer.userId!] })).toEqual(['interviewers'])
		expect(await fields({ ...ok, date: '2020-01-01' })).toEqual(['date'])
		expect(await fields({ ...ok, date: '2027-02-30' })).toEqual(['date'])
		expect(await fields({ ...ok, minutes: '5' })).toEqual(['minutes'])
		// Whole minutes in plain decimal digits only: Number() read the first four as 60.
		for (const minutes of ['0x3C', '6e1', '60.0', '+60', '', '-60', '60 minutes', '1_0'])
			expect({ minutes, fields: await fields({ ...ok, minutes }) }).toEqual({ minutes, fields: ['minutes'] })
		expect({ fraction: await fields({ ...ok, minutes: 60.5 }) }).toEqual({ fraction: ['minutes'] })
		expect(await fields({ ...ok, videoUrl: 'javascript:alert(1)' })).toEqual(['videoUrl'])
	})

	test('a length with spaces around its digits is read as those minutes', async () => {
		const deps = await testDeps()
		const { id } = await scheduleInterview(deps, w.recruiter, w.app, {
			interviewerIds: [w.recruiter.userId!],
			date: futureDay(7),
			time: '12:00',
			minutes: ' 60 ',
			videoUrl: '',
		})
		const [row] = await deps.db.select().from(scheduledInterviews).where(eq(scheduledInterviews.id, id))
		expect(row!.durationMinutes).toBe(60)
	})

	test('to the minute: a time with seconds is refused on the time field; HH:MM:00 is that minute in the row, the e-mail and the invitation', async () => {
		const deps = await testDeps()
		const day = futureDay(9)
		const input = { interviewerIds: [w.recruiter.userId!], date: day, time: '10:00:59', minutes: '30', videoUrl: '' }
		const refused = await refusal(scheduleInterview(deps, w.recruiter, w.app, input))
		expect(refused.fields).toEqual([{ field: 'time', message: 'Enter the time in hours and minutes (HH:MM), without seconds' }])
		const { id } = await scheduleInterview(deps, w.recruiter, w.app, { ...input, time: '10:00:00' })
		// 10:00 in Chicago in January is 16:00 UTC.
		const start = new Date(`${day}T16:00:00Z`)
		const [row] = await deps.db.select().from(scheduledInterviews).where(eq(scheduledInterviews.id, id))
		expect(row!.startsAt).toEqual(start)
		const sent = await invitations(id)
		expect(sent.length).toBeGreaterThan(0)
		for (const s of sent) {
			expect({ local: s.local, start: s.start }).toEqual({ local: `${day}T10:00:00`, start })
			expect(s.text).toContain('10:00 CST')
		}
		await expect(rescheduleInterview(deps, w.recruiter, id, { ...input, time: '11:30:01' })).rejects.toMatchObject({ fields: [{ field: 'time' }] })
	})

	test('hiring managers schedule on their jobs only; viewers not at all', async () => {
		const deps = await testDeps()
		const input = { interviewerIds: [w.manager.userId!], date: futureDay(3), time: '11:00', minutes: '30', videoUrl: '' }
		const { id } = await scheduleInterview(deps, w.manager, w.app, input)
		expect(id).toStartWith('sch_')
		expect((await refusal(scheduleInterview(deps, w.outsider, w.app, input))).code).toBe('NOT_FOUND')
		expect((await refusal(cancelInterview(deps, w.outsider, id))).code).toBe('NOT_FOUND')
		expect((await refusal(scheduleInterview(deps, w.viewer, w.app, input))).code).toBe('FORBIDDEN')
	})
})

async function emails(actors: Actor[]) {
	const deps = await testDeps()
	const out: string[] = []
	for (const a of actors) out.push((await deps.db.select({ email: users.email }).from(users).where(eq(users.id, a.userId!)))[0]!.email)
	return out
}

describe('an interview that is over', () => {
	test('is not cancelled (nothing is sent) and its page offers Reschedule, not Cancel; one under way still can be', async () => {
		const deps = await testDeps()
		const app = await newApplication(
			w.ws,
			await newCandidate(w.ws, { name: 'Petra Over', email: 'petra.over@example.test' }, deps),
			await newVendorJob(w.ws, {}, deps),
			{},
			deps,
		)
		const { id } = await scheduleInterview(deps, w.recruiter, app, {
			interviewerIds: [w.recruiter.userId!],
			date: futureDay(3),
			time: '09:00',
			minutes: '30',
			videoUrl: '',
		})
		const sentBefore = (await invitations(id)).length
		try {
			// Two years on, the interview took place long ago.
			clock.advance(2 * 366 * 86_400_000)
			const refused = await refusal(cancelInterview(deps, w.recruiter, id))
			expect(refused.code).toBe('CONFLICT')
			expect(refused.message).toBe('This interview is over: there is nothing to cancel')
			expect((await invitations(id)).length).toBe(sentBefore)
			const [row] = await deps.db.select().from(scheduledInterviews).where(eq(scheduledInterviews.id, id))
			expect(row!.status).toBe('scheduled')
			const page = await (await signedIn(w.login)).get(`/applications/${app}`)
			expect(page.text).toContain(`/schedule/${id}">Reschedule</a>`)
			expect(page.text).not.toContain(`/schedule/${id}/cancel`)
		} finally {
			clock.reset()
		}
		// Under way (started 10 minutes ago, 30 minutes long): it can still be called off.
		const [row] = await deps.db.select().from(scheduledInterviews).where(eq(scheduledInterviews.id, id))
		clock.advance(row!.startsAt.getTime() + 10 * 60_000 - Date.now())
		try {
			await cancelInterview(deps, w.recruiter, id)
			expect((await invitations(id)).at(-1)!.method).toBe('CANCEL')
		} finally {
			clock.reset()
		}
	})
})

describe('calendar', () => {
	test('on each interviewer’s calendar and in get_calendar; gone once cancelled', async () => {
		const deps = await testDeps()
		const day = futureDay(4)
		const { id } = await scheduleInterview(deps, w.recruiter, w.app, {
			interviewerIds: [w.recruiter.userId!],
			date: day,
			time: '08:00',
			minutes: '60',
			videoUrl: '',
		})
		const person = await mcpClient(w.ws, w.login.email)
		const window = { from: `${day}T00:00:00Z`, to: `${day}T23:59:00Z` }
		const got = await person.tool('get_calendar', window)
		expect(got.isError).toBe(false)
		const event = got.words.events.find((e: any) => e.id === `${id}.${w.recruiter.userId}`)
		expect(event).toMatchObject({ type: 'interview', title: 'Interview', status: 'scheduled', start: `${day}T14:00:00.000Z`, end: `${day}T15:00:00.000Z` })
		expect(event.candidate.name).toBe('Ava Jackson')
		const page = await (await signedIn(w.login)).get(`/calendar?from=${day}`)
		expect(page.text).toContain('Ava Jackson')
		await cancelInterview(deps, w.recruiter, id)
		const after = await person.tool('get_calendar', window)
		expect(after.words.events.map((e: any) => e.id)).not.toContain(`${id}.${w.recruiter.userId}`)
	})
})

describe('pages', () => {
	test('Schedule interview: free/busy of the day, a refusal with the values kept, then the application page lists it', async () => {
		const deps = await testDeps()
		const day = futureDay(5)
		await deps.db
			.insert(calendarFeeds)
			.values({ workspaceId: w.ws.id, userId: w.recruiter.userId!, url: 'https://calendar.example.test/feed.ics' })
			.onConflictDoNothing()
		await deps.db.insert(calendarBusy).values({
			id: newId('busy'),
			workspaceId: w.ws.id,
			userId: w.recruiter.userId!,
			startsAt: new Date(`${day}T17:00:00Z`),
			endsAt: new Date(`${day}T18:00:00Z`),
		})
		const client = await signedIn(w.login)
		const page = await client.get(`/applications/${w.app}`)
		expect(page.text).toContain(`href="/applications/${w.app}/schedule">Schedule interview</a>`)
		const form = await client.get(`/applications/${w.app}/schedule?day=${day}`)
		expect(form.status).toBe(200)
		// 17:00–18:00 UTC is 11:00–12:00 in Chicago, the recruiter's zone.
		expect(form.text).toContain('busy 11:00–12:00')
		expect(form.text).toContain('(no calendar connected)')
		const refused = await client.post(`/applications/${w.app}/schedule`, { date: day, time: '10:00', minutes: '30', videoUrl: 'https://meet.example.test/x' })
		expect(refused.status).toBe(422)
		expect(refused.text).toContain('Choose at least one interviewer')
		expect(refused.text).toContain('value="https://meet.example.test/x"')
		const saved = await client.submit(`/applications/${w.app}/schedule`, {
			interviewers: [w.recruiter.userId!],
			date: day,
			time: '10:00',
			minutes: '30',
			videoUrl: 'https://meet.example.test/x',
		})
		expect(saved.redirectedTo).toBe(`/applications/${w.app}?done=scheduled#done`)
		expect(saved.text).toContain('The interview is scheduled')
		expect(saved.text).toContain('10:00 CST')
		expect(saved.text).toContain('Reschedule')
		// The interview just scheduled now makes the recruiter busy at 10:00 on that day.
		expect((await client.get(`/applications/${w.app}/schedule?day=${day}`)).text).toContain('busy 10:00–10:30, 11:00–12:00')
	})

	test('an interview’s end shows its date when it is another day, and its zone when the clocks changed in between', async () => {
		const deps = await testDeps()
		const app = await newApplication(w.ws, await newCandidate(w.ws, { name: 'Lee Latenight' }, deps), await newVendorJob(w.ws, {}, deps), {}, deps)
		// Chicago goes back from CDT to CST at 02:00 on the first Sunday of November: 01:30 CDT plus an hour is 01:30 CST.
		const year = new Date().getUTCFullYear() + 1
		const sunday = [1, 2, 3, 4, 5, 6, 7].map((d) => `${year}-11-0${d}`).find((d) => new Date(`${d}T12:00:00Z`).getUTCDay() === 0)!
		const at = (date: string, time: string) =>
			scheduleInterview(deps, w.recruiter, app, { interviewerIds: [w.recruiter.userId!], date, time, minutes: 60, videoUrl: '' })
		await at(sunday, '01:30')
		await at(futureDay(3), '23:30')
		const page = (await (await signedIn(w.login)).get(`/applications/${app}`)).text
		const lines = [...page.matchAll(/<li><p>(<time[^>]*>[^<]*<\/time>–(?:<time[^>]*>)?[^<]*)/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ''))
		const day = (key: string) =>
			new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date(`${key}T12:00:00Z`))
		expect(lines.sort()).toEqual([`${day(sunday)}, 01:30 CDT–01:30 CST`, `${day(futureDay(3))}, 23:30 CST–${day(futureDay(4))}, 00:30`].sort())
	})

	test('a length that is not plain whole minutes (0x3C, 6e1) is refused on the form, nothing saved, what was sent kept', async () => {
		const deps = await testDeps()
		const client = await signedIn(w.login)
		await client.get(`/applications/${w.app}/schedule`)
		const count = async () => (await deps.db.select().from(scheduledInterviews).where(eq(scheduledInterviews.applicationId, w.app))).length
		const before = await count()
		for (const minutes of ['0x3C', '6e1']) {
			const refused = await client.post(`/applications/${w.app}/schedule`, {
				interviewers: [w.recruiter.userId!],
				date: futureDay(8),
				time: '13:00',
				minutes,
				videoUrl: 'https://meet.example.test/len',
			})
			expect({ minutes, status: refused.status }).toEqual({ minutes, status: 422 })
			expect(refused.text).toContain('Enter the length as a whole number of minutes, like 60')
			expect(refused.text).toContain(`<option value="${minutes}" selected>${minutes}</option>`)
			expect(refused.text).toContain(`value="${futureDay(8)}"`)
			expect(refused.text).toContain('value="https://meet.example.test/len"')
		}
		expect(await count()).toBe(before)
	})

	test('a time with seconds is refused on the form, on its time field, with the values kept', async () => {
		const client = await signedIn(w.login)
		await client.get(`/applications/${w.app}/schedule`)
		const refused = await client.post(`/applications/${w.app}/schedule`, {
			interviewers: [w.recruiter.userId!],
			date: futureDay(10),
			time: '10:00:59',
			minutes: '30',
			videoUrl: '',
		})
		expect(refused.status).toBe(422)
		expect(refused.text).toContain('Enter the time in hours and minutes (HH:MM), without seconds')
		expect(refused.text).toMatch(/id="time"[^>]*value="10:00:59"|value="10:00:59"[^>]*id="time"/)
	})

	test('a day that is not a date (the 32nd, month 13 or 00) is a refusal with the values kept, never a failed page', async () => {
		const client = await signedIn(w.login)
		for (const bad of ['2026-12-32', '2026-13-45', '2026-00-10', '2026-02-30']) {
			expect({ bad, status: (await client.get(`/applications/${w.app}/schedule?day=${bad}`)).status }).toEqual({ bad, status: 200 })
			await client.get(`/applications/${w.app}/schedule`)
			const refused = await client.post(`/applications/${w.app}/schedule`, {
				interviewers: [w.recruiter.userId!],
				date: bad,
				time: '10:00',
				minutes: '30',
				videoUrl: 'https://meet.example.test/kept',
			})
			expect({ bad, status: refused.status }).toEqual({ bad, status: 422 })
			expect(refused.text).toContain('Enter the date and time of the interview')
			expect(refused.text).toContain(`value="${bad}"`)
			expect(refused.text).toContain('value="https://meet.example.test/kept"')
		}
	})
})
