/**
 * The calendar: get_calendar through the official MCP client for every role and scope (window
 * rules, types, paging across sources at equal times), and external busy times read from an
 * iCalendar feed served by the test (recurrence with exceptions, time zones, free and cancelled
 * events, all-day events; never a title), refreshed by the sweep (several feeds at once, so hung
 * feed servers do not hold up healthy ones), with the settings page.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq, inArray } from 'drizzle-orm'
import { createServer, type Socket } from 'node:net'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { clock, newPerson, newWorkspace, testApp, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { signedIn } from '../../tests/portal.ts'
import { waitFor } from '../../tests/reliability/processes.ts'
import { allPages, closeClients, everyRole, onTeam, type McpPerson, type TestRole } from '../../tests/sdk.ts'
import { newApplication, newCandidate, newVendorJob } from '../../tests/staffing-fixtures.ts'
import { changeRole, personActor, removePerson } from '../auth/index.ts'
import { users } from '../auth/table.ts'
import { inviteToInterview } from '../interviews/index.ts'
import { scheduleInterview } from '../scheduling/index.ts'
import { todos } from '../todos/table.ts'
import { FEEDS_AT_ONCE } from './feeds.ts'
import { UNREACHABLE } from './fetch.ts'
import { refreshDueFeeds, setFeed } from './index.ts'
import { calendarBusy, calendarFeeds } from './table.ts'

setDefaultTimeout(30_000)
const DAY = 86_400_000
const HOUR = 3_600_000

let w: { ws: TestWorkspace; people: Record<TestRole, McpPerson>; teamJob: string; otherJob: string }
/** A fixed instant a few days ahead, on the hour, where the test puts events. */
const T = new Date(Math.floor(Date.now() / DAY) * DAY + 4 * DAY + 15 * HOUR)

async function todo(assignee: McpPerson, title: string, dueAt: Date, o: { jobId?: string; candidateId?: string } = {}) {
	const deps = await testDeps()
	const id = newId('todo')
	await deps.db.insert(todos).values({
		id,
		workspaceId: w.ws.id,
		assigneeUserId: assignee.userId,
		createdByUserId: assignee.userId,
		title,
		dueAt,
		jobId: o.jobId ?? null,
		candidateId: o.candidateId ?? null,
	})
	return id
}

async function busy(person: McpPerson, start: Date, hours = 1) {
	const deps = await testDeps()
	const id = newId('busy')
	await deps.db
		.insert(calendarBusy)
		.values({ id, workspaceId: w.ws.id, userId: person.userId, startsAt: start, endsAt: new Date(start.getTime() + hours * HOUR) })
	return id
}

beforeAll(async () => {
	await testApp()
	const { ws, people } = await everyRole()
	const teamJob = await newVendorJob(ws, { title: 'Site Reliability Engineer' })
	const otherJob = await newVendorJob(ws, { title: 'Data Scientist' })
	await onTeam(teamJob, people.recruiter.userId, people.hiring_manager.userId)
	w = { ws, people, teamJob, otherJob }
	const deps = await testDeps()
	const recruiter = await personActor(deps, ws.slug, people.recruiter.email)
	const admin = await personActor(deps, ws.slug, people.admin.email)
	const c1 = await newCandidate(ws, { name: 'Kim Lee' })
	const c2 = await newCandidate(ws, { name: 'Lou Park' })
	await inviteToInterview(deps, recruiter, {
		applicationId: await newApplication(ws, c1, teamJob),
		scheduledAt: T,
		deadlineAt: new Date(T.getTime() + 2 * DAY),
	})
	await inviteToInterview(deps, admin, { applicationId: await newApplication(ws, c2, otherJob), scheduledAt: T, deadlineAt: new Date(T.getTime() + 2 * DAY) })
	await todo(people.recruiter, 'Call Kim about the rate', T, { jobId: teamJob, candidateId: c1 })
	await todo(people.admin, 'Chase Lou’s references', T, { jobId: otherJob, candidateId: c2 })
	await todo(people.hiring_manager, 'Prepare the panel', new Date(T.getTime() + HOUR))
	await busy(people.recruiter, T)
	await busy(people.admin, new Date(T.getTime() - 30 * 60_000))
	await busy(people.owner, new Date(T.getTime() + 2 * DAY))
}, 120_000)
/**
 * The database may be shared (PostgreSQL): feeds left behind would fall due in 15 minutes and be read
 * by any later sweep, so the test's feeds (and busy times) go with it; its sweeps read only its own
 * workspace, so feeds of tests running meanwhile neither count nor get read here.
 */
async function removeFeeds(ws: TestWorkspace) {
	const deps = await testDeps()
	await deps.db.delete(calendarBusy).where(eq(calendarBusy.workspaceId, ws.id))
	await deps.db.delete(calendarFeeds).where(eq(calendarFeeds.workspaceId, ws.id))
}
const sweep = (deps: AppDeps, ws: TestWorkspace) => refreshDueFeeds(deps, 20, ws.id)

afterAll(async () => {
	if (w) await removeFeeds(w.ws)
	await closeClients()
})

const window = { from: new Date(T.getTime() - DAY).toISOString(), to: new Date(T.getTime() + DAY).toISOString() }

describe('get_calendar', () => {
	test('mine: my interviews, follow-ups and busy times, in start order', async () => {
		const got = await w.people.recruiter.tool('get_calendar', window)
		expect(got.isError).toBe(false)
		expect(got.words).toMatchObject({ scope: 'mine', types: ['interview', 'followup', 'external'], from: window.from, to: window.to, nextCursor: null })
		const events = got.words.events
		expect(events.map((e: any) => [e.type, e.start])).toEqual([
			['external', T.toISOString()],
			['followup', T.toISOString()],
			['interview', T.toISOString()],
		])
		expect(events.find((e: any) => e.type === 'interview')).toMatchObject({
			title: 'AI video interview',
			status: 'invited',
			candidate: { name: 'Kim Lee' },
			job: { title: 'Site Reliability Engineer' },
		})
		expect(events.find((e: any) => e.type === 'followup')).toMatchObject({
			title: 'Call Kim about the rate',
			status: 'open',
			end: new Date(T.getTime() + 30 * 60_000).toISOString(),
		})
		expect(events.find((e: any) => e.type === 'external')).toMatchObject({ title: 'Busy', status: 'busy', candidate: null, job: null })
		expect((await w.people.recruiter.tool('get_calendar', { ...window, types: ['followup'] })).words.events.map((e: any) => e.type)).toEqual(['followup'])
	})

	test('team and workspace scopes; hiring managers see only their jobs’ interviews and follow-ups; viewers have no calendar', async () => {
		const team = await w.people.hiring_manager.tool('get_calendar', { ...window, scope: 'team' })
		const people = new Set(team.words.events.map((e: any) => e.person.userId))
		expect(people).toEqual(new Set([w.people.recruiter.userId, w.people.hiring_manager.userId]))
		const ws = await w.people.hiring_manager.tool('get_calendar', { ...window, scope: 'workspace' })
		const types = (who: McpPerson) =>
			ws.words.events
				.filter((e: any) => e.person.userId === who.userId)
				.map((e: any) => e.type)
				.sort()
		expect(types(w.people.admin)).toEqual(['external'])
		expect(types(w.people.recruiter)).toEqual(['external', 'followup', 'interview'])
		const owner = await allPages(w.people.owner, 'get_calendar', { ...window, scope: 'workspace' }, 'events')
		expect(owner.rows.filter((e) => e.type === 'interview')).toHaveLength(2)
		expect(owner.rows.filter((e) => e.type === 'followup')).toHaveLength(3)
		expect(await w.people.viewer.toolNames()).not.toContain('get_calendar')
	})

	test('paging walks every source in (start, type, id) order without repeats, also at equal times', async () => {
		const all = (await w.people.owner.tool('get_calendar', { ...window, scope: 'workspace', limit: 100 })).words.events
		const paged = await allPages(w.people.owner, 'get_calendar', { ...window, scope: 'workspace', limit: 1 }, 'events')
		expect(paged.pages).toBe(all.length)
		expect(paged.rows.map((e) => `${e.type}:${e.id}`)).toEqual(all.map((e: any) => `${e.type}:${e.id}`))
		const key = (e: any) => [e.start, e.type, e.id]
		for (let i = 1; i < all.length; i++) expect(key(all[i - 1]) <= key(all[i])).toBe(true)
		const first = await w.people.owner.tool('get_calendar', { ...window, scope: 'workspace', limit: 1 })
		expect((await w.people.owner.tool('get_calendar', { ...window, scope: 'mine', limit: 1, cursor: first.words.nextCursor })).isError).toBe(true)
		expect((await w.people.admin.tool('get_calendar', { ...window, scope: 'workspace', limit: 1, cursor: first.words.nextCursor })).isError).toBe(true)
	})

	test('paging with limit 1 reaches the end through an entry of every source, scheduled interviews of two interviewers too, at the far end of the years (the longest cursor)', async () => {
		const deps = await testDeps()
		const at = new Date('9998-06-01T10:00:00Z')
		const recruiter = await personActor(deps, w.ws.slug, w.people.recruiter.email)
		const application = await newApplication(w.ws, await newCandidate(w.ws, { name: 'Noa Reyes' }), w.teamJob)
		await scheduleInterview(deps, recruiter, application, {
			interviewerIds: [w.people.recruiter.userId, w.people.hiring_manager.userId],
			date: '9998-06-01',
			time: '10:00',
			minutes: '60',
			videoUrl: '',
		})
		await inviteToInterview(deps, recruiter, { applicationId: application, scheduledAt: at, deadlineAt: new Date(at.getTime() + DAY) })
		const followup = await todo(w.people.recruiter, 'Debrief the panel', at)
		const busyId = await busy(w.people.hiring_manager, at)
		try {
			const far = { from: '9998-05-31', to: '9998-06-02', scope: 'workspace' }
			const all = (await w.people.owner.tool('get_calendar', { ...far, limit: 100 })).words.events
			expect(all.map((e: any) => e.type).sort()).toEqual(['external', 'followup', 'interview', 'interview', 'interview'])
			const paged = await allPages(w.people.owner, 'get_calendar', { ...far, limit: 1 }, 'events')
			expect(paged.rows.map((e) => `${e.type}:${e.id}`)).toEqual(all.map((e: any) => `${e.type}:${e.id}`))
		} finally {
			await deps.db.delete(todos).where(eq(todos.id, followup))
			await deps.db.delete(calendarBusy).where(eq(calendarBusy.id, busyId))
		}
	})

	test('a cursor continues the list it came from when from or to is left to its default, while "now" moves', async () => {
		const to = new Date(T.getTime() + 3 * DAY).toISOString()
		try {
			for (const args of [{ scope: 'workspace' }, { scope: 'workspace', to }]) {
				const all = (await w.people.owner.tool('get_calendar', { ...args, limit: 100 })).data
				expect(all.events.length).toBeGreaterThan(3)
				const pages: any[] = []
				let cursor: string | undefined
				do {
					// Each call comes a minute after the one before, as an assistant's do.
					clock.advance(60_000)
					const page = await w.people.owner.tool('get_calendar', { ...args, limit: 1, ...(cursor ? { cursor } : {}) })
					expect(page.isError).toBe(false)
					pages.push(page.data)
					cursor = page.data.nextCursor ?? undefined
					if (cursor) expect(cursor.length).toBeLessThanOrEqual(64)
				} while (cursor)
				// Every page reports the window of the first; together they are the whole list.
				expect(new Set(pages.map((p) => `${p.from}/${p.to}`)).size).toBe(1)
				expect(pages.flatMap((p) => p.events.map((e: any) => `${e.type}:${e.id}`))).toEqual(all.events.map((e: any) => `${e.type}:${e.id}`))
			}
			// The cursor belongs to the arguments as given: with from or to now named, it is refused.
			const first = await w.people.owner.tool('get_calendar', { scope: 'workspace', limit: 1 })
			for (const other of [{ from: first.data.from }, { to: first.data.to }, { to }])
				expect((await w.people.owner.tool('get_calendar', { scope: 'workspace', limit: 1, ...other, cursor: first.data.nextCursor })).text).toContain(
					'cursor is not valid',
				)
			const bounded = await w.people.owner.tool('get_calendar', { scope: 'workspace', limit: 1, to })
			expect((await w.people.owner.tool('get_calendar', { scope: 'workspace', limit: 1, cursor: bounded.data.nextCursor })).text).toContain(
				'cursor is not valid',
			)
			// Altered by one character, it is refused too.
			const c = first.data.nextCursor as string
			const altered = c.slice(0, 2) + (c[2] === 'a' ? 'b' : 'a') + c.slice(3)
			expect((await w.people.owner.tool('get_calendar', { scope: 'workspace', limit: 1, cursor: altered })).text).toContain('cursor is not valid')
		} finally {
			clock.reset()
		}
	})

	test('the calendar page pages a crowded week through its "the next ones" link', async () => {
		const week = Date.UTC(2031, 2, 3)
		const deps = await testDeps()
		const ids = Array.from({ length: 101 }, () => newId('busy'))
		await deps.db.insert(calendarBusy).values(
			ids.map((id, i) => ({
				id,
				workspaceId: w.ws.id,
				userId: w.people.admin.userId,
				startsAt: new Date(week + i * HOUR),
				endsAt: new Date(week + i * HOUR + 30 * 60_000),
			})),
		)
		try {
			const page = await signedIn(w.people.admin)
			const first = await page.get('/calendar?from=2031-03-03&scope=mine')
			expect(first.status).toBe(200)
			const next = /href="(\/calendar\?[^"]*cursor=[^"]+)"/.exec(first.text)?.[1]?.replaceAll('&amp;', '&')
			expect(next).toBeDefined()
			const second = await page.get(next!)
			expect(second.status).toBe(200)
			const entries = (text: string) => text.match(/class="when"/g)?.length ?? 0
			expect([entries(first.text), entries(second.text)]).toEqual([100, 1])
			expect(second.text).not.toContain('the next ones')
		} finally {
			await deps.db.delete(calendarBusy).where(inArray(calendarBusy.id, ids))
		}
	})

	test('the calendar page: a week whose neighbours leave the supported years (1000–9998) is refused with 422, not a failed page', async () => {
		const page = await signedIn(w.people.admin)
		for (const from of ['9998-12-31', '9998-12-25', '1000-01-01', '1000-01-07', '2026-12-32', '9999-01-01'])
			expect({ from, status: (await page.get(`/calendar?from=${from}`)).status }).toEqual({ from, status: 422 })
		for (const from of ['9998-12-24', '1000-01-08', '2028-02-29'])
			expect({ from, status: (await page.get(`/calendar?from=${from}`)).status }).toEqual({ from, status: 200 })
	})

	test('the window: defaults, dates, offsets and the rules', async () => {
		const before = Date.now()
		const d = (await w.people.owner.tool('get_calendar', {})).words
		expect(new Date(d.from).getTime()).toBeGreaterThanOrEqual(before - 1000)
		expect(new Date(d.to).getTime() - new Date(d.from).getTime()).toBe(14 * DAY)
		const dates = (await w.people.owner.tool('get_calendar', { from: '2026-03-02', to: '2026-03-02' })).words
		expect([dates.from, dates.to]).toEqual(['2026-03-02T00:00:00.000Z', '2026-03-03T00:00:00.000Z'])
		expect((await w.people.owner.tool('get_calendar', { from: '2026-03-02T09:00:00-05:00' })).words.to).toBe('2026-03-16T14:00:00.000Z')
		const backwards = await w.people.owner.tool('get_calendar', { from: '2026-03-10', to: '2026-03-09T12:00:00Z' })
		expect(backwards.isError).toBe(true)
		expect(backwards.text).toContain('to')
		for (const bad of [
			{ from: 'tomorrow' },
			{ from: '2026-02-30' },
			{ to: '2026-03-01T25:00:00Z' },
			{ from: 'x'.repeat(41) },
			{ types: ['interview', 'followup', 'external', 'interview'] },
			{ types: ['meeting'] },
			{ scope: 'everyone' },
			{ from: '2026-01-01', to: '2027-06-01' },
		])
			expect((await w.people.owner.tool('get_calendar', bad)).isError).toBe(true)
		// At the end of year 9999 the window's end is year 10000: refused as input, never an internal error.
		// The years are those of the instant, its offset applied: 00:00 at +23:59 on 1000-01-01 is 999-12-31 in UTC, 23:00 at -05:00 on 9998-12-31 is 9999-01-01.
		const edges = [
			{ from: '1000-01-01T00:00+23:59', to: '1000-01-02' },
			{ from: '1000-01-01T00:00:00+01:00', to: '1000-01-02' },
			{ from: '9998-12-31T23:00-05:00' },
			{ from: '9998-12-20', to: '9998-12-31T19:00:00-05:00' },
		]
		for (const bad of [{ from: '9999-12-31' }, { from: '9999-12-31', to: '9999-12-31' }, { to: '9999-12-31T23:00:00Z' }, { from: '0099-01-01' }, ...edges]) {
			const refused = await w.people.owner.tool('get_calendar', bad)
			expect([bad, refused.isError, refused.text]).toEqual([bad, true, expect.stringContaining('must be a date between the years 1000 and 9998')])
		}
		// The first and last minutes of the years, however written, are in.
		const first = (await w.people.owner.tool('get_calendar', { from: '1000-01-01T23:59+23:59', to: '1000-01-02' })).words
		expect([first.from, first.to]).toEqual(['1000-01-01T00:00:00.000Z', '1000-01-03T00:00:00.000Z'])
		const last = (await w.people.owner.tool('get_calendar', { from: '9998-12-20', to: '9998-12-31T18:59-05:00' })).words
		expect(last.to).toBe('9998-12-31T23:59:00.000Z')
	})
})

/** A recruiter whose time zone is Chicago, and an application of a candidate so named on the team's job. */
async function chicagoRecruiterWith(candidateName: string) {
	const deps = await testDeps()
	const person = await newPerson(w.ws, 'recruiter', {}, deps)
	await deps.db.update(users).set({ timeZone: 'America/Chicago' }).where(eq(users.id, person.userId))
	const recruiter = await personActor(deps, w.ws.slug, person.email)
	const app = await newApplication(w.ws, await newCandidate(w.ws, { name: candidateName }), w.teamJob)
	return { deps, person, recruiter, app }
}

describe('the calendar page', () => {
	test('an interview from 23:30 to 00:30 in the reader’s zone is on both days, its times with the date where it is another day', async () => {
		// A recruiter in Chicago (CST in early March 2031, before the clocks change on the 9th) schedules it for themselves.
		const { deps, person, recruiter, app } = await chicagoRecruiterWith('Noa Vance')
		await scheduleInterview(deps, recruiter, app, { interviewerIds: [person.userId], date: '2031-03-05', time: '23:30', minutes: 60, videoUrl: '' })
		const page = await (await signedIn(person)).get('/calendar?from=2031-03-03')
		expect(page.status).toBe(200)
		const day = (key: string) => new RegExp(`aria-labelledby="day-${key}">([\\s\\S]*?)</section>`).exec(page.text)?.[1] ?? ''
		const times = (key: string) => [...day(key).matchAll(/<time datetime="([^"]+)">([^<]+)<\/time>/g)].map((m) => [m[1], m[2]])
		for (const key of ['2031-03-05', '2031-03-06']) expect(day(key)).toContain('Noa Vance')
		const start = '2031-03-06T05:30:00.000Z'
		const end = '2031-03-06T06:30:00.000Z'
		expect(times('2031-03-05')).toEqual([
			[start, '23:30'],
			[end, 'Mar 6, 2031, 00:30'],
		])
		expect(times('2031-03-06')).toEqual([
			[start, 'Mar 5, 2031, 23:30'],
			[end, '00:30'],
		])
		expect(day('2031-03-07')).toContain('Nothing planned.')
		expect(day('2031-03-04')).toContain('Nothing planned.')
	})

	test('an interview over the hour the clocks go back names each time’s zone: 01:30 CDT–01:30 CST is an hour', async () => {
		const { deps, person, recruiter, app } = await chicagoRecruiterWith('Ola Fallback')
		// Chicago goes back from CDT to CST at 02:00 on 2 November 2031; an ordinary night the week after.
		await scheduleInterview(deps, recruiter, app, { interviewerIds: [person.userId], date: '2031-11-02', time: '01:30', minutes: 60, videoUrl: '' })
		await scheduleInterview(deps, recruiter, app, { interviewerIds: [person.userId], date: '2031-11-04', time: '01:30', minutes: 60, videoUrl: '' })
		const page = (await (await signedIn(person)).get('/calendar?from=2031-11-02')).text
		const when = (key: string) =>
			new RegExp(`aria-labelledby="day-${key}">[\\s\\S]*?<span class="when">([\\s\\S]*?)</span>`).exec(page)?.[1]?.replace(/<[^>]+>/g, '')
		expect([when('2031-11-02'), when('2031-11-04')]).toEqual(['01:30 CDT–01:30 CST', '01:30–02:30 CST'])
	})
})

/** An iCalendar feed served by the test; `ics` can be changed between reads. */
function feedServer() {
	const state = { ics: '', hits: 0, status: 200 }
	const server = Bun.serve({
		port: 0,
		hostname: '127.0.0.1',
		fetch(req) {
			state.hits++
			if (new URL(req.url).pathname === '/moved.ics') return new Response(null, { status: 302, headers: { location: '/feed.ics' } })
			return new Response(state.status === 200 ? state.ics : 'nope', { status: state.status, headers: { 'content-type': 'text/calendar' } })
		},
	})
	return { state, url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) }
}

/** A feed server that accepts connections and never answers; it notes what each connection sent and whether it closed. */
async function silentServer() {
	const connections: { received: string; closed: boolean }[] = []
	const sockets = new Set<Socket>()
	const server = createServer((socket) => {
		const c = { received: '', closed: false }
		connections.push(c)
		sockets.add(socket)
		socket.on('data', (d) => (c.received += d.toString()))
		socket.on('close', () => {
			c.closed = true
			sockets.delete(socket)
		})
		socket.on('error', () => {})
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const port = (server.address() as { port: number }).port
	return {
		url: `http://127.0.0.1:${port}/feed.ics`,
		connections,
		close() {
			for (const s of sockets) s.destroy()
			server.close()
		},
	}
}

const stamp = (d: Date) =>
	d
		.toISOString()
		.replace(/[-:]/g, '')
		.replace(/\.\d{3}/, '')
const local = (d: Date) => stamp(d).replace('Z', '')
const ymd = (d: Date) => d.toISOString().slice(0, 10).replace(/-/g, '')

function sampleFeed(base: Date): string {
	const at = (days: number, hours: number) => new Date(base.getTime() + days * DAY + hours * HOUR)
	return [
		'BEGIN:VCALENDAR',
		'VERSION:2.0',
		'PRODID:-//Benchline test//EN',
		'BEGIN:VTIMEZONE',
		'TZID:Test/Minus5',
		'BEGIN:STANDARD',
		'DTSTART:19700101T000000',
		'TZOFFSETFROM:-0500',
		'TZOFFSETTO:-0500',
		'END:STANDARD',
		'END:VTIMEZONE',
		// Daily stand-up at 09:00 in a UTC-5 zone, three times, the second moved to 11:00, the third cancelled by EXDATE.
		'BEGIN:VEVENT',
		'UID:standup@test',
		`DTSTART;TZID=Test/Minus5:${local(at(0, 9))}`,
		`DTEND;TZID=Test/Minus5:${local(at(0, 9.5))}`,
		'RRULE:FREQ=DAILY;COUNT=3',
		`EXDATE;TZID=Test/Minus5:${local(at(2, 9))}`,
		'SUMMARY:Secret stand-up about the Zebracorn merger',
		'END:VEVENT',
		'BEGIN:VEVENT',
		'UID:standup@test',
		`RECURRENCE-ID;TZID=Test/Minus5:${local(at(1, 9))}`,
		`DTSTART;TZID=Test/Minus5:${local(at(1, 11))}`,
		`DTEND;TZID=Test/Minus5:${local(at(1, 11.5))}`,
		'SUMMARY:Moved stand-up',
		'END:VEVENT',
		// Free time is not busy; cancelled events neither.
		'BEGIN:VEVENT',
		'UID:focus@test',
		`DTSTART:${stamp(at(0, 20))}`,
		`DTEND:${stamp(at(0, 21))}`,
		'TRANSP:TRANSPARENT',
		'SUMMARY:Focus time',
		'END:VEVENT',
		'BEGIN:VEVENT',
		'UID:cancelled@test',
		`DTSTART:${stamp(at(0, 22))}`,
		`DTEND:${stamp(at(0, 23))}`,
		'STATUS:CANCELLED',
		'END:VEVENT',
		// An IANA zone the feed does not define (as Google writes them): 10:00 New York in winter is 15:00 UTC.
		'BEGIN:VEVENT',
		'UID:client@test',
		'DTSTART;TZID=America/New_York:20270115T100000',
		'DTEND;TZID=America/New_York:20270115T110000',
		'SUMMARY:Client call',
		'END:VEVENT',
		// A whole day out.
		'BEGIN:VEVENT',
		'UID:pto@test',
		`DTSTART;VALUE=DATE:${ymd(at(3, 0))}`,
		`DTEND;VALUE=DATE:${ymd(at(4, 0))}`,
		'SUMMARY:Vacation',
		'END:VEVENT',
		'END:VCALENDAR',
		'',
	].join('\r\n')
}

describe('external calendars from iCalendar feeds', () => {
	test('a feed served by the test: busy times only, recurrence and zones resolved, refreshed by the sweep', async () => {
		const server = feedServer()
		try {
			const base = new Date(Math.floor(Date.now() / DAY) * DAY + 2 * DAY)
			server.state.ics = sampleFeed(base)
			const deps = await testDeps({ CALENDAR_FEEDS_ALLOW_PRIVATE: 'on' })
			const admin = await personActor(deps, w.ws.slug, w.people.admin.email)
			const feed = await setFeed(deps, admin, `webcal://127.0.0.1:${new URL(server.url).port}/feed.ics`.replace('webcal://', 'http://'))
			expect(feed).toMatchObject({ status: 'ok', lastError: null })
			const at = (days: number, hours: number) => new Date(base.getTime() + days * DAY + hours * HOUR).toISOString()
			const got = await w.people.admin.tool('get_calendar', { from: base.toISOString(), to: '2027-02-01', types: ['external'] })
			const blocks = got.words.events.map((e: any) => [e.start, e.end, e.allDay])
			expect(blocks).toEqual(
				[
					[at(0, 14), at(0, 14.5), false],
					[at(1, 16), at(1, 16.5), false],
					[at(3, 0), at(4, 0), true],
					['2027-01-15T15:00:00.000Z', '2027-01-15T16:00:00.000Z', false],
				].filter(([start]) => new Date(start as string).getTime() < Date.now() + 120 * DAY),
			)
			expect(got.text).not.toContain('Zebracorn')
			expect(got.words.events.every((e: any) => e.title === 'Busy')).toBe(true)
			const stored = await deps.db.select().from(calendarBusy).where(eq(calendarBusy.userId, w.people.admin.userId))
			expect(JSON.stringify(stored)).not.toContain('stand-up')

			// The sweep reads it again when due, replacing what it knew; not before.
			server.state.ics = sampleFeed(new Date(base.getTime() + DAY))
			const hits = server.state.hits
			expect(await sweep(deps, w.ws)).toBe(0)
			await deps.db
				.update(calendarFeeds)
				.set({ nextRefreshAt: new Date(Date.now() - 1000) })
				.where(eq(calendarFeeds.userId, w.people.admin.userId))
			const runs = await Promise.all([sweep(deps, w.ws), sweep(deps, w.ws)])
			expect(runs.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1)
			expect(server.state.hits - hits).toBe(runs.reduce((a, b) => a + b, 0))
			const [row] = await deps.db
				.select()
				.from(calendarFeeds)
				.where(and(eq(calendarFeeds.workspaceId, w.ws.id), eq(calendarFeeds.userId, w.people.admin.userId)))
			expect(row!.nextRefreshAt.getTime()).toBeGreaterThan(Date.now() + 10 * 60_000)
			const again = await w.people.admin.tool('get_calendar', {
				from: base.toISOString(),
				to: new Date(base.getTime() + 10 * DAY).toISOString(),
				types: ['external'],
			})
			expect(again.words.events[0].start).toBe(new Date(base.getTime() + DAY + 14 * HOUR).toISOString())

			// A failing feed keeps the busy times it had and says why.
			server.state.status = 404
			await deps.db
				.update(calendarFeeds)
				.set({ nextRefreshAt: new Date(Date.now() - 1000) })
				.where(eq(calendarFeeds.userId, w.people.admin.userId))
			await sweep(deps, w.ws)
			const [failed] = await deps.db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, w.people.admin.userId))
			expect(failed).toMatchObject({ status: 'error', lastError: expect.stringContaining('404') })
			expect((await deps.db.select().from(calendarBusy).where(eq(calendarBusy.userId, w.people.admin.userId))).length).toBe(stored.length)
		} finally {
			server.stop()
		}
	})

	test('the sweep reads several feeds at once: a healthy feed due after hung ones is stored while they still hang; each hung one gives up at its own timeout', async () => {
		// One reader fewer than the sweep has, so a reader is left for the healthy feed.
		const hung = await Promise.all(Array.from({ length: FEEDS_AT_ONCE - 1 }, silentServer))
		const healthy = feedServer()
		const [ws, elsewhere] = [await newWorkspace(), await newWorkspace()]
		let pass: Promise<number> | undefined
		try {
			healthy.state.ics = sampleFeed(new Date(Math.floor(Date.now() / DAY) * DAY + DAY))
			const deps = await testDeps({ CALENDAR_FEEDS_ALLOW_PRIVATE: 'on', CALENDAR_FEED_TIMEOUT: '5' })
			const hungPeople = await Promise.all(hung.map(() => newPerson(ws, 'recruiter')))
			const healthyPerson = await newPerson(ws, 'recruiter')
			// Due one after another, the healthy feed last: the order the sweep reads them in.
			const due = (i: number) => new Date(Date.now() - 60_000 + i * 1000)
			await deps.db
				.insert(calendarFeeds)
				.values([
					...hung.map((h, i) => ({ workspaceId: ws.id, userId: hungPeople[i]!.userId, url: h.url, nextRefreshAt: due(i) })),
					{ workspaceId: ws.id, userId: healthyPerson.userId, url: `${healthy.url}/feed.ics`, nextRefreshAt: due(hung.length) },
				])
			// Due first, but in another workspace: the test's sweep leaves it alone.
			const stranger = await newPerson(elsewhere, 'recruiter')
			await deps.db.insert(calendarFeeds).values({ workspaceId: elsewhere.id, userId: stranger.userId, url: `${healthy.url}/feed.ics`, nextRefreshAt: due(-1) })
			const feedOf = async (userId: string) =>
				(
					await deps.db
						.select()
						.from(calendarFeeds)
						.where(and(eq(calendarFeeds.workspaceId, ws.id), eq(calendarFeeds.userId, userId)))
				)[0]!

			pass = sweep(deps, ws)
			// The deadline is only a safety limit: read one after another, the healthy feed is stored after every hung one gave up.
			await waitFor('the healthy feed to be stored', async () => (await feedOf(healthyPerson.userId)).status === 'ok', 25_000, 20)
			expect(hung.map((h) => h.connections.filter((c) => c.closed).length)).toEqual(hung.map(() => 0))
			const stored = await deps.db
				.select()
				.from(calendarBusy)
				.where(and(eq(calendarBusy.workspaceId, ws.id), eq(calendarBusy.userId, healthyPerson.userId)))
			expect(stored.length).toBeGreaterThan(0)
			expect((await feedOf(healthyPerson.userId)).busyCount).toBe(stored.length)

			expect(await pass).toBe(hung.length + 1)
			for (const h of hung) {
				expect(h.connections).toHaveLength(1)
				expect(h.connections[0]!.received).toContain('GET /feed.ics')
			}
			await waitFor('the hung connections to be closed by the reader', () => hung.every((h) => h.connections[0]!.closed), 5_000, 20)
			const rows = await deps.db
				.select()
				.from(calendarFeeds)
				.where(
					inArray(
						calendarFeeds.userId,
						hungPeople.map((p) => p.userId),
					),
				)
			expect(rows.map((r) => [r.status, r.lastError])).toEqual(hung.map(() => ['error', 'The calendar server did not answer within 5 seconds']))
			expect(healthy.state.hits).toBe(1)
			expect((await deps.db.select().from(calendarFeeds).where(eq(calendarFeeds.workspaceId, elsewhere.id)))[0]).toMatchObject({
				status: 'pending',
				lastFetchedAt: null,
			})
		} finally {
			await pass?.catch(() => {})
			await removeFeeds(ws)
			await removeFeeds(elsewhere)
			healthy.stop()
			for (const h of hung) h.close()
		}
	})

	test('refused: private addresses (unless allowed), pages that are not iCalendar, addresses that are not web addresses', async () => {
		const server = feedServer()
		try {
			server.state.ics = '<html>not a calendar</html>'
			const strict = await testDeps()
			const owner = await personActor(strict, w.ws.slug, w.people.owner.email)
			const privateFeed = await setFeed(strict, owner, `${server.url}/feed.ics`)
			expect(privateFeed).toMatchObject({ status: 'error', lastError: UNREACHABLE })
			expect(server.state.hits).toBe(0)
			const open = await testDeps({ CALENDAR_FEEDS_ALLOW_PRIVATE: 'on' })
			const html = await setFeed(open, owner, `${server.url}/moved.ics`)
			expect(html).toMatchObject({ status: 'error', lastError: expect.stringContaining('iCalendar') })
			await expect(setFeed(open, owner, 'ftp://example.com/cal.ics')).rejects.toMatchObject({ code: 'VALIDATION' })
			await expect(setFeed(open, owner, 'https://user:pw@example.com/cal.ics')).rejects.toMatchObject({ code: 'VALIDATION' })
		} finally {
			server.stop()
		}
	})

	test('the settings page sets, reads and removes the feed', async () => {
		const server = feedServer()
		try {
			server.state.ics = sampleFeed(new Date(Math.floor(Date.now() / DAY) * DAY + DAY))
			const page = await signedIn(w.people.recruiter, { overrides: { CALENDAR_FEEDS_ALLOW_PRIVATE: 'on' } })
			expect((await page.get('/settings/calendar')).text).toContain('No calendar feed yet')
			const saved = await page.submit('/settings/calendar', { url: `${server.url}/feed.ics` })
			expect(saved.status).toBe(200)
			expect(saved.text).toMatch(/Your calendar was read: \d+ busy times/)
			expect(saved.text).not.toContain('/feed.ics"')
			const bad = await page.post('/settings/calendar', { url: 'not a url' })
			expect(bad.status).toBe(422)
			const removed = await page.submit('/settings/calendar/remove')
			expect(removed.text).toContain('removed')
			const deps = await testDeps()
			expect(
				await deps.db
					.select()
					.from(calendarBusy)
					.where(and(eq(calendarBusy.workspaceId, w.ws.id), eq(calendarBusy.userId, w.people.recruiter.userId))),
			).toHaveLength(0)
		} finally {
			server.stop()
		}
	})

	test('a person who leaves the workspace, or whose new role has no calendar, keeps no feed: it is no longer read, and their busy times are gone', async () => {
		const server = feedServer()
		try {
			server.state.ics = sampleFeed(new Date(Math.floor(Date.now() / DAY) * DAY + 2 * DAY))
			const deps = await testDeps({ CALENDAR_FEEDS_ALLOW_PRIVATE: 'on' })
			const ws = await newWorkspace()
			const owner = await personActor(deps, ws.slug, (await newPerson(ws, 'owner')).email)
			const [leaver, viewer, stays] = await Promise.all([newPerson(ws, 'recruiter'), newPerson(ws, 'recruiter'), newPerson(ws, 'hiring_manager')])
			for (const p of [leaver, viewer, stays])
				await setFeed(deps, await personActor(deps, ws.slug, p.email), `http://127.0.0.1:${new URL(server.url).port}/feed.ics`)
			const kept = async () => {
				const feeds = await deps.db.select({ userId: calendarFeeds.userId }).from(calendarFeeds).where(eq(calendarFeeds.workspaceId, ws.id))
				const busy = await deps.db.selectDistinct({ userId: calendarBusy.userId }).from(calendarBusy).where(eq(calendarBusy.workspaceId, ws.id))
				return { feeds: feeds.map((f) => f.userId).sort(), busy: busy.map((b) => b.userId).sort() }
			}
			const everyone = [leaver, viewer, stays].map((p) => p.userId).sort()
			expect(await kept()).toEqual({ feeds: everyone, busy: everyone })
			await removePerson(deps, owner, ws, { email: leaver.email })
			await changeRole(deps, owner, ws, { email: viewer.email }, 'viewer')
			expect(await kept()).toEqual({ feeds: [stays.userId], busy: [stays.userId] })
			// The sweep reads only the feed of the one still there.
			await deps.db
				.update(calendarFeeds)
				.set({ nextRefreshAt: new Date(Date.now() - 1000) })
				.where(eq(calendarFeeds.workspaceId, ws.id))
			expect(await sweep(deps, ws)).toBe(1)
		} finally {
			server.stop()
		}
	})
})
