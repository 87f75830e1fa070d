/**
 * A feed's address is a credential (a secret iCal address reads the whole calendar): it is kept
 * sealed with the server secret, compared by a keyed hash, shown and logged only masked; addresses
 * kept in plain text before are sealed by the refresh pass; and when the server secret is replaced
 * the feed asks its person to reconnect instead of failing the pass.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { logLines, newPerson, newWorkspace, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { signedIn } from '../../tests/portal.ts'
import { personActor } from '../auth/index.ts'
import { activity } from '../activity/table.ts'
import { RECONNECT, sealPlainAddresses } from './feed-secret.ts'
import calendar, { refreshDueFeeds, setFeed } from './index.ts'
import { calendarBusy, calendarFeeds } from './table.ts'

const DAY = 86_400_000
const stamp = (d: Date) =>
	d
		.toISOString()
		.replace(/[-:]/g, '')
		.replace(/\.\d{3}/, '')

/** One busy hour tomorrow. */
function oneEvent(): string {
	const start = new Date(Math.floor(Date.now() / DAY) * DAY + DAY + 15 * 3_600_000)
	return [
		'BEGIN:VCALENDAR',
		'VERSION:2.0',
		'PRODID:-//Benchline test//EN',
		'BEGIN:VEVENT',
		'UID:one@test',
		`DTSTART:${stamp(start)}`,
		`DTEND:${stamp(new Date(start.getTime() + 3_600_000))}`,
		'SUMMARY:Private',
		'END:VEVENT',
		'END:VCALENDAR',
		'',
	].join('\r\n')
}

let server: ReturnType<typeof Bun.serve>
let ws: TestWorkspace
let deps: AppDeps
const hits: string[] = []
/** The secret part of an address, as Google puts it in the path. */
const token = () => `private-${crypto.randomUUID().replaceAll('-', '')}`
const addressOf = (secret: string) => `http://127.0.0.1:${server.port}/calendar/ical/${secret}/basic.ics`

beforeAll(async () => {
	server = Bun.serve({
		port: 0,
		hostname: '127.0.0.1',
		fetch(req) {
			hits.push(new URL(req.url).pathname)
			return new Response(oneEvent(), { headers: { 'content-type': 'text/calendar' } })
		},
	})
	deps = await testDeps({ CALENDAR_FEEDS_ALLOW_PRIVATE: 'on' })
	ws = await newWorkspace(deps)
})

afterAll(async () => {
	await deps.db.delete(calendarBusy).where(eq(calendarBusy.workspaceId, ws.id))
	await deps.db.delete(calendarFeeds).where(eq(calendarFeeds.workspaceId, ws.id))
	server.stop(true)
})

const rawFeeds = () => deps.database.rows<Record<string, unknown>>(sql`select * from calendar_feeds where workspace_id = ${ws.id}`)
const feedRow = async (userId: string) => (await deps.db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, userId)))[0]!

describe('a calendar feed address is kept sealed', () => {
	test('set on the settings page: read with the full address, yet the table, the page, the activity and the log hold only its masked form', async () => {
		const person = await newPerson(ws, 'recruiter', {}, deps)
		const secret = token()
		const logged = logLines.length
		const page = await signedIn(person, { overrides: { CALENDAR_FEEDS_ALLOW_PRIVATE: 'on' } })
		const saved = await page.submit('/settings/calendar', { url: addressOf(secret) })
		expect(saved.text).toMatch(/Your calendar was read: 1 busy times/)
		expect(hits).toContain(`/calendar/ical/${secret}/basic.ics`)

		const rows = await rawFeeds()
		expect(rows).toHaveLength(1)
		expect(JSON.stringify(rows)).not.toContain(secret)
		expect(rows[0]).toMatchObject({ url: null, status: 'ok', url_hint: `http://127.0.0.1:${server.port}/…ic.ics` })
		expect(saved.text.replaceAll('<wbr>', '')).toContain(`127.0.0.1:${server.port}/…ic.ics`)
		expect(saved.text).not.toContain(secret)
		expect((await page.get('/settings/calendar')).text).not.toContain(secret)
		expect(JSON.stringify(await deps.db.select().from(activity).where(eq(activity.workspaceId, ws.id)))).not.toContain(secret)
		expect(logLines.slice(logged).join('\n')).not.toContain(secret)
	})

	test('the same person adding the same address twice keeps one feed under one keyed hash; another address gets another', async () => {
		const person = await newPerson(ws, 'recruiter', {}, deps)
		const actor = await personActor(deps, ws.slug, person.email)
		const address = addressOf(token())
		const first = await setFeed(deps, actor, address)
		const again = await setFeed(deps, actor, address)
		expect([first.status, again.status]).toEqual(['ok', 'ok'])
		expect(again.urlHash).toBe(first.urlHash)
		const sealedFirst = (await feedRow(person.userId)).urlSealed
		expect((await deps.db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, person.userId))).length).toBe(1)
		const other = await setFeed(deps, actor, addressOf(token()))
		expect(other.urlHash).not.toBe(first.urlHash)
		expect((await feedRow(person.userId)).urlSealed).not.toBe(sealedFirst)
	})

	test('an address kept in plain text before is sealed once by the pass (several at once seal it once), then read from its sealed form', async () => {
		const person = await newPerson(ws, 'recruiter', {}, deps)
		const secret = token()
		await deps.db
			.insert(calendarFeeds)
			.values({ workspaceId: ws.id, userId: person.userId, url: addressOf(secret), nextRefreshAt: new Date(Date.now() - 1000) })
		const sealedBy = await Promise.all([sealPlainAddresses(deps, ws.id), sealPlainAddresses(deps, ws.id)])
		expect(sealedBy.reduce((a, b) => a + b, 0)).toBe(1)
		expect(JSON.stringify(await rawFeeds())).not.toContain(secret)
		const before = hits.length
		expect(await refreshDueFeeds(deps, 20, ws.id)).toBe(1)
		expect(hits.slice(before)).toEqual([`/calendar/ical/${secret}/basic.ics`])
		expect(await feedRow(person.userId)).toMatchObject({ url: null, status: 'ok', busyCount: 1 })
	})

	test('the module seals addresses kept in plain text as soon as it starts, before any refresh pass', async () => {
		const person = await newPerson(ws, 'recruiter', {}, deps)
		const secret = token()
		// Not due: only the sealing at start can reach it.
		await deps.db.insert(calendarFeeds).values({ workspaceId: ws.id, userId: person.userId, url: addressOf(secret), nextRefreshAt: new Date(Date.now() + DAY) })
		const stop = await calendar.start!(deps)
		await stop?.()
		expect(JSON.stringify(await rawFeeds())).not.toContain(secret)
		expect(await feedRow(person.userId)).toMatchObject({ url: null, status: 'pending', urlHint: expect.stringContaining('…ic.ics') })
	})

	test('after the server secret is replaced, a sealed feed asks to be reconnected; the pass goes on and reads the others', async () => {
		const stranded = await newPerson(ws, 'recruiter', {}, deps)
		const strandedAddress = addressOf(token())
		await setFeed(deps, await personActor(deps, ws.slug, stranded.email), strandedAddress)
		const legacy = await newPerson(ws, 'recruiter', {}, deps)
		await deps.db
			.insert(calendarFeeds)
			.values({ workspaceId: ws.id, userId: legacy.userId, url: addressOf(token()), nextRefreshAt: new Date(Date.now() - 1000) })
		await deps.db
			.update(calendarFeeds)
			.set({ nextRefreshAt: new Date(Date.now() - 1000) })
			.where(eq(calendarFeeds.workspaceId, ws.id))

		const replaced = { ...deps, secret: crypto.getRandomValues(new Uint8Array(32)) }
		const before = hits.length
		expect(await refreshDueFeeds(replaced, 20, ws.id)).toBeGreaterThanOrEqual(2)
		expect(await feedRow(stranded.userId)).toMatchObject({ status: 'error', lastError: RECONNECT, busyCount: 1 })
		// Sealed under the new secret by this pass, the plain one is read.
		expect(await feedRow(legacy.userId)).toMatchObject({ status: 'ok', busyCount: 1 })
		expect(hits.length - before).toBe(1)
		const page = await (await signedIn(stranded, { overrides: { CALENDAR_FEEDS_ALLOW_PRIVATE: 'on' } })).get('/settings/calendar')
		expect(page.text).toContain('reconnect your calendar')
		// Reconnecting (the same address entered again) seals it under the new secret and reads it.
		expect(await setFeed(replaced, await personActor(replaced, ws.slug, stranded.email), strandedAddress)).toMatchObject({ status: 'ok', busyCount: 1 })
	})
})
