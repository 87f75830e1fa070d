/** A job's pay range is in one unit: amounts up to 1,000 are hourly rates, larger ones yearly salaries (salary.ts). */
import { beforeAll, expect, test } from 'bun:test'
import { newPersonWithToken, newWorkspace, testApp, testDeps } from '../../tests/helpers.ts'
import { callTool } from '../../tests/mcp/rpc.ts'
import { personActor } from '../auth/index.ts'
import { payText } from './salary.ts'
import { createJob } from './service.ts'

beforeAll(() => testApp(), 60_000)

test('a range from an hourly rate to a yearly salary is refused naming salaryMin, through create_job and the service every door uses', async () => {
	const ws = await newWorkspace()
	const { token, email } = await newPersonWithToken(ws, 'recruiter')
	const result = await callTool(token, 'create_job', { title: 'Mixed Pay Engineer', salaryMin: 50, salaryMax: 150_000 })
	expect(result.isError).toBe(true)
	expect(JSON.stringify(result.content)).toContain('salaryMin')
	expect(JSON.stringify(result.content)).toContain('hourly')
	const deps = await testDeps()
	const actor = await personActor(deps, ws.slug, email)
	for (const [salaryMin, salaryMax] of [
		[50, 150_000],
		[1000, 1001],
	])
		await expect(createJob(deps, actor, { title: 'Mixed Pay Engineer', salaryMin, salaryMax })).rejects.toMatchObject({
			code: 'VALIDATION',
			fields: [{ field: 'salaryMin' }],
		})
	// One unit, or one bound (0 is no amount): accepted.
	for (const [salaryMin, salaryMax] of [
		[50, 1000],
		[90_000, 150_000],
		[0, 150_000],
		[0, 60],
	]) {
		const job = await createJob(deps, actor, { title: `Pay ${salaryMin}-${salaryMax}`, salaryMin, salaryMax })
		expect(payText(job)).not.toBeNull()
	}
})
