/**
 * Scorecards: who may write them and where, one per person per application edited by its author,
 * the job's attributes (must-haves by default, set per job), the AI interview's scorecard,
 * `get_application` (labelled notes), and the pages (Add scorecard, refused form, summary).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { AppError } from '../../core/errors.ts'
import { newPerson, newVendor, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { signedIn } from '../../tests/portal.ts'
import { closeClients, mcpClient, onTeam } from '../../tests/sdk.ts'
import { newApplication, newCandidate, newVendorJob, workspaceWithOwner } from '../../tests/staffing-fixtures.ts'
import { personActor } from '../auth/index.ts'
import { inviteToInterview } from '../interviews/index.ts'
import { interviewQuestions, interviews } from '../interviews/table.ts'
import { jobs } from '../jobs/table.ts'
import { attributesOf, saveScorecard, scorecardsOf, setAttributes, summarize } from './service.ts'

setDefaultTimeout(60_000)

const MUST = ['Java 17', 'Spring Boot', 'AWS']
let w: {
	ws: TestWorkspace
	owner: Actor
	recruiter: Actor
	other: Actor
	manager: Actor
	outsider: Actor
	viewer: Actor
	recruiterLogin: { email: string; password: string }
	job: string
	app: string
}

const refusal = async (p: Promise<unknown>) => {
	const error = await p.then(
		() => null,
		(e) => e,
	)
	expect(error).toBeInstanceOf(AppError)
	return error as AppError
}
const card = (attributes: string[], ratings: string[], recommendation = 'yes', notes = '') => ({ attributes, ratings, recommendation, notes })

beforeAll(async () => {
	const deps = await testDeps()
	const { ws, owner } = await workspaceWithOwner(deps)
	const people = {} as Record<string, { userId: string; email: string; password: string }>
	for (const [key, role] of [
		['recruiter', 'recruiter'],
		['other', 'recruiter'],
		['manager', 'hiring_manager'],
		['outsider', 'hiring_manager'],
		['viewer', 'viewer'],
	] as const)
		people[key] = await newPerson(ws, role, {}, deps)
	const job = await newVendorJob(ws, { title: 'Senior Java Developer' }, deps)
	await deps.db.update(jobs).set({ mustHave: MUST }).where(eq(jobs.id, job))
	await onTeam(job, people.manager!.userId)
	const app = await newApplication(ws, await newCandidate(ws, { name: 'Ava Jackson' }, deps), job, {}, deps)
	const actor = (key: string) => personActor(deps, ws.slug, people[key]!.email)
	w = {
		ws,
		owner,
		recruiter: await actor('recruiter'),
		other: await actor('other'),
		manager: await actor('manager'),
		outsider: await actor('outsider'),
		viewer: await actor('viewer'),
		recruiterLogin: people.recruiter!,
		job,
		app,
	}
}, 180_000)
afterAll(closeClients)

describe('attributes', () => {
	test('the job’s must-haves by default; a list of its own once set; cleared, the must-haves again', async () => {
		const deps = await testDeps()
		const job = await newVendorJob(w.ws, {}, deps)
		await deps.db
			.update(jobs)
			.set({ mustHave: ['Kotlin'] })
			.where(eq(jobs.id, job))
		expect(await attributesOf(deps, w.recruiter, job)).toMatchObject({ attributes: ['Kotlin'], custom: false })
		// Must-haves alike but for case, or alike once cut to an attribute's length, are one attribute (ratings are kept by name).
		const long = `Experience with ${'x'.repeat(90)}`
		await deps.db
			.update(jobs)
			.set({ mustHave: ['Kotlin', 'KOTLIN', `${long} alpha`, `${long} beta`, 'Go'] })
			.where(eq(jobs.id, job))
		const alike = (await attributesOf(deps, w.recruiter, job)).attributes
		expect(alike).toHaveLength(3)
		expect(alike[0]).toBe('Kotlin')
		expect(alike[2]).toBe('Go')
		await deps.db
			.update(jobs)
			.set({ mustHave: ['Kotlin'] })
			.where(eq(jobs.id, job))
		expect(await setAttributes(deps, w.recruiter, job, ['  Communication ', '', 'System design'])).toMatchObject({
			attributes: ['Communication', 'System design'],
			custom: true,
		})
		const twice = await refusal(setAttributes(deps, w.recruiter, job, ['Design', 'design']))
		expect(twice.fields?.[0]?.message).toContain('twice')
		expect(
			(
				await refusal(
					setAttributes(
						deps,
						w.recruiter,
						job,
						Array.from({ length: 16 }, (_, i) => `A${i}`),
					),
				)
			).code,
		).toBe('VALIDATION')
		expect((await refusal(setAttributes(deps, w.recruiter, job, ['x'.repeat(101)]))).code).toBe('VALIDATION')
		expect(await setAttributes(deps, w.recruiter, job, [' '])).toMatchObject({ attributes: ['Kotlin'], custom: false })
		// A hiring manager off the job's team, and a viewer, cannot.
		expect((await refusal(setAttributes(deps, w.outsider, job, ['A']))).code).toBe('NOT_FOUND')
		expect((await refusal(setAttributes(deps, w.viewer, job, ['A']))).code).toBe('FORBIDDEN')
	})
})

describe('writing scorecards', () => {
	test('one per person per application: saving again changes it; another interviewer’s is their own', async () => {
		const deps = await testDeps()
		const first = await saveScorecard(deps, w.recruiter, w.app, card(MUST, ['4', '5', '3'], 'yes', 'Solid on Spring.'))
		expect(first.added).toBe(true)
		const again = await saveScorecard(deps, w.recruiter, w.app, card(MUST, ['5', '5', '4'], 'strong_yes', 'Even better on a second look.'))
		expect(again).toEqual({ id: first.id, added: false })
		await saveScorecard(deps, w.other, w.app, card(MUST, ['2', '3', '2'], 'no'))
		const cards = (await scorecardsOf(deps, w.recruiter, [w.app])).get(w.app)!.scorecards
		expect(cards.map((c) => [c.by?.userId, c.recommendation])).toEqual([
			[w.recruiter.userId, 'strong_yes'],
			[w.other.userId, 'no'],
		])
		expect(cards[0]!.ratings.map((r) => r.rating)).toEqual([5, 5, 4])
		expect(summarize(cards)).toMatchObject({
			count: 2,
			recommendations: [
				{ recommendation: 'strong_yes', count: 1 },
				{ recommendation: 'no', count: 1 },
			],
			attributes: [
				{ attribute: 'Java 17', average: 3.5, ratings: 2 },
				{ attribute: 'Spring Boot', average: 4, ratings: 2 },
				{ attribute: 'AWS', average: 3, ratings: 2 },
			],
		})
	})

	test('every attribute rated 1 to 5 and a recommendation; the attributes as the form showed them', async () => {
		const deps = await testDeps()
		const bad = await refusal(saveScorecard(deps, w.owner, w.app, card(MUST, ['4', '', '6'], 'maybe')))
		expect(bad.fields?.map((f) => f.field)).toEqual(['rating-1', 'rating-2', 'recommendation'])
		const stale = await refusal(saveScorecard(deps, w.owner, w.app, card(['Java 17'], ['4'])))
		expect(stale.message).toContain('attributes changed')
		expect((await refusal(saveScorecard(deps, w.owner, w.app, card(MUST, ['1', '1', '1'], 'no', 'x'.repeat(4001))))).fields?.[0]?.field).toBe('notes')
	})

	test('hiring managers on the job’s team write them; off the team the application is absent; viewers cannot', async () => {
		const deps = await testDeps()
		expect((await saveScorecard(deps, w.manager, w.app, card(MUST, ['3', '3', '3'], 'yes'))).added).toBe(true)
		expect((await refusal(saveScorecard(deps, w.outsider, w.app, card(MUST, ['3', '3', '3'])))).code).toBe('NOT_FOUND')
		expect((await refusal(saveScorecard(deps, w.viewer, w.app, card(MUST, ['3', '3', '3'])))).code).toBe('FORBIDDEN')
		expect((await refusal(saveScorecard(deps, w.recruiter, 'app_nope', card(MUST, ['3', '3', '3'])))).code).toBe('NOT_FOUND')
		// The off-team hiring manager sees nothing of them either (the port is only asked about reachable ids; the page 404s).
		const outsider = await signedIn(await newPerson(w.ws, 'hiring_manager', {}, deps))
		expect((await outsider.get(`/applications/${w.app}/scorecard`)).status).toBe(404)
	})

	test('a saved scorecard keeps what it rated when the job’s attributes change', async () => {
		const deps = await testDeps()
		const job = await newVendorJob(w.ws, { vendorId: (await newVendor(w.ws, 'Acme Vendor', deps)).vendorId }, deps)
		await deps.db
			.update(jobs)
			.set({ mustHave: ['Go'] })
			.where(eq(jobs.id, job))
		const app = await newApplication(w.ws, await newCandidate(w.ws, {}, deps), job, {}, deps)
		await saveScorecard(deps, w.recruiter, app, card(['Go'], ['4']))
		await setAttributes(deps, w.recruiter, job, ['Rust'])
		const [c] = (await scorecardsOf(deps, w.recruiter, [app])).get(app)!.scorecards
		expect(c!.ratings.map((r) => [r.attribute.text, r.rating])).toEqual([['Go', 4]])
		// The attribute was the vendor's must-have: labelled as the vendor's words.
		expect(c!.ratings[0]!.attribute.writtenBy).toBe('vendor')
	})
})

describe('AI interviews and get_application', () => {
	test('a completed AI interview is a scorecard of its own; get_application adds them with the notes labelled', async () => {
		const deps = await testDeps()
		const { id } = await inviteToInterview(deps, w.recruiter, { applicationId: w.app })
		await deps.db
			.update(interviews)
			.set({ status: 'completed', completedAt: new Date(), overallScore: 78, verdict: 'recommended' })
			.where(eq(interviews.id, id))
		const questions = await deps.db.select().from(interviewQuestions).where(eq(interviewQuestions.interviewId, id)).orderBy(interviewQuestions.position)
		for (const [i, q] of questions.entries())
			await deps.db
				.update(interviewQuestions)
				.set({ score: [95, 61, 40, 0, 100, 50][i] ?? 70 })
				.where(eq(interviewQuestions.id, q.id))

		const person = await mcpClient(w.ws, w.recruiterLogin.email)
		const got = await person.tool('get_application', { applicationId: w.app })
		expect(got.isError).toBe(false)
		const cards = got.data.application.scorecards
		const ai = cards.find((c: any) => c.source === 'ai_interview')
		expect(ai).toMatchObject({ id, interviewId: id, by: null, recommendation: 'yes', overallScore: 78, notes: null })
		expect(ai.ratings.map((r: any) => r.rating)).toEqual([5, 4, 2, 1, 5, 3].slice(0, questions.length))
		expect(ai.ratings[0].attribute).toMatchObject({ untrusted: true, writtenBy: 'colleague', text: 'Motivation' })
		const mine = cards.find((c: any) => c.by?.userId === w.recruiter.userId)
		// The recruiter's own scorecard: their own words.
		expect(mine.notes).toMatchObject({ untrusted: true, writtenBy: 'self' })
		expect(got.words.application.scorecards.find((c: any) => c.by?.userId === w.recruiter.userId).notes).toBe('Even better on a second look.')
		// The interview stays in the review queue: showing its scorecard is not opening its result.
		const queue = await person.tool('get_review_queue', {})
		expect(queue.words.items.map((i: any) => i.recordId)).toContain(id)
	})
})

describe('pages', () => {
	test('Add scorecard: the form, a refusal with the values kept, then the application page with the summary', async () => {
		const deps = await testDeps()
		const job = await newVendorJob(w.ws, { title: 'QA Lead' }, deps)
		await deps.db
			.update(jobs)
			.set({ mustHave: ['Selenium', 'API testing'] })
			.where(eq(jobs.id, job))
		const app = await newApplication(w.ws, await newCandidate(w.ws, { name: 'Bo Lee' }, deps), job, {}, deps)
		const client = await signedIn(w.recruiterLogin)
		const page = await client.get(`/applications/${app}`)
		expect(page.text).toContain('id="scorecards"')
		expect(page.text).toContain(`href="/applications/${app}/scorecard">Add scorecard</a>`)
		const form = await client.get(`/applications/${app}/scorecard`)
		expect(form.status).toBe(200)
		expect(form.text).toContain('<label for="rating-0">Selenium</label>')
		const refused = await client.post(`/applications/${app}/scorecard`, {
			attribute: ['Selenium', 'API testing'],
			'rating-0': '4',
			'rating-1': '',
			recommendation: 'yes',
			notes: 'Kept as typed: 5 > 4',
		})
		expect(refused.status).toBe(422)
		expect(refused.text).toContain('Rate “API testing” from 1 to 5')
		expect(refused.text).toContain('<option value="4" selected>')
		expect(refused.text).toContain('Kept as typed: 5 &gt; 4')
		const saved = await client.submit(`/applications/${app}/scorecard`, {
			attribute: ['Selenium', 'API testing'],
			'rating-0': '4',
			'rating-1': '2',
			recommendation: 'strong_yes',
			notes: 'Kept as typed: 5 > 4',
		})
		expect(saved.redirectedTo).toBe(`/applications/${app}?done=scorecard#done`)
		expect(saved.text).toContain('Your scorecard was saved.')
		expect(saved.text).toContain('Edit your scorecard')
		expect(saved.text).toContain('1 scorecard:')
		expect(saved.text).toContain('Strong yes')
		expect(saved.text).toContain('4 of 5 (Strong)')
		expect(saved.text).toContain('Kept as typed: 5 &gt; 4')
		// Editing shows what was saved.
		expect((await client.get(`/applications/${app}/scorecard`)).text).toContain('<option value="strong_yes" selected>')
	})

	test('the job page lists the attributes; Edit scorecard sets them', async () => {
		const deps = await testDeps()
		const job = await newVendorJob(w.ws, {}, deps)
		await deps.db
			.update(jobs)
			.set({ mustHave: ['Terraform'] })
			.where(eq(jobs.id, job))
		const client = await signedIn(w.recruiterLogin)
		const page = await client.get(`/jobs/${job}`)
		expect(page.text).toContain('id="scorecard"')
		expect(page.text).toContain('<li>Terraform</li>')
		const saved = await client.submit(`/jobs/${job}/scorecard`, { attributes: 'Terraform\nOn-call experience' })
		expect(saved.redirectedTo).toBe(`/jobs/${job}?done=scorecard-attributes#done`)
		expect(saved.text).toContain('The scorecard attributes were saved.')
		expect(saved.text).toContain('<li>On-call experience</li>')
		const refused = await client.post(`/jobs/${job}/scorecard`, { attributes: 'A\na' })
		expect(refused.status).toBe(422)
		expect(refused.text).toContain('twice')
	})
})
