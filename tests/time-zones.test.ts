/**
 * Every time a page shows is in the reader's time zone, with the zone named: a person in Kolkata
 * (UTC+5:30, so no page can pass by showing UTC hours by chance) opens every page of the page tour
 * on a seeded workspace, and each `<time>` must show the Kolkata wall clock of its instant, and no
 * text may print an hh:mm followed by "UTC". Also: the zone is taken from the browser at the first
 * sign-in only, can be changed on the profile page, and a typed due time is read in it.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { runCommand } from '../core/cli.ts'
import type { AppDeps } from '../core/deps.ts'
import { users } from '../modules/auth/table.ts'
import { todos } from '../modules/todos/table.ts'
import { PORTAL_PAGES, sampleIds, type SampleIds } from './browser/page-list.ts'
import { newPerson, newWorkspace, type TestWorkspace } from './helpers.ts'
import { PortalClient, portalApp, signedIn, uniqueAddress } from './portal.ts'

setDefaultTimeout(60_000)
const ZONE = 'Asia/Kolkata'

let deps: AppDeps
let ws: TestWorkspace
let ids: SampleIds
let owner: Awaited<ReturnType<typeof newPerson>>

beforeAll(async () => {
	;({ deps } = await portalApp())
	ws = await newWorkspace(deps)
	owner = await newPerson(ws, 'owner', {}, deps)
	await runCommand(deps, 'seed', { workspace: ws.slug })
	ids = await sampleIds(deps, ws)
	await deps.db.update(users).set({ timeZone: ZONE }).where(eq(users.email, owner.email))
}, 300_000)

/** The wall clock of an instant in Kolkata, computed here without the app's helpers. */
const kolkata = (iso: string, o: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('en-US', { timeZone: ZONE, ...o }).format(new Date(iso))

describe('times in the reader’s zone', () => {
	test('every page of the tour shows its times in the person’s zone, never UTC', async () => {
		const portal = await signedIn(owner)
		const problems: string[] = []
		let checked = 0
		for (const p of PORTAL_PAGES.filter((c) => (c.roles ?? ['owner', 'recruiter']).includes('owner'))) {
			const page = await portal.get(p.path(ids))
			if (page.status !== 200) {
				problems.push(`${p.name}: answered ${page.status}`)
				continue
			}
			const main = page.text.slice(page.text.indexOf('<main'))
			for (const m of main.matchAll(/\b\d{1,2}:\d{2}(?::\d{2})? UTC\b/g)) problems.push(`${p.name}: prints a UTC time “${m[0]}”`)
			for (const m of main.matchAll(/<time datetime="([^"]+)">([^<]*)<\/time>/g)) {
				const [, iso, text] = m as unknown as [string, string, string]
				if (!iso.includes('T')) continue // a calendar day (availability): the same in every zone
				checked++
				const hhmm = kolkata(iso, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
				const day = kolkata(iso, { month: 'short', day: 'numeric' })
				// A time alone (an entry under its day's heading), a date and time, or a date.
				const shown = /^\d{2}:\d{2}$/.test(text) ? text === hhmm : text.includes(':') ? text.includes(hhmm) && text.includes(day) : text.includes(day)
				if (!shown) problems.push(`${p.name}: <time datetime="${iso}"> shows “${text}”, not ${day} ${hhmm} in ${ZONE}`)
			}
		}
		expect(problems).toEqual([])
		// The seeded workspace fills the pages: a tour that checked no time would prove nothing.
		expect(checked).toBeGreaterThan(50)
	}, 600_000)

	test('the browser’s zone is taken at the first sign-in only; the profile page changes it', async () => {
		const person = await newPerson(ws, 'recruiter', {}, deps)
		const { app } = await portalApp()
		const signInWith = async (zone: string) => {
			const client = new PortalClient(app, { address: uniqueAddress() })
			await client.get('/sign-in')
			const res = await client.post('/sign-in', { email: person.email, password: person.password, next: '/portal', timeZone: zone })
			expect(res.status).toBe(303)
			return client
		}
		const zoneOf = async () => (await deps.db.select({ z: users.timeZone }).from(users).where(eq(users.email, person.email)))[0]!.z
		await signInWith('Not a zone')
		expect(await zoneOf()).toBeNull()
		const client = await signInWith('America/Chicago')
		expect(await zoneOf()).toBe('America/Chicago')
		await signInWith('Europe/Paris')
		expect(await zoneOf()).toBe('America/Chicago')
		const profile = await client.get('/settings/profile')
		expect(profile.text).toContain('<option value="America/Chicago" selected>America/Chicago</option>')
		const refused = await client.post('/settings/profile', { timeZone: 'Mars/Base' })
		expect(refused.status).toBe(422)
		const saved = await client.submit('/settings/profile', { timeZone: 'America/Los_Angeles' })
		expect(saved.text).toContain('Times are now shown in America/Los_Angeles.')
		expect(await zoneOf()).toBe('America/Los_Angeles')
	})

	test('a zone known by another spelling or an alias (asia/kolkata, Asia/Calcutta) is kept as the runtime spells it, and the profile form shows it chosen', async () => {
		const person = await newPerson(ws, 'recruiter', {}, deps)
		const { app } = await portalApp()
		const client = new PortalClient(app, { address: uniqueAddress() })
		await client.get('/sign-in')
		expect((await client.post('/sign-in', { email: person.email, password: person.password, next: '/portal', timeZone: 'america/new_york' })).status).toBe(303)
		const zoneOf = async () => (await deps.db.select({ z: users.timeZone }).from(users).where(eq(users.email, person.email)))[0]!.z
		expect(await zoneOf()).toBe('America/New_York')
		await client.get('/settings/profile')
		await client.submit('/settings/profile', { timeZone: 'Asia/Calcutta' })
		expect(await zoneOf()).toBe('Asia/Calcutta')
		const profile = await client.get('/settings/profile')
		// Saving the form again without touching it keeps the zone (it used to show UTC chosen).
		expect(profile.text).toContain('<option value="Asia/Calcutta" selected>Asia/Calcutta</option>')
		expect(profile.text).toContain('GMT+5:30')
	})

	test('a due time typed on the to-dos page is read in the person’s zone', async () => {
		const portal = await signedIn(owner)
		await portal.get('/todos')
		const res = await portal.submit('/todos', { title: 'Call Ava back', dueAt: '2026-12-10T09:00', candidateId: '', notes: '' })
		expect(res.redirectedTo).toBe('/todos?done=added')
		expect(res.text).toContain('Due (optional, your time: Asia/Kolkata)')
		const [row] = await deps.db.select({ dueAt: todos.dueAt }).from(todos).where(eq(todos.title, 'Call Ava back'))
		expect(row!.dueAt!.toISOString()).toBe('2026-12-10T03:30:00.000Z')
		expect(res.text).toContain('Dec 10, 2026, 09:00 GMT+5:30')
	})
})
