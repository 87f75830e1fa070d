import { describe, expect, test } from 'bun:test'
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client'
import { newPersonWithToken, newWorkspace, serveApp } from '../helpers.ts'

describe('official MCP clients with a personal token', () => {
	test('v1 client lists tools and calls list_jobs', async () => {
		const { url } = await serveApp()
		const ws = await newWorkspace()
		const owner = await newPersonWithToken(ws, 'owner')
		const client = new ClientV1({ name: 'test', version: '1.0.0' })
		await client.connect(new TransportV1(new URL(`${url}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${owner.token}` } } }))
		const { tools } = await client.listTools()
		expect(tools.map((t) => t.name)).toContain('list_jobs')
		const created = await client.callTool({ name: 'create_job', arguments: { title: 'Rust Engineer' } })
		expect(created.isError).toBeFalsy()
		const result = await client.callTool({ name: 'list_jobs', arguments: {} })
		expect((result.structuredContent as any).jobs[0].title).toMatchObject({ untrusted: true, text: 'Rust Engineer' })
		const bad = await client.callTool({ name: 'list_jobs', arguments: { bogus: 1 } })
		expect(bad.isError).toBe(true)
		expect(JSON.stringify(bad.content)).toContain('bogus')
		await client.close()
	})

	test('v2 client lists tools and calls get_job', async () => {
		const { url } = await serveApp()
		const ws = await newWorkspace()
		const owner = await newPersonWithToken(ws, 'owner')
		const client = new ClientV2({ name: 'test', version: '1.0.0' })
		await client.connect(new TransportV2(new URL(`${url}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${owner.token}` } } }))
		const { tools } = await client.listTools()
		expect(tools.length).toBeGreaterThan(3)
		const created = await client.callTool({ name: 'create_job', arguments: { title: 'Go Engineer', requirements: ['Go'] } })
		const jobId = (created.structuredContent as any).job.id
		const got = await client.callTool({ name: 'get_job', arguments: { jobId } })
		// The job this person created: its texts are their own words.
		expect((got.structuredContent as any).job.requirements).toEqual([{ untrusted: true, writtenBy: 'self', text: 'Go', truncated: false }])
		await client.close()
	})
})
