/**
 * Add to bench on the candidate page (the service behind `add_to_bench`): CSRF, bad input with the
 * values kept, Post/Redirect/Get with a notice and an activity line, adding twice changes nothing,
 * and who sees the section.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { operatorActor } from '../auth/index.ts'
import { activityOf, candidatePageWorld, confirmations, postWithoutToken, summaryErrors, type CandidatePageWorld } from '../../tests/candidate-pages.ts'
import { newVendorJob } from '../../tests/staffing-fixtures.ts'
import { addToBench } from './service.ts'

setDefaultTimeout(60_000)

let w: CandidatePageWorld
const path = () => `/candidates/${w.onTeam.id}/bench`
const entries = async () =>
	w.deps.database.rows<{ roleFamily: string; jobId: string | null }>(
		sql`select role_family as "roleFamily", job_id as "jobId" from bench_entries where candidate_id = ${w.onTeam.id} order by role_family`,
	)

beforeAll(async () => {
	w = await candidatePageWorld()
}, 120_000)

describe('Add to bench', () => {
	test('a post without the CSRF token is refused and adds nothing', async () => {
		expect((await postWithoutToken(w.people.recruiter, path(), { roleFamily: 'java' })).status).toBe(403)
		expect(await entries()).toEqual([])
	})

	test('bad input is answered 422 with the field’s message and the values kept', async () => {
		const recruiter = w.people.recruiter
		await recruiter.get(`/candidates/${w.onTeam.id}`)
		const none = await recruiter.post(path(), { roleFamily: '', jobId: w.onTeam.jobId })
		expect(none.status).toBe(422)
		expect(summaryErrors(none.text)).toEqual(['Role family must be chosen.'])
		expect(none.text).toContain(`<option value="${w.onTeam.jobId}" selected>`)
		const unknown = await recruiter.post(path(), { roleFamily: 'astrology' })
		expect(unknown.status).toBe(422)
		expect(summaryErrors(unknown.text)[0]).toStartWith('Role family must be one of java, dotnet')
		// A job of another workspace is not one of the jobs offered.
		const foreignJob = await newVendorJob(w.other, {}, w.deps)
		const otherJob = await recruiter.post(path(), { roleFamily: 'java', jobId: foreignJob })
		expect(otherJob.status).toBe(422)
		expect(summaryErrors(otherJob.text)).toEqual(['Job must be one of the jobs listed.'])
		expect(otherJob.text).toContain('<option value="java" selected>')
		expect(await entries()).toEqual([])
	})

	test('added with Post/Redirect/Get, a notice and an activity line; adding again changes nothing and says so', async () => {
		const recruiter = w.people.recruiter
		await recruiter.get(`/candidates/${w.onTeam.id}`)
		const res = await recruiter.post(path(), { roleFamily: 'java', jobId: w.onTeam.jobId })
		expect(res.status).toBe(303)
		expect(res.headers.get('location')).toBe(`/candidates/${w.onTeam.id}?done=bench-added#done`)
		const page = await recruiter.get(res.headers.get('location')!)
		expect(confirmations(page.text)).toEqual([{ text: 'Added to the bench.', form: 'add-to-bench', afterButton: true, takesFocus: true }])
		expect(page.text).toContain(`<a href="/jobs/${w.onTeam.jobId}">Kafka Engineer</a>`)
		expect(await entries()).toEqual([{ roleFamily: 'java', jobId: w.onTeam.jobId }])
		const [line] = await activityOf(w.deps, w.ws, 'bench.added')
		expect(line).toMatchObject({
			actorUserId: w.userIds.recruiter,
			credentialKind: 'session',
			targetId: w.onTeam.id,
			detail: { roleFamily: 'java', jobId: w.onTeam.jobId },
		})
		const again = await recruiter.post(path(), { roleFamily: 'java' })
		expect(again.headers.get('location')).toBe(`/candidates/${w.onTeam.id}?done=bench-unchanged#done`)
		expect(confirmations((await recruiter.get(again.headers.get('location')!)).text)).toEqual([
			{ text: 'The candidate is already on that bench: nothing changed.', form: 'add-to-bench', afterButton: true, takesFocus: true },
		])
		expect(await activityOf(w.deps, w.ws, 'bench.added')).toHaveLength(1)
	})

	test('every door refuses an unknown role family (the service checks it, not only the MCP schema)', async () => {
		await expect(addToBench(w.deps, operatorActor(w.ws), { candidateId: w.onTeam.id, roleFamily: 'astrology' as never })).rejects.toMatchObject({
			code: 'VALIDATION',
		})
	})

	test('hiring managers and viewers have no bench section, and their posts are refused (403)', async () => {
		for (const role of ['hiring_manager', 'viewer'] as const) {
			const client = w.people[role]
			await client.get('/portal')
			expect((await client.post(path(), { roleFamily: 'qa' })).status).toBe(403)
		}
		expect((await w.people.hiring_manager.get(`/candidates/${w.onTeam.id}`)).text).not.toContain('id="bench"')
		expect((await entries()).map((e) => e.roleFamily)).not.toContain('qa')
	})
})
