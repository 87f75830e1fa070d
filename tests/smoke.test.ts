import { expect, test } from 'bun:test'
import { call, newVendor, newWorkspace } from './helpers.ts'

test('a vendor publishes a job and reads it back', async () => {
	const ws = await newWorkspace()
	const { apiKey } = await newVendor(ws)
	const created = await call('POST', '/api/v1/jobs', { key: apiKey, body: { vendorJobId: 'A-1', title: 'QA Engineer' } })
	expect(created.status).toBe(201)
	expect(created.json.job.url).toContain(`/careers/${ws.slug}/jobs/qa-engineer-`)
	const got = await call('GET', '/api/v1/jobs/A-1', { key: apiKey })
	expect(got.json.job.title).toBe('QA Engineer')
	expect((await call('GET', '/health')).json).toMatchObject({ status: 'ok' })
})
