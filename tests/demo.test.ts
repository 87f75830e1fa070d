/**
 * The first start's demo workspace (core/demo.ts), built the way the server builds it on an empty
 * database: the details printed once work — the owner signs in with the printed password, and the
 * printed vendor key's "Try it" request lists that vendor's demo jobs.
 */
import { describe, expect, test } from 'bun:test'
import { buildDemoWorkspace } from '../core/demo.ts'
import { callOn, testApp, unique } from './helpers.ts'
import { portalApp, PortalClient, uniqueAddress } from './portal.ts'

describe('the demo workspace of the first start', () => {
	test('the printed sign-in works, the printed key lists its vendor’s demo jobs, and the lines point at the assistant set-up', async () => {
		const { app, deps } = await testApp()
		const slug = unique('demo').toLowerCase().slice(0, 30)
		const owner = `owner-${slug}@demo.benchline.test`
		const lines = await buildDemoWorkspace(deps, { slug, owner })
		const text = lines.join('\n')
		const key = /Vendor API key:\s+(bl_vk_[0-9A-Za-z]{36})/.exec(text)![1]!
		const password = new RegExp(`as ${owner} / (demo-[a-z2-7]+)`).exec(text)![1]!
		const jobsOwned = Number(/which owns (\d+) demo jobs/.exec(text)![1])
		expect(jobsOwned).toBeGreaterThan(0)
		expect(text).toContain(`Try it:             curl -H "Authorization: Bearer ${key}" http://localhost:3000/api/v1/jobs`)
		expect(text).toContain('http://localhost:3000/settings/api ("Connect an assistant"; help: http://localhost:3000/help/assistants)')

		const listed = await callOn(app, 'GET', '/api/v1/jobs', { key })
		expect(listed.status).toBe(200)
		expect(listed.json.jobs).toHaveLength(jobsOwned)
		expect(listed.json.jobs.some((j: { status: string }) => j.status === 'open')).toBe(true)

		const { app: portal } = await portalApp()
		const client = new PortalClient(portal, { address: uniqueAddress() })
		const signIn = await client.signIn(owner, password)
		expect(signIn.status).toBe(303)
		expect(signIn.headers.get('location')).toBe('/portal')
	}, 60_000)
})
