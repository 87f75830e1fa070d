/**
 * Keys from outside (a visitor's `utm_source`, a page's `?done=` or `?list=`) that name what every
 * JavaScript object inherits (`constructor`, `__proto__`, `toString`) are unknown keys: never a
 * function's source on a page, never a failed page. Lookup tables are read through `ownEntry`.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { AppDeps } from '../../core/deps.ts'
import { call, newPerson, newVendor, newWorkspace, newPersonWithToken, type TestWorkspace } from '../helpers.ts'
import { callTool } from '../mcp/rpc.ts'
import { portalApp, signedIn, type PortalClient } from '../portal.ts'
import { newVendorJob } from '../staffing-fixtures.ts'
import { sourceLabel } from '../../modules/analytics/sources.ts'

setDefaultTimeout(60_000)

const INHERITED = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']
/** What a page or an answer shows when it printed a built-in function or object. */
const LEAK = /native code|\[object Object\]|function [A-Za-z]*\(/

let deps: AppDeps
let ws: TestWorkspace
let owner: PortalClient
let token: string
let jobPath: string
let jobId: string

beforeAll(async () => {
	;({ deps } = await portalApp())
	ws = await newWorkspace(deps)
	owner = await signedIn(await newPerson(ws, 'owner', {}, deps))
	token = (await newPersonWithToken(ws, 'owner')).token
	const { apiKey } = await newVendor(ws)
	const res = await call('POST', '/api/v1/jobs', { key: apiKey, body: { vendorJobId: 'INH-1', title: 'Inherited Keys Engineer' } })
	jobId = await newVendorJob(ws, { title: 'Inherited Keys Analyst' }, deps)
	jobPath = new URL(res.json.job.url).pathname
})

describe('keys every object inherits', () => {
	test('a careers visit with utm_source=constructor or __proto__ is one more source, labelled as typed on the analytics page and in its tool', async () => {
		for (const source of INHERITED) expect((await call('GET', `${jobPath}?utm_source=${source}`)).status).toBe(200)
		const page = await owner.get('/analytics')
		expect(page.status).toBe(200)
		expect(page.text).not.toMatch(LEAK)
		for (const source of INHERITED) expect(sourceLabel(source)).toBe(source)
		const summary = await callTool(token, 'get_analytics_summary', {})
		expect(summary.isError).toBeFalsy()
		expect(JSON.stringify(summary)).not.toMatch(LEAK)
	})

	test("a job's page with ?list= an inherited name says there is no such list; ?done= one shows no notice", async () => {
		for (const key of INHERITED) {
			const list = await owner.get(`/jobs/${jobId}?list=${key}`)
			expect({ key, status: list.status }).toEqual({ key, status: 422 })
			expect(list.text).toContain(`has no list “${key}”`)
			expect(list.text).not.toMatch(LEAK)
			const done = await owner.get(`/jobs/${jobId}?done=${key}`)
			expect({ key, status: done.status, leak: LEAK.test(done.text) }).toEqual({ key, status: 200, leak: false })
		}
	})

	test('?done= an inherited name on the webhooks, templates and public privacy pages shows no notice', async () => {
		for (const key of INHERITED)
			for (const res of [
				await owner.get(`/settings/webhooks?done=${key}`),
				await owner.get(`/settings/templates?done=${key}`),
				await call('GET', `/careers/${ws.slug}/privacy?done=${key}`),
			])
				expect({ key, status: res.status, leak: LEAK.test(res.text) }).toEqual({ key, status: 200, leak: false })
	})
})
