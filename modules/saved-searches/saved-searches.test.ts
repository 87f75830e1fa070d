/**
 * Saved searches: list_saved_searches through the official MCP client for every role (each person
 * sees only their own, list by list), and the page that saves, renames and deletes them.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { newPerson, testApp, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { signedIn } from '../../tests/portal.ts'
import { closeClients, everyRole, ROLES, type McpPerson, type TestRole } from '../../tests/sdk.ts'
import { changeRole, operatorActor, personActor } from '../auth/index.ts'
import { listSavedSearches, MAX_PER_LIST, saveSearch } from './service.ts'

setDefaultTimeout(30_000)
let w: { ws: TestWorkspace; people: Record<TestRole, McpPerson> }

beforeAll(async () => {
	await testApp()
	w = await everyRole()
	const deps = await testDeps()
	for (const role of ROLES) {
		const actor = await personActor(deps, w.ws.slug, w.people[role].email)
		await saveSearch(deps, actor, { list: 'jobs', name: `open roles (${role})`, query: 'remote', filters: { status: 'Open' } })
		await saveSearch(deps, actor, { list: 'jobs', name: `Austin roles (${role})`, query: 'austin' })
		// Viewers read jobs only: they keep no candidates search.
		if (role !== 'viewer') await saveSearch(deps, actor, { list: 'candidates', name: 'Java in Texas', query: 'java texas' })
	}
}, 120_000)
afterAll(closeClients)

describe('list_saved_searches', () => {
	test('every role sees its own searches of one list, by name', async () => {
		for (const role of ROLES) {
			const got = await w.people[role].tool('list_saved_searches', { list: 'jobs' })
			expect(got.isError).toBe(false)
			expect(got.data.list).toBe('jobs')
			expect(got.data.searches.map((s: any) => s.name)).toEqual([`Austin roles (${role})`, `open roles (${role})`])
			expect(got.data.searches[1]).toMatchObject({ query: 'remote', filters: { status: 'Open' } })
			expect((await w.people[role].tool('list_saved_searches', { list: 'vendors' })).data.searches).toEqual([])
		}
	})

	test('the list is required and must be one of the ten', async () => {
		const owner = w.people.owner
		expect((await owner.tool('list_saved_searches', {})).isError).toBe(true)
		const bad = await owner.tool('list_saved_searches', { list: 'contacts' })
		expect(bad.isError).toBe(true)
		expect(bad.text).toContain('candidates')
		for (const list of ['candidates', 'bench', 'jobs', 'applications', 'pipeline', 'assessments', 'inbox', 'vendors', 'privacy', 'accounts'])
			expect((await owner.tool('list_saved_searches', { list })).isError).toBe(false)
	})
})

describe('rules', () => {
	test('names are unique per person and list, ignoring case; at most 50 per list', async () => {
		const deps = await testDeps()
		const actor = await personActor(deps, w.ws.slug, w.people.recruiter.email)
		await expect(saveSearch(deps, actor, { list: 'candidates', name: 'JAVA IN TEXAS' })).rejects.toMatchObject({ code: 'CONFLICT' })
		await saveSearch(deps, actor, { list: 'bench', name: 'Java in Texas' })
		await expect(saveSearch(deps, actor, { list: 'bench', name: '   ' })).rejects.toMatchObject({ code: 'VALIDATION' })
		await expect(saveSearch(deps, actor, { list: 'bench', name: 'x'.repeat(81) })).rejects.toMatchObject({ code: 'VALIDATION' })
		// One line of visible text: nothing visible or a line break is refused, direction controls dropped.
		for (const name of ['\u200b', 'Java\r\nTexas']) await expect(saveSearch(deps, actor, { list: 'bench', name })).rejects.toMatchObject({ code: 'VALIDATION' })
		expect((await saveSearch(deps, actor, { list: 'bench', name: 'Rust \u202esaxeT\u202c\u200b' })).name).toBe('Rust saxeT')
		for (let i = 1; i < MAX_PER_LIST; i++) await saveSearch(deps, actor, { list: 'vendors', name: `Search ${i}` })
		await saveSearch(deps, actor, { list: 'vendors', name: 'The fiftieth' })
		await expect(saveSearch(deps, actor, { list: 'vendors', name: 'One too many' })).rejects.toMatchObject({ code: 'CONFLICT' })
	})

	test('a query with a control character is refused naming it: C1 controls as C0 and DEL', async () => {
		const deps = await testDeps()
		const actor = await personActor(deps, w.ws.slug, w.people.recruiter.email)
		for (const [i, query] of ['java\u0007', 'java\u007f', 'java\u009b31m', 'java\u0085texas'].entries())
			await expect(saveSearch(deps, actor, { list: 'jobs', name: `Controls ${i}`, query })).rejects.toMatchObject({
				code: 'VALIDATION',
				fields: [{ field: 'query' }],
			})
	})

	test('the search text is what every list’s search takes (2 to 120 characters), on every list: none is kept that its list then refuses', async () => {
		const deps = await testDeps()
		const actor = await personActor(deps, w.ws.slug, w.people.recruiter.email)
		for (const list of ['candidates', 'jobs', 'bench', 'inbox']) {
			for (const query of ['k'.repeat(121), 'k'.repeat(299), 'k'])
				await expect(saveSearch(deps, actor, { list, name: `refused ${list} ${query.length}`, query })).rejects.toMatchObject({
					code: 'VALIDATION',
					fields: [{ field: 'query' }],
				})
			expect((await saveSearch(deps, actor, { list, name: `longest ${list}`, query: ` ${'k'.repeat(120)} ` })).query).toBe('k'.repeat(120))
		}
		const page = await signedIn(w.people.recruiter)
		const refused = await page.post('/saved-searches', { list: 'candidates', name: 'Too long', query: 'k'.repeat(299) })
		expect(refused.status).toBe(422)
		expect(refused.text).toContain('Search text must be 120 characters or fewer.')
		expect(refused.text).toContain('maxlength="120"')
	})
})

describe('the saved-searches page', () => {
	test('save, rename and delete; errors are shown on the page; others’ searches cannot be touched', async () => {
		const page = await signedIn(w.people.hiring_manager)
		const shown = await page.get('/saved-searches')
		expect(shown.status).toBe(200)
		expect(shown.text).toContain('open roles (hiring_manager)')
		const saved = await page.submit('/saved-searches', { list: 'assessments', name: 'Unread replies', query: 'is:unread' })
		expect(saved.redirectedTo).toBe('/saved-searches?done=saved')
		expect(saved.text).toContain('The search was saved.')
		expect(saved.text).toContain('Unread replies')
		const listed = await w.people.hiring_manager.tool('list_saved_searches', { list: 'assessments' })
		const id = listed.data.searches[0].id
		expect(listed.data.searches[0]).toMatchObject({ name: 'Unread replies', query: 'is:unread' })
		const dup = await page.post('/saved-searches', { list: 'assessments', name: 'unread REPLIES' })
		expect(dup.status).toBe(422)
		expect(dup.text).toContain('already have a saved search')
		expect((await page.submit(`/saved-searches/${id}/rename`, { name: 'Replies to read' })).text).toContain('The saved search was renamed.')
		expect((await w.people.hiring_manager.tool('list_saved_searches', { list: 'assessments' })).data.searches.map((s: any) => s.name)).toEqual([
			'Replies to read',
		])
		const stranger = await signedIn(w.people.admin)
		await stranger.get('/saved-searches')
		expect((await stranger.post(`/saved-searches/${id}/delete`)).status).toBe(404)
		expect((await page.submit(`/saved-searches/${id}/delete`)).text).toContain('The saved search was deleted.')
		expect((await w.people.hiring_manager.tool('list_saved_searches', { list: 'assessments' })).data.searches).toEqual([])
		const anonymous = await (await import('../../tests/helpers.ts')).call('GET', '/saved-searches')
		expect(anonymous.status).toBe(303)
	})
})

describe('a list the person may not read', () => {
	test('a viewer cannot save a search on candidates (page 403, service FORBIDDEN), and the form offers only the lists they read', async () => {
		const deps = await testDeps()
		const page = await signedIn(w.people.viewer)
		const shown = await page.get('/saved-searches')
		expect(shown.text).toContain('<option value="jobs"')
		expect(shown.text).not.toContain('<option value="candidates"')
		const refused = await page.post('/saved-searches', { list: 'candidates', name: 'Java people', query: 'java' })
		expect(refused.status).toBe(403)
		expect(refused.text).toContain('Your role cannot read the Candidates list, so a search on it cannot be saved.')
		const viewer = await personActor(deps, w.ws.slug, w.people.viewer.email)
		for (const list of ['candidates', 'applications', 'bench', 'inbox', 'privacy', 'accounts'])
			await expect(saveSearch(deps, viewer, { list, name: `Refused ${list}` })).rejects.toMatchObject({ code: 'FORBIDDEN' })
		const manager = await personActor(deps, w.ws.slug, w.people.hiring_manager.email)
		await expect(saveSearch(deps, manager, { list: 'bench', name: 'Refused bench' })).rejects.toMatchObject({ code: 'FORBIDDEN' })
		expect((await w.people.viewer.tool('list_saved_searches', { list: 'candidates' })).data.searches).toEqual([])
	})

	test('a search saved before a demotion is neither listed nor opened while its list is out of reach, and comes back with the role', async () => {
		const deps = await testDeps()
		const person = await newPerson(w.ws, 'recruiter')
		const saved = await saveSearch(deps, await personActor(deps, w.ws.slug, person.email), { list: 'candidates', name: 'Java before demotion', query: 'java' })
		await changeRole(deps, operatorActor(w.ws), w.ws, { userId: person.userId }, 'viewer')
		const viewer = await personActor(deps, w.ws.slug, person.email)
		expect(await listSavedSearches(deps, viewer, 'candidates')).toEqual([])
		const page = await signedIn(person)
		const shown = await page.get('/saved-searches')
		expect(shown.status).toBe(200)
		expect(shown.text).not.toContain('Java before demotion')
		expect((await page.post(`/saved-searches/${saved.id}/rename`, { name: 'Renamed' })).status).toBe(404)
		await changeRole(deps, operatorActor(w.ws), w.ws, { userId: person.userId }, 'recruiter')
		const back = await listSavedSearches(deps, await personActor(deps, w.ws.slug, person.email), 'candidates')
		expect(back.map((s) => s.name)).toEqual(['Java before demotion'])
	})
})
