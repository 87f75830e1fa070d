/**
 * The candidate and job lists at a recruiter's speed (issue 31): filtered by what a recruiter filters
 * by (candidates: job, stage, work authorization, availability; jobs: status, vendor, location),
 * sorted by their main columns and paged in that order, every filter within the person's reach (a
 * hiring manager filters only their jobs and those jobs' applicants). Services first, then the
 * pages: sortable headers with `aria-sort`, Save this search and the saved searches' links.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { Actor } from '../core/actor.ts'
import { newId } from '../core/credentials.ts'
import type { AppDeps } from '../core/deps.ts'
import { textOf } from '../core/untrusted.ts'
import { personActor } from '../modules/auth/index.ts'
import { benchEntries } from '../modules/bench/table.ts'
import { listCandidates } from '../modules/candidates/candidate-service.ts'
import { applications, candidates } from '../modules/candidates/table.ts'
import { jobVendors, listJobs } from '../modules/jobs/service.ts'
import { jobs } from '../modules/jobs/table.ts'
import { newPerson, newVendor, newWorkspace, testApp, testDeps, unique, type TestWorkspace } from './helpers.ts'
import { portalApp, signedIn, type PortalClient } from './portal.ts'
import { onTeam } from './sdk.ts'

setDefaultTimeout(60_000)

const DAY = 86_400_000
let deps: AppDeps
let ws: TestWorkspace
let actors: { owner: Actor; manager: Actor }
let clients: { owner: PortalClient; manager: PortalClient }
const ids = { jobA: '', jobB: '', jobC: '', vendorX: '', vendorY: '' }
/** Candidates by first name. */
const c: Record<'zed' | 'amy' | 'mia' | 'bob', string> = { zed: '', amy: '', mia: '', bob: '' }

async function candidate(name: string, o: { location: string | null; auth: string | null; ageDays: number }) {
	const id = newId('cand')
	await deps.db.insert(candidates).values({
		id,
		workspaceId: ws.id,
		name,
		email: `${unique('c')}@example.test`,
		location: o.location,
		workAuthorization: o.auth,
		headline: 'Data Engineer',
		createdAt: new Date(Date.now() - o.ageDays * DAY),
	})
	return id
}

async function job(title: string, o: { location: string | null; vendorId: string | null; ageDays: number; status?: 'Open' | 'Draft' | 'Closed' }) {
	const id = newId('job')
	const status = o.status ?? 'Open'
	const createdAt = new Date(Date.now() - o.ageDays * DAY)
	await deps.db.insert(jobs).values({
		id,
		workspaceId: ws.id,
		title,
		location: o.location,
		vendorId: o.vendorId,
		vendorJobId: o.vendorId ? unique('REQ-') : null,
		slug: unique('job-'),
		status,
		createdAt,
		publishedAt: status === 'Open' ? createdAt : null,
	})
	return id
}

async function apply(candidateId: string, jobId: string, stageKey: string) {
	const id = newId('app')
	await deps.db.insert(applications).values({ id, workspaceId: ws.id, candidateId, jobId, stageKey })
	return id
}
let miaApplication = ''

const bench = (candidateId: string, availableInDays: number | null) =>
	deps.db.insert(benchEntries).values({
		id: newId('bench'),
		workspaceId: ws.id,
		candidateId,
		roleFamily: 'dataeng',
		availableFrom: availableInDays === null ? null : new Date(Date.now() + availableInDays * DAY).toISOString().slice(0, 10),
	})

beforeAll(async () => {
	await testApp()
	deps = await testDeps()
	ws = await newWorkspace(deps)
	const owner = await newPerson(ws, 'owner', {}, deps)
	const manager = await newPerson(ws, 'hiring_manager', {}, deps)
	ids.vendorX = (await newVendor(ws, 'Xenon Partners', deps)).vendorId
	ids.vendorY = (await newVendor(ws, 'Yarrow Staffing', deps)).vendorId
	ids.jobA = await job('Kafka Engineer', { location: 'Austin, TX', vendorId: ids.vendorX, ageDays: 3 })
	ids.jobB = await job('Android Developer', { location: null, vendorId: ids.vendorY, ageDays: 2, status: 'Draft' })
	ids.jobC = await job('Zig Developer', { location: 'Boston, MA', vendorId: null, ageDays: 1 })
	await onTeam(ids.jobA, manager.userId)
	c.zed = await candidate('Zed Alpha', { location: 'Austin, TX', auth: 'USC', ageDays: 4 })
	c.amy = await candidate('Amy Beta', { location: null, auth: 'GC', ageDays: 3 })
	c.mia = await candidate('Mia Gamma', { location: 'Boston, MA', auth: 'H1B', ageDays: 2 })
	c.bob = await candidate('Bob Delta', { location: 'Chicago, IL', auth: 'OPT', ageDays: 1 })
	await apply(c.zed, ids.jobA, 'screening')
	await apply(c.amy, ids.jobB, 'applied')
	miaApplication = await apply(c.mia, ids.jobA, 'applied')
	await bench(c.mia, null)
	await bench(c.bob, 20)
	actors = { owner: await personActor(deps, ws.slug, owner.email), manager: await personActor(deps, ws.slug, manager.email) }
	await portalApp()
	clients = { owner: await signedIn(owner), manager: await signedIn(manager) }
}, 120_000)

const names = async (actor: Actor, input: Omit<Parameters<typeof listCandidates>[2], 'limit'> & { limit?: number }) =>
	(await listCandidates(deps, actor, { limit: 25, ...input })).candidates.map((x) => textOf(x.name).split(' ')[0])

describe('the candidate list’s service', () => {
	test('sorted by name (both ways), location (none last), newest and oldest', async () => {
		const { owner } = actors
		expect(await names(owner, {})).toEqual(['Bob', 'Mia', 'Amy', 'Zed'])
		expect(await names(owner, { sort: 'oldest' })).toEqual(['Zed', 'Amy', 'Mia', 'Bob'])
		expect(await names(owner, { sort: 'name' })).toEqual(['Amy', 'Bob', 'Mia', 'Zed'])
		expect(await names(owner, { sort: 'name-desc' })).toEqual(['Zed', 'Mia', 'Bob', 'Amy'])
		expect(await names(owner, { sort: 'location' })).toEqual(['Zed', 'Mia', 'Bob', 'Amy'])
	})

	test('pages follow the order, and a cursor of one order is refused in another', async () => {
		const { owner } = actors
		for (const sort of ['name', 'name-desc', 'location', 'oldest']) {
			const all = await names(owner, { sort })
			const first = await listCandidates(deps, owner, { sort, limit: 3 })
			const second = await listCandidates(deps, owner, { sort, limit: 3, cursor: first.nextCursor! })
			expect([...first.candidates, ...second.candidates].map((x) => textOf(x.name).split(' ')[0])).toEqual(all)
			expect(second.nextCursor).toBeNull()
		}
		const byName = await listCandidates(deps, owner, { sort: 'name', limit: 2 })
		await expect(listCandidates(deps, owner, { sort: 'location', limit: 2, cursor: byName.nextCursor! })).rejects.toMatchObject({ code: 'VALIDATION' })
	})

	test('filters: stage (in the running), job and stage, work authorization, availability on the bench', async () => {
		const { owner } = actors
		expect(await names(owner, { stageKey: 'screening' })).toEqual(['Zed'])
		expect(await names(owner, { stageKey: 'applied', sort: 'name' })).toEqual(['Amy', 'Mia'])
		expect(await names(owner, { stageKey: 'applied', jobId: ids.jobA })).toEqual(['Mia'])
		expect(await names(owner, { workAuthorization: ['USC', 'GC'], sort: 'name' })).toEqual(['Amy', 'Zed'])
		expect(await names(owner, { more: { availability: 'now' } })).toEqual(['Mia'])
		expect(await names(owner, { more: { availability: '30' }, sort: 'name' })).toEqual(['Bob', 'Mia'])
		expect(await names(owner, { more: { availability: '14' }, workAuthorization: ['OPT'] })).toEqual([])
		// The application shown is the one the filters are about.
		const [zed] = (await listCandidates(deps, owner, { stageKey: 'screening', limit: 5 })).candidates
		expect(zed!.application).toMatchObject({ stageKey: 'screening' })
	})

	test('a hiring manager filters only their jobs’ applicants, and has no bench filter', async () => {
		const { manager } = actors
		expect(await names(manager, { sort: 'name' })).toEqual(['Mia', 'Zed'])
		expect(await names(manager, { stageKey: 'applied' })).toEqual(['Mia'])
		expect(await names(manager, { workAuthorization: ['GC'] })).toEqual([])
		await expect(listCandidates(deps, manager, { limit: 5, more: { availability: 'now' } })).rejects.toMatchObject({
			code: 'VALIDATION',
			fields: [{ field: 'availability', message: 'is not a filter your role can use' }],
		})
	})

	test('a value that is not one of the list’s is refused, naming its field', async () => {
		const { owner } = actors
		const refused = (input: Parameters<typeof names>[1]) =>
			listCandidates(deps, owner, { limit: 5, ...input }).then(
				() => null,
				(e) => e.fields,
			)
		expect(await refused({ stageKey: 'lunch' })).toEqual([{ field: 'stage', message: expect.stringContaining('must be one of: applied') }])
		expect(await refused({ sort: 'salary' })).toEqual([{ field: 'sort', message: 'must be one of: newest, oldest, name, name-desc, location' }])
		expect(await refused({ workAuthorization: ['USC', 'Martian'] })).toEqual([{ field: 'workAuthorization', message: expect.stringContaining('USC, GC') }])
		expect(await refused({ more: { availability: 'yesterday' } })).toEqual([{ field: 'availability', message: 'must be one of: now, 14, 30' }])
	})
})

const titles = async (actor: Actor, input: Omit<Parameters<typeof listJobs>[2], 'limit'> = {}) =>
	(await listJobs(deps, actor, { limit: 25, ...input })).jobs.map((j) => textOf(j.title).split(' ')[0])

describe('the job list’s service', () => {
	test('sorted by title (both ways), location (none last), newest and oldest; paged in that order', async () => {
		const { owner } = actors
		expect(await titles(owner)).toEqual(['Zig', 'Android', 'Kafka'])
		expect(await titles(owner, { sort: 'oldest' })).toEqual(['Kafka', 'Android', 'Zig'])
		expect(await titles(owner, { sort: 'title' })).toEqual(['Android', 'Kafka', 'Zig'])
		expect(await titles(owner, { sort: 'title-desc' })).toEqual(['Zig', 'Kafka', 'Android'])
		expect(await titles(owner, { sort: 'location' })).toEqual(['Kafka', 'Zig', 'Android'])
		const first = await listJobs(deps, owner, { sort: 'title', limit: 2 })
		const second = await listJobs(deps, owner, { sort: 'title', limit: 2, cursor: first.nextCursor! })
		expect([...first.jobs, ...second.jobs].map((j) => textOf(j.title).split(' ')[0])).toEqual(['Android', 'Kafka', 'Zig'])
		await expect(listJobs(deps, owner, { sort: 'salary', limit: 2 })).rejects.toMatchObject({ code: 'VALIDATION', fields: [{ field: 'sort' }] })
	})

	test('filters: status, vendor, location contains; a hiring manager only within their jobs', async () => {
		const { owner, manager } = actors
		expect(await titles(owner, { status: 'Open', sort: 'title' })).toEqual(['Kafka', 'Zig'])
		expect(await titles(owner, { vendorId: ids.vendorY })).toEqual(['Android'])
		expect(await titles(owner, { location: 'boston' })).toEqual(['Zig'])
		expect(await titles(owner, { location: 'tx', vendorId: ids.vendorX, status: 'Open' })).toEqual(['Kafka'])
		expect(await titles(manager)).toEqual(['Kafka'])
		expect(await titles(manager, { vendorId: ids.vendorY })).toEqual([])
		expect((await jobVendors(deps, owner)).map((v) => textOf(v.name))).toEqual(['Xenon Partners', 'Yarrow Staffing'])
		expect((await jobVendors(deps, manager)).map((v) => v.id)).toEqual([ids.vendorX])
	})
})

/** The order of the candidates' profile links on a list page. */
const listed = (page: string) => [...page.matchAll(/<a href="\/candidates\/(cand_[^"]+)">([^<]+)<\/a>/g)].map((m) => m[2]!.split(' ')[0])

describe('the pages', () => {
	test('/candidates: filters and a sort in the form, sortable headers saying their order', async () => {
		const page = await clients.owner.get('/candidates?sort=name&workAuthorization=USC%2CGC')
		expect(page.status).toBe(200)
		expect(listed(page.text)).toEqual(['Amy', 'Zed'])
		for (const id of ['jobId', 'stage', 'workAuthorization', 'availability', 'sort']) expect(page.text).toContain(`<select id="${id}"`)
		expect(page.text).toMatch(
			/<th scope="col" aria-sort="ascending"><a class="sort" href="\/candidates\?workAuthorization=USC%2CGC&amp;sort=name-desc">Candidate/,
		)
		expect(page.text).toContain(
			'<th scope="col"><a class="sort" href="/candidates?workAuthorization=USC%2CGC&amp;sort=location">Location</a><span class="sort-label">Location</span></th>',
		)
		const managers = await clients.manager.get('/candidates')
		expect(listed(managers.text).sort()).toEqual(['Mia', 'Zed'])
		expect(managers.text).not.toContain('<select id="availability"')
	})

	test('/candidates: a filter or order that is not the list’s answers 422 on its field, the values kept', async () => {
		const page = await clients.owner.get('/candidates?stage=lunch&sort=salary&q=data')
		expect(page.status).toBe(422)
		expect(page.text).toContain('<a href="#stage">Stage must be one of: applied')
		expect(page.text).toContain('<a href="#sort">Sort must be one of: newest, oldest, name, name-desc, location</a>')
		expect(page.text).toContain('value="data"')
		// A changed page address (or one of another order, as the service test shows) is out of date, and said so.
		const forged = await clients.owner.get('/candidates?sort=location&cursor=forged.cursor')
		expect(forged.status).toBe(422)
		expect(forged.text).toContain('This page’s address was changed or belongs to another search')
		// A filter the role does not have is refused on the page, not silently dropped (the list looked filtered while it was not).
		const theirs = await clients.manager.get('/candidates?availability=now')
		expect(theirs.status).toBe(422)
		expect(theirs.text).toContain('Availability is not a filter your role can use')
		expect(listed(theirs.text)).toEqual([])
		expect(listed((await clients.manager.get('/candidates')).text).sort()).toEqual(['Mia', 'Zed'])
	})

	test('Save this search: saved with the current filters, the confirmation beside the button, its name a link that applies them', async () => {
		const name = `USC or GC by name ${unique('')}`
		const form = { name, q: '', workAuthorization: 'USC,GC', sort: 'name' }
		const saved = await clients.owner.post('/candidates/saved-searches', form)
		expect(saved.status).toBe(303)
		expect(saved.headers.get('location')).toBe('/candidates?workAuthorization=USC%2CGC&sort=name&done=search-saved#done')
		const after = await clients.owner.get(saved.headers.get('location')!)
		const notice = after.text.indexOf('<div class="notice action-notice" id="done" role="status" tabindex="-1" data-autofocus>')
		expect(notice).toBeGreaterThan(after.text.indexOf('<form method="post" action="/candidates/saved-searches"'))
		expect(after.text.slice(0, notice)).toMatch(/<button type="submit">Save this search<\/button>$/)
		const link = new RegExp(`<a href="([^"]+)">${name}</a>`).exec(after.text)![1]!.replace(/&amp;/g, '&')
		expect(link).toBe('/candidates?workAuthorization=USC%2CGC&sort=name')
		expect(listed((await clients.owner.get(link)).text)).toEqual(['Amy', 'Zed'])
		// The same name again is refused on the name field, with the name kept; nothing is lost.
		const again = await clients.owner.post('/candidates/saved-searches', form)
		expect(again.status).toBe(422)
		expect(again.text).toContain('<a href="#save-name">You already have a saved search named')
		expect(again.text).toContain(`value="${name}"`)
		// A filter the list refuses is named on its field, and nothing is saved.
		const badFilter = await clients.owner.post('/candidates/saved-searches', { ...form, name: `${name} 2`, stage: 'lunch' })
		expect(badFilter.status).toBe(422)
		expect(badFilter.text).toContain('<a href="#stage">Stage must be one of: applied')
		expect(badFilter.text).toContain(`value="${name} 2"`)
		expect((await clients.owner.get('/candidates')).text).not.toContain(`${name} 2</a>`)
		// A search the list refuses is said on the search field, and nothing is saved (a 299-character one was kept, then refused by its own link).
		for (const [q, message] of [
			['k'.repeat(299), 'Search must be 120 characters or fewer'],
			['k', 'Search must have at least 2 characters'],
		]) {
			const badSearch = await clients.owner.post('/candidates/saved-searches', { ...form, name: `${name} 3`, q })
			expect(badSearch.status).toBe(422)
			expect(badSearch.text).toContain(`<a href="#q">${message}`)
			expect(badSearch.text).toContain(`value="${name} 3"`)
		}
		expect((await clients.owner.get('/candidates')).text).not.toContain(`${name} 3</a>`)
		const empty = await clients.owner.post('/candidates/saved-searches', { ...form, name: ' ' })
		expect(empty.status).toBe(422)
		expect(empty.text).toContain('The name must be 1 to 80 characters')
	})

	test('/jobs: status, vendor and location filters and a sort, sortable headers; a bad value is 422 on its field', async () => {
		const page = await clients.owner.get(`/jobs?vendor=${ids.vendorX}&location=austin&sort=title`)
		expect(page.status).toBe(200)
		expect(page.text).toContain('Kafka Engineer')
		expect(page.text).not.toContain('Zig Developer')
		expect(page.text).toContain(`<option value="${ids.vendorX}" selected>Xenon Partners</option>`)
		expect(page.text).toMatch(/<th scope="col" aria-sort="ascending"><a class="sort" href="[^"]*sort=title-desc">Job/)
		const sorted = await clients.owner.get('/jobs?sort=title-desc')
		const order = ['Zig Developer', 'Kafka Engineer', 'Android Developer'].map((t) => sorted.text.indexOf(t))
		expect(order).toEqual([...order].sort((a, b) => a - b))
		const bad = await clients.owner.get('/jobs?sort=salary&vendor=vnd_nobody')
		expect(bad.status).toBe(422)
		expect(bad.text).toContain('<a href="#sort">Sort must be one of: newest, oldest, title, title-desc, location</a>')
		expect(bad.text).toContain('<a href="#vendor">Vendor must be one of the vendors listed</a>')
		// A hiring manager's vendor choices are their jobs' vendors only.
		const theirs = await clients.manager.get('/jobs')
		expect(theirs.text).toContain('Xenon Partners</option>')
		expect(theirs.text).not.toContain('Yarrow Staffing</option>')
	})

	test('a search of one character is explained on both lists, as /search explains it, not answered "none match"', async () => {
		for (const [path, message] of [
			['/candidates?q=k', '<a href="#q">Search must have at least 2 characters'],
			['/jobs?q=k', '<a href="#q">Title search must have at least 2 characters'],
		] as const) {
			const page = await clients.owner.get(path)
			expect(page.status).toBe(422)
			expect(page.text).toContain(message)
			expect(page.text).toContain('value="k"')
		}
		expect((await clients.owner.get('/search?q=k')).text).toContain('Search must have at least 2 characters')
	})
})

/** Where the page's one confirmation sits: the markup just before it, and whether it takes the focus. */
function confirmation(page: string): { before: string; focused: boolean; text: string } {
	const at = page.indexOf('<div class="notice action-notice" id="done" role="status" tabindex="-1" data-autofocus>')
	expect(at).toBeGreaterThan(0)
	expect(page.indexOf('data-autofocus', at + 100)).toBe(-1)
	return { before: page.slice(0, at), focused: true, text: page.slice(at, page.indexOf('</div>', at)).replace(/<[^>]+>/g, '') }
}

describe('confirmations next to the action, on the job and the application pages', () => {
	test('Publish: under the job’s heading and its buttons, focused', async () => {
		const res = await clients.owner.submit(`/jobs/${ids.jobB}/status`, { status: 'Open' })
		expect(res.redirectedTo).toBe(`/jobs/${ids.jobB}?done=published#done`)
		const done = confirmation(res.text)
		expect(done.text).toBe('The job is published: it is live on the careers site.')
		expect(done.before).toMatch(/<div class="actions">[\s\S]*<\/div>\n?<\/div>\n?(<p class="meta">[\s\S]*?<\/p>)?<\/div>$/)
	})

	test('Move to stage on the application page: inside its form, right after the button', async () => {
		const res = await clients.owner.submit(`/applications/${miaApplication}/stage`, { stageKey: 'screening' })
		expect(res.redirectedTo).toBe(`/applications/${miaApplication}?done=stage#done`)
		const done = confirmation(res.text)
		expect(done.text).toBe('Moved to Screening.')
		expect(done.before).toMatch(/<button type="submit">Move to stage<\/button>$/)
		expect(done.before.lastIndexOf(`<form method="post" action="/applications/${miaApplication}/stage"`)).toBeGreaterThan(done.before.lastIndexOf('</form>'))
	})

	test('Move on the job’s pipeline: in the pipeline, under its heading', async () => {
		const res = await clients.owner.submit(`/applications/${miaApplication}/stage`, { stageKey: 'submitted', back: `/jobs/${ids.jobA}` })
		expect(res.redirectedTo).toBe(`/jobs/${ids.jobA}?done=moved#done`)
		const done = confirmation(res.text)
		expect(done.text).toBe('The application was moved: its stage change is in the activity log.')
		expect(done.before).toMatch(/<h2 id="pipeline-h">Pipeline<\/h2>$/)
	})

	test('a section’s change: its confirmation in that section, under its heading (scorecards, interviews, vendor submission, job scorecard)', async () => {
		const cases: [string, RegExp][] = [
			[`/applications/${miaApplication}?done=scorecard`, /<h2 id="scorecards-h">Scorecards<\/h2>.*<\/div>$/],
			[`/applications/${miaApplication}?done=scheduled`, /<h2 id="scheduled-h">Interviews<\/h2>.*<\/div>$/],
			[
				`/applications/${miaApplication}?done=submitted`,
				/<section class="card" id="vendor-submission"[\s\S]*<h2 id="vendor-submission-h">Vendor submission<\/h2>[\s\S]*$/,
			],
			[`/jobs/${ids.jobA}?done=scorecard-attributes`, /<h2 id="scorecard-h">Scorecard<\/h2>.*<\/div>$/],
		]
		for (const [path, where] of cases) {
			const page = await clients.owner.get(path)
			expect(page.status).toBe(200)
			const done = confirmation(page.text)
			expect({ path, before: where.test(done.before) }).toEqual({ path, before: true })
			expect(done.before.lastIndexOf('<section')).toBeGreaterThan(done.before.lastIndexOf('</section>'))
		}
	})
})
