/**
 * The application page (`/applications/<id>`) for every role, in-process through the real sign-in
 * form, on a seeded workspace; and Move to stage (its service and its form).
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { runCommand } from '../../core/cli.ts'
import type { AppDeps } from '../../core/deps.ts'
import { escapeHtml, textOf } from '../../core/html.ts'
import { personActor } from '../auth/index.ts'
import { jobTeam } from '../jobs/table.ts'
import { scorecards } from '../scorecards/table.ts'
import { newPerson, newWorkspace, type TestWorkspace } from '../../tests/helpers.ts'
import { portalApp, signedIn, type PortalClient } from '../../tests/portal.ts'
import { newApplication, newCandidate, newVendorJob } from '../../tests/staffing-fixtures.ts'
import { getApplication } from './application-service.ts'
import { getCandidate } from './candidate-service.ts'
import { moveToStage } from './stage-move.ts'
import { notes, ratings } from './table.ts'

setDefaultTimeout(60_000)

type Who = 'owner' | 'admin' | 'recruiter' | 'otherRecruiter' | 'hmOnTeam' | 'hmOffTeam' | 'viewer' | 'stranger'
const ROLE: Record<Who, string> = {
	owner: 'owner',
	admin: 'admin',
	recruiter: 'recruiter',
	otherRecruiter: 'recruiter',
	hmOnTeam: 'hiring_manager',
	hmOffTeam: 'hiring_manager',
	viewer: 'viewer',
	stranger: 'owner',
}

let deps: AppDeps
let ws: TestWorkspace
const clients = {} as Record<Who, PortalClient>
const actors = {} as Record<Who, Actor>
/** An application on the job of the hiring manager's team, and one on another job. */
let onTeam: { id: string; candidateId: string; email: string; phone: string | null }
let offTeam: { id: string }

const rowsOf = <T>(query: ReturnType<typeof sql>) => deps.database.rows<T>(query)
const stageOf = async (id: string) =>
	(
		await rowsOf<{ stage: string; outcome: string | null; changed: Date | string }>(
			sql`select stage_key as stage, outcome, stage_changed_at as changed from applications where id = ${id}`,
		)
	)[0]!
const movesOf = (id: string) =>
	rowsOf<{ detail: { from: string; to: string }; credentialKind: string; actorName: string; actorUserId: string }>(
		sql`select detail, credential_kind as "credentialKind", actor_name as "actorName", actor_user_id as "actorUserId" from activity where target_id = ${id} and action = 'application.stage_changed' order by at, seq`,
	)

beforeAll(async () => {
	;({ deps } = await portalApp())
	ws = await newWorkspace(deps)
	const strangers = await newWorkspace(deps)
	for (const who of Object.keys(ROLE) as Who[]) {
		const person = await newPerson(who === 'stranger' ? strangers : ws, ROLE[who], {}, deps)
		actors[who] = await personActor(deps, who === 'stranger' ? strangers.slug : ws.slug, person.email)
		clients[who] = await signedIn(person)
	}
	await runCommand(deps, 'seed', { workspace: ws.slug })
	// The hiring manager's job: the one with a completed AI interview, so the page has every section.
	const [withInterview] = await rowsOf<{ id: string; jobId: string }>(
		sql`select a.id, a.job_id as "jobId" from applications a join interviews i on i.application_id = a.id join jobs j on j.id = a.job_id where a.workspace_id = ${ws.id} and i.status = 'completed' and j.vendor_id is not null order by a.id limit 1`,
	)
	await deps.db.insert(jobTeam).values({ jobId: withInterview!.jobId, userId: actors.hmOnTeam.userId! })
	const [a] = await rowsOf<{ id: string; candidateId: string; email: string; phone: string | null }>(
		sql`select a.id, a.candidate_id as "candidateId", c.email, c.phone from applications a join candidates c on c.id = a.candidate_id where a.id = ${withInterview!.id}`,
	)
	onTeam = a!
	;[offTeam] = (await rowsOf<{ id: string }>(
		sql`select id from applications where workspace_id = ${ws.id} and job_id <> ${withInterview!.jobId} order by id limit 1`,
	)) as [{ id: string }]
	// A private note by the recruiter: only they, owners and admins may read it.
	await deps.db.insert(notes).values({
		id: `note_private_${ws.id}`,
		workspaceId: ws.id,
		candidateId: onTeam.candidateId,
		applicationId: onTeam.id,
		authorUserId: actors.recruiter.userId!,
		body: 'Private: expects 95/hour, keep between us',
		visibility: 'private',
	})
}, 180_000)

describe('the application page, role by role', () => {
	test('owners, admins and recruiters open every application; hiring managers only their jobs’; viewers none; other workspaces none — never a 500', async () => {
		const expected: Record<Who, [number, number]> = {
			owner: [200, 200],
			admin: [200, 200],
			recruiter: [200, 200],
			otherRecruiter: [200, 200],
			hmOnTeam: [200, 404],
			hmOffTeam: [404, 404],
			viewer: [403, 403],
			stranger: [404, 404],
		}
		const absent = await clients.hmOffTeam.get('/applications/app_does_not_exist')
		for (const who of Object.keys(expected) as Who[]) {
			const [mine, other] = await Promise.all([clients[who].get(`/applications/${onTeam.id}`), clients[who].get(`/applications/${offTeam.id}`)])
			expect({ who, statuses: [mine.status, other.status] }).toEqual({ who, statuses: expected[who] })
			// Out of reach reads exactly like absent.
			if (mine.status === 404) expect(mine.text).toBe(absent.text)
		}
		expect(absent.status).toBe(404)
		expect((await clients.owner.get(`/applications/${'x'.repeat(300)}`)).status).toBe(404)
		expect((await clients.owner.get(`/applications/${onTeam.id}?check=everything`)).status).toBe(422)
		expect((await clients.owner.get(`/applications/${onTeam.id}?utm_source=mail&done=${'x'.repeat(30)}`)).status).toBe(200)
		expect((await clients.owner.get(`/applications/${onTeam.id}?done=${'x'.repeat(41)}`)).status).toBe(422)
	})

	test('a recruiter sees the candidate, the job, the stage, the résumé check item by item, interviews, submission, messages, ratings and notes', async () => {
		const page = (await clients.recruiter.get(`/applications/${onTeam.id}`)).text
		const app = await getApplication(deps, actors.recruiter, onTeam.id)
		expect(page).toContain(`<h1>${app.candidate.name}</h1>`)
		expect(page).toContain(`href="/jobs/${app.job.id}"`)
		expect(page).toContain(onTeam.email)
		// The résumé check: each must-have with "found" or "missing" in words, and the résumé line that matched.
		for (const item of app.resumeCheck!.items) {
			const row = page.slice(page.indexOf(`<td data-label="Must-have"><div class="cell">${escapeHtml(textOf(item.requirement))}</div></td>`))
			expect(row.length).toBeLessThan(page.length)
			expect(row.slice(0, row.indexOf('</tr>'))).toContain(item.status === 'met' ? '>found</strong>' : '>missing</strong>')
			if (item.status === 'met' && item.evidence) expect(row.slice(0, row.indexOf('</tr>'))).toContain(escapeHtml(item.evidence.text))
		}
		for (const heading of ['Résumé check', 'AI interview results', 'Vendor submission', 'Messages', 'Ratings', 'Notes'])
			expect(page).toContain(`>${heading}</h2>`)
		expect(page).toContain('Check vendor submission')
		expect(page).toContain('Move to stage')
		expect(page).toContain('Private: expects 95/hour')
		// The interview result: every question, the verdict in words.
		const [interview] = await rowsOf<{ id: string }>(
			sql`select id from interviews where application_id = ${onTeam.id} and status = 'completed' order by completed_at desc limit 1`,
		)
		const questions = await rowsOf<{ prompt: string }>(sql`select prompt from interview_questions where interview_id = ${interview!.id}`)
		for (const q of questions) expect(page).toContain(escapeHtml(q.prompt))
		expect(page).toMatch(/>(recommended|worth considering|not recommended)<\/strong>/)
	})

	test('private notes only for their author, owners and admins', async () => {
		for (const who of ['recruiter', 'owner', 'admin'] as const)
			expect((await clients[who].get(`/applications/${onTeam.id}`)).text).toContain('Private: expects 95/hour')
		for (const who of ['otherRecruiter', 'hmOnTeam'] as const)
			expect((await clients[who].get(`/applications/${onTeam.id}`)).text).not.toContain('Private: expects 95/hour')
	})

	test('a hiring manager’s page has no contact details, no documents and no messages', async () => {
		// Read without the break points addresses carry (<wbr>), so an address shown in pieces is still found.
		const page = (await clients.hmOnTeam.get(`/applications/${onTeam.id}`)).text.replaceAll('<wbr>', '')
		expect(page).not.toContain(onTeam.email)
		if (onTeam.phone) expect(page).not.toContain(onTeam.phone)
		expect(page).toContain('Hidden for your role')
		for (const absent of ['Vendor submission</h2>', 'Check vendor submission', 'Submit to vendor', '/submit-to-vendor', '/upload/', 'Messages</h2>', 'mailto:'])
			expect(page).not.toContain(absent)
		expect(page).toContain('AI interview results')
		expect(page).toContain('Move to stage')
	})

	test('résumé lines shown as evidence and screening answers have contact details blanked for hiring managers (page and tool alike)', async () => {
		const candidateId = await newCandidate(ws, { name: 'Evi Dence', email: 'evi.dence@example.test' }, deps)
		await deps.database.rows(
			sql`update candidates set resume_text = ${'Evi Dence · evi.dence@example.test · +1 (512) 555-0188 · Kotlin and Java developer'} where id = ${candidateId}`,
		)
		const jobId = await newVendorJob(ws, { title: 'Kotlin Developer' }, deps)
		await deps.database.rows(sql`update jobs set must_have = array['Kotlin'] where id = ${jobId}`)
		await deps.db.insert(jobTeam).values({ jobId, userId: actors.hmOnTeam.userId! })
		const id = await newApplication(ws, candidateId, jobId, {}, deps)
		await deps.database.rows(sql`insert into job_questions (id, job_id, position, prompt) values (${`q_${id}`}, ${jobId}, 1, 'How can we reach you?')`)
		await deps.database.rows(
			sql`insert into application_answers (application_id, question_id, answer) values (${id}, ${`q_${id}`}, 'Call me on 512-555-0177 or write to evi@home.example')`,
		)
		const hm = await getApplication(deps, actors.hmOnTeam, id)
		expect(hm.answers[0]!.answer.text).toBe('Call me on [phone hidden] or write to [e-mail hidden]')
		expect(hm.resumeCheck!.items[0]!.status).toBe('met')
		expect(hm.resumeCheck!.items[0]!.evidence!.text).toContain('[e-mail hidden]')
		expect(hm.resumeCheck!.items[0]!.evidence!.text).not.toContain('evi.dence@')
		expect(hm.resumeCheck!.items[0]!.evidence!.text).not.toContain('555-0188')
		const page = (await clients.hmOnTeam.get(`/applications/${id}`)).text
		expect(page).not.toContain('evi.dence@')
		expect(page).not.toContain('555-0188')
		expect(page).not.toContain('evi@home')
		// Those who may see contact details see the line as written.
		expect((await getApplication(deps, actors.recruiter, id)).resumeCheck!.items[0]!.evidence!.text).toContain('evi.dence@example.test')
	})

	test('colleagues’ notes, scorecard notes and rating comments have contact details blanked for hiring managers (both pages and the services); their own words stay', async () => {
		const candidateId = await newCandidate(ws, { name: 'Noa Notewell', email: 'noa.notewell@example.test' }, deps)
		const jobId = await newVendorJob(ws, { title: 'Scala Developer' }, deps)
		await deps.db.insert(jobTeam).values({ jobId, userId: actors.hmOnTeam.userId! })
		const id = await newApplication(ws, candidateId, jobId, {}, deps)
		const recruiter = actors.recruiter.userId!
		const written = (what: string) => `${what}: call Noa on 512-555-0144 or write to noa@home.example`
		const hidden = (what: string) => `${what}: call Noa on [phone hidden] or write to [e-mail hidden]`
		const own = 'Manager note: my desk is 512-555-0199'
		const note = { workspaceId: ws.id, candidateId, visibility: 'shared' }
		await deps.db.insert(notes).values([
			{ ...note, id: `note_about_${id}`, applicationId: id, authorUserId: recruiter, body: written('Note') },
			{ ...note, id: `note_own_${id}`, applicationId: id, authorUserId: actors.hmOnTeam.userId!, body: own },
		])
		await deps.db
			.insert(scorecards)
			.values({ id: `scd_${id}`, workspaceId: ws.id, applicationId: id, authorUserId: recruiter, recommendation: 'yes', notes: written('Scorecard') })
		await deps.db.insert(ratings).values({ id: `rat_${id}`, applicationId: id, userId: recruiter, score: 4, comment: written('Rating') })

		const bodies = (n: { body: { text: string } }[]) => n.map((x) => x.body.text).sort()
		const hm = await getApplication(deps, actors.hmOnTeam, id)
		expect(bodies(hm.notes)).toEqual([own, hidden('Note')])
		expect(hm.scorecards.map((c) => c.notes?.text)).toEqual([hidden('Scorecard')])
		expect(hm.ratings.map((r) => r.comment?.text)).toEqual([hidden('Rating')])
		expect(bodies((await getCandidate(deps, actors.hmOnTeam, candidateId)).notes)).toEqual(bodies(hm.notes))
		for (const path of [`/applications/${id}`, `/candidates/${candidateId}`]) {
			const page = (await clients.hmOnTeam.get(path)).text.replaceAll('<wbr>', '')
			expect({ path, phone: page.includes('555-0144'), email: page.includes('noa@home'), own: page.includes('512-555-0199') }).toEqual({
				path,
				phone: false,
				email: false,
				own: true,
			})
			expect(page).toContain(hidden('Note'))
		}
		expect((await clients.hmOnTeam.get(`/applications/${id}`)).text).toContain(hidden('Scorecard'))
		// Those who may see contact details read every one as written.
		const full = await getApplication(deps, actors.recruiter, id)
		expect(bodies(full.notes)).toEqual([own, written('Note')])
		expect(full.scorecards.map((c) => c.notes?.text)).toEqual([written('Scorecard')])
		expect(full.ratings.map((r) => r.comment?.text)).toEqual([written('Rating')])
	})
})

describe('Move to stage', () => {
	test('the form moves the application, answers 303 with a notice, and logs the move with the portal session', async () => {
		const id = offTeam.id
		await deps.database.rows(sql`update applications set stage_key = 'applied', outcome = null where id = ${id}`)
		const before = await stageOf(id)
		await clients.recruiter.get(`/applications/${id}`)
		const moved = await clients.recruiter.post(`/applications/${id}/stage`, { stageKey: 'screening' })
		expect(moved.status).toBe(303)
		expect(moved.headers.get('location')).toBe(`/applications/${id}?done=stage#done`)
		const after = await stageOf(id)
		expect(after.stage).toBe('screening')
		expect(new Date(after.changed).getTime()).toBeGreaterThanOrEqual(new Date(before.changed).getTime())
		const shown = await clients.recruiter.get(moved.headers.get('location')!)
		expect(shown.text).toContain('Moved to Screening.')
		expect(shown.text).toMatch(/<option value="screening" selected>/)
		expect((await movesOf(id)).at(-1)).toMatchObject({
			detail: { from: 'applied', to: 'screening' },
			credentialKind: 'session',
			actorName: actors.recruiter.name,
		})

		// The same stage again changes nothing and logs nothing.
		const count = (await movesOf(id)).length
		const again = await clients.recruiter.submit(`/applications/${id}/stage`, { stageKey: 'screening' })
		expect(again.redirectedTo).toBe(`/applications/${id}?done=stage-unchanged#done`)
		expect(again.text).toContain('already in Screening; nothing changed')
		expect((await movesOf(id)).length).toBe(count)
		expect((await stageOf(id)).changed).toEqual(after.changed)
	})

	test('an unknown stage is refused with 422 on the page, saying so; a post without the CSRF token is 403; nothing changes', async () => {
		const id = offTeam.id
		const stage = (await stageOf(id)).stage
		await clients.owner.get(`/applications/${id}`)
		const bad = await clients.owner.post(`/applications/${id}/stage`, { stageKey: 'on_the_moon' })
		expect(bad.status).toBe(422)
		expect(bad.text).toContain('<title>Error: ')
		expect(bad.text).toContain('There is a problem')
		expect(bad.text).toContain('href="#move-stage"')
		expect(bad.text).toContain('“on_the_moon” is not a stage of this workspace')
		expect(bad.text).toContain('aria-invalid="true"')
		const noToken = await clients.owner.request('POST', `/applications/${id}/stage`, { form: { stageKey: 'offer' } })
		expect(noToken.status).toBe(403)
		const wrongToken = await clients.owner.post(`/applications/${id}/stage`, { stageKey: 'offer', csrf: 'x'.repeat(32) })
		expect(wrongToken.status).toBe(403)
		expect((await stageOf(id)).stage).toBe(stage)
	})

	test('each role: owners, admins, recruiters move; hiring managers only on their jobs (404 elsewhere); viewers 403; other workspaces 404', async () => {
		const expected: Record<Who, [number, number]> = {
			owner: [303, 303],
			admin: [303, 303],
			recruiter: [303, 303],
			otherRecruiter: [303, 303],
			hmOnTeam: [303, 404],
			hmOffTeam: [404, 404],
			viewer: [403, 403],
			stranger: [404, 404],
		}
		const stages = ['screening', 'submitted']
		for (const [i, who] of (Object.keys(expected) as Who[]).entries()) {
			await clients[who].get('/portal')
			const statuses = []
			for (const id of [onTeam.id, offTeam.id]) statuses.push((await clients[who].post(`/applications/${id}/stage`, { stageKey: stages[i % 2]! })).status)
			expect({ who, statuses }).toEqual({ who, statuses: expected[who] })
		}
		// What the refused ones tried left no trace.
		const movers = async (id: string) => (await movesOf(id)).map((m) => m.actorUserId)
		for (const who of ['hmOffTeam', 'viewer', 'stranger'] as const) expect(await movers(onTeam.id)).not.toContain(actors[who].userId!)
		for (const who of ['hmOnTeam', 'hmOffTeam', 'viewer', 'stranger'] as const) expect(await movers(offTeam.id)).not.toContain(actors[who].userId!)
		expect(await movers(onTeam.id)).toContain(actors.hmOnTeam.userId!)
	})

	test('the service: the workspace’s own stages only, hired sets and clears the outcome (a rejected or withdrawn one stays), permission and reach checked', async () => {
		const other = await newWorkspace(deps)
		const jobId = await newVendorJob(other, {}, deps)
		const id = await newApplication(other, await newCandidate(other, {}, deps), jobId, {}, deps)
		await deps.database.rows(
			sql`insert into pipeline_stages (workspace_id, key, label, position) values (${other.id}, 'applied', 'New', 1), (${other.id}, 'tech_screen', 'Technical screen', 2), (${other.id}, 'hired', 'Placed', 3)`,
		)
		const owner = await personActor(deps, other.slug, (await newPerson(other, 'owner', {}, deps)).email)
		const viewer = await personActor(deps, other.slug, (await newPerson(other, 'viewer', {}, deps)).email)
		expect(await moveToStage(deps, owner, { applicationId: id, stageKey: 'tech_screen' })).toMatchObject({
			changed: true,
			from: { key: 'applied', label: 'New' },
			to: { key: 'tech_screen', label: 'Technical screen' },
		})
		// A default stage this workspace does not have.
		await expect(moveToStage(deps, owner, { applicationId: id, stageKey: 'offer' })).rejects.toMatchObject({
			code: 'VALIDATION',
			fields: [{ field: 'stageKey', message: expect.stringContaining('applied, tech_screen, hired') }],
		})
		await moveToStage(deps, owner, { applicationId: id, stageKey: 'hired' })
		expect((await stageOf(id)).outcome).toBe('hired')
		await moveToStage(deps, owner, { applicationId: id, stageKey: 'tech_screen' })
		expect((await stageOf(id)).outcome).toBeNull()
		await deps.database.rows(sql`update applications set outcome = 'rejected' where id = ${id}`)
		await moveToStage(deps, owner, { applicationId: id, stageKey: 'applied' })
		expect((await stageOf(id)).outcome).toBe('rejected')
		// A rejected or withdrawn application keeps its outcome into Hired and out of it.
		for (const outcome of ['rejected', 'withdrawn']) {
			await deps.database.rows(sql`update applications set outcome = ${outcome} where id = ${id}`)
			for (const stageKey of ['hired', 'tech_screen']) {
				await moveToStage(deps, owner, { applicationId: id, stageKey })
				expect({ stageKey, ...(await stageOf(id)) }).toMatchObject({ stageKey, stage: stageKey, outcome })
			}
		}
		await expect(moveToStage(deps, viewer, { applicationId: id, stageKey: 'tech_screen' })).rejects.toMatchObject({ code: 'FORBIDDEN' })
		// Out of reach (another workspace) is absent, whatever the stage.
		await expect(moveToStage(deps, actors.owner, { applicationId: id, stageKey: 'nowhere' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
	})

	test('two moves of one application at once: one after the other, the last wins, each logs the stage it really left', async () => {
		const id = onTeam.id
		await deps.database.rows(sql`update applications set stage_key = 'applied', outcome = null where id = ${id}`)
		const logged = (await movesOf(id)).length
		const results = await Promise.all(
			['offer', 'client_interview', 'submitted', 'screening'].map((stageKey, i) =>
				moveToStage(deps, [actors.owner, actors.recruiter, actors.admin, actors.hmOnTeam][i]!, { applicationId: id, stageKey }),
			),
		)
		expect(results.every((r) => r.changed)).toBe(true)
		const moves = (await movesOf(id)).slice(logged)
		expect(moves).toHaveLength(4)
		// A chain: each move left the stage another one entered (the log's times are when each
		// transaction began, so the chain is followed by stage), and the row ends where it ends.
		let stage = 'applied'
		const left = [...moves]
		while (left.length) {
			const next = left.findIndex((m) => m.detail.from === stage)
			expect({ from: stage, found: next >= 0 }).toEqual({ from: stage, found: true })
			stage = left.splice(next, 1)[0]!.detail.to
		}
		expect((await stageOf(id)).stage).toBe(stage)
	})
})
