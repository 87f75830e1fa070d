/**
 * MCP Apps on the wire, with the official SDK clients (v1, v2, and v2 in the 2026-07-28 era):
 * the extension is declared as the SDK defines it, each view is a `ui://benchline/…` resource of
 * type `text/html;profile=mcp-app` that its tools point at, and a client without the extension
 * gets the same tools and the same results as one with it.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client'
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server'
import { VIEW_CSP } from '../../core/mcp/apps/views.ts'
import { newPersonWithToken, newWorkspace } from '../helpers.ts'
import { appsFixture, rows, type AppsFixture } from './fixture.ts'

setDefaultTimeout(180_000)

const VIEWS: Record<string, string[]> = {
	'job-pipeline': ['get_job', 'get_job_applicants', 'list_applications'],
	'candidate-card': ['get_candidate', 'get_application'],
	'vendor-submission-check': ['check_vendor_submission'],
	'careers-analytics': ['get_analytics_summary'],
	calendar: ['get_calendar'],
}
const UI_CAPABILITY = { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } }
const KINDS = ['v1', 'v2', 'v2 with the extension', '2026-07-28', '2026-07-28 with the extension'] as const
type Kind = (typeof KINDS)[number]

let f: AppsFixture
beforeAll(async () => {
	f = await appsFixture()
}, 180_000)

/** An official client of the given kind, connected with `token`; the caller closes it. */
async function connect(kind: Kind, token: string): Promise<ClientV2> {
	const url = new URL(`${f.url}/api/mcp`)
	const requestInit = { headers: { Authorization: `Bearer ${token}` } }
	const capabilities = (kind.endsWith('with the extension') ? { extensions: UI_CAPABILITY } : {}) as never
	if (kind === 'v1') {
		const client = new ClientV1({ name: 'v1', version: '1.0.0' }, { capabilities })
		await client.connect(new TransportV1(url, { requestInit }))
		return client as unknown as ClientV2
	}
	const modern = kind.startsWith('2026')
	const client = new ClientV2({ name: 'v2', version: '1.0.0' }, { capabilities, ...(modern ? { versionNegotiation: { mode: 'auto' as const } } : {}) })
	await client.connect(new TransportV2(url, { requestInit }))
	if (modern) expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
	return client
}

describe('discovery', () => {
	test('the extension is declared in initialize (2025 handshake) and in server/discover (2026-07-28), in the SDK’s extensions map', async () => {
		for (const kind of KINDS) {
			const client = await connect(kind, f.people.recruiter.token)
			expect({ kind, capabilities: client.getServerCapabilities() }).toMatchObject({
				kind,
				capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, extensions: UI_CAPABILITY },
			})
			await client.close()
		}
	})

	test('each view is a ui://benchline resource of type text/html;profile=mcp-app, listed and read with the same _meta.ui; its tools point at it in both key styles', async () => {
		const client = await connect('v2 with the extension', f.people.owner.token)
		const { resources } = await client.listResources()
		expect(resources.map((r) => r.name).sort()).toEqual(Object.keys(VIEWS).sort())
		const uriOf = new Map<string, string>()
		for (const r of resources) {
			expect(r.uri).toMatch(new RegExp(`^ui://benchline/${r.name}-[0-9a-f]{12}\\.html$`))
			expect({ uri: r.uri, mimeType: r.mimeType, meta: r._meta }).toEqual({
				uri: r.uri,
				mimeType: RESOURCE_MIME_TYPE,
				meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } },
			})
			const { contents } = await client.readResource({ uri: r.uri })
			expect(contents).toHaveLength(1)
			const content = contents[0] as { uri: string; mimeType: string; text: string; _meta: unknown }
			expect({ uri: content.uri, mimeType: content.mimeType, meta: content._meta }).toEqual({ uri: r.uri, mimeType: RESOURCE_MIME_TYPE, meta: r._meta })
			expect(content.text).toStartWith('<!doctype html>')
			expect(content.text).toContain(`<meta http-equiv="Content-Security-Policy" content="${VIEW_CSP}">`)
			for (const tool of VIEWS[r.name]!) uriOf.set(tool, r.uri)
		}
		const { tools } = await client.listTools()
		for (const tool of tools) {
			const uri = uriOf.get(tool.name)
			const meta = tool._meta as Record<string, any> | undefined
			expect({ tool: tool.name, ui: meta?.ui, flat: meta?.['ui/resourceUri'] }).toEqual({
				tool: tool.name,
				ui: uri ? { resourceUri: uri } : undefined,
				flat: uri,
			})
		}
		await client.close()
	})

	test('a view is the same document for everyone (no data and no credential inside), listed only for people who may use one of its tools', async () => {
		const other = await newPersonWithToken(await newWorkspace(), 'owner')
		const html = async (token: string) => {
			const client = await connect('2026-07-28 with the extension', token)
			const out = new Map<string, string>()
			for (const r of (await client.listResources()).resources)
				out.set(r.uri, ((await client.readResource({ uri: r.uri })).contents[0] as { text: string }).text)
			await client.close()
			return out
		}
		const mine = await html(f.people.owner.token)
		expect(await html(other.token)).toEqual(mine)
		for (const text of mine.values()) expect(text).not.toMatch(/bl_(vk|pat|at|rt|code|ul)_/)

		const names = async (role: 'viewer' | 'hiring_manager') => {
			const client = await connect('v2', f.people[role].token)
			const listed = (await client.listResources()).resources
			const calendar = [...mine.keys()].find((uri) => uri.includes('/calendar-'))!
			const read = await client.readResource({ uri: calendar }).then(
				() => 'read',
				(error: Error) => error.message,
			)
			await client.close()
			return { views: listed.map((r) => r.name).sort(), calendar: read }
		}
		// Viewers read jobs only: the pipeline view (its get_job shows the counts per stage).
		expect(await names('viewer')).toEqual({ views: ['job-pipeline'], calendar: expect.stringContaining('not found') })
		// Hiring managers see no documents: no vendor submission check.
		expect(await names('hiring_manager')).toEqual({ views: ['calendar', 'candidate-card', 'careers-analytics', 'job-pipeline'], calendar: 'read' })
	})
})

describe('the tools a view calls itself', () => {
	test('each result a view shows lists which of them this person may use, in both eras (none for a viewer, the documents not for a hiring manager)', async () => {
		const usable = async (role: 'owner' | 'hiring_manager' | 'viewer', name: string, args: Record<string, unknown>) => {
			const out: unknown[] = []
			for (const kind of ['v2 with the extension', '2026-07-28'] as const) {
				const client = await connect(kind, f.people[role].token)
				const result = await client.callTool({ name, arguments: args })
				out.push((result._meta as Record<string, unknown> | undefined)?.['benchline/usable-tools'])
				await client.close()
			}
			expect(out[1]).toEqual(out[0])
			return out[0]
		}
		const sorted = (names: unknown) => [...(names as string[])].sort()
		expect(sorted(await usable('owner', 'get_job', { jobId: f.jobId }))).toEqual(['get_job_applicants', 'list_applications'])
		expect(await usable('viewer', 'get_job', { jobId: f.jobId })).toEqual([])
		expect(sorted(await usable('owner', 'get_application', { applicationId: f.cardApplicationId }))).toEqual(['get_application', 'list_candidate_documents'])
		expect(await usable('hiring_manager', 'get_job', { jobId: f.jobId })).toContain('list_applications')
		expect(await usable('owner', 'check_vendor_submission', { applicationId: f.cardApplicationId })).toEqual(['request_candidate_documents'])
		// A tool without a view carries none.
		expect(await usable('owner', 'list_jobs', {})).toBeUndefined()
	})
})

describe('clients without the extension', () => {
	test('get the same tools and the same results as clients with it, in both eras', async () => {
		// On a vendor's job, so check_vendor_submission has a vendor to check against.
		const [app] = await rows<{ id: string; candidateId: string }>(
			sql`select id, candidate_id as "candidateId" from applications where id = ${f.cardApplicationId}`,
		)
		const calls: [string, Record<string, unknown>][] = [
			['get_job', { jobId: f.jobId }],
			['get_job_applicants', { jobId: f.jobId }],
			['list_applications', { jobId: f.jobId }],
			['get_candidate', { candidateId: app!.candidateId }],
			['get_application', { applicationId: app!.id }],
			['check_vendor_submission', { applicationId: app!.id }],
			['get_analytics_summary', { range: 30 }],
			['get_calendar', { from: '2026-01-05', to: '2026-03-01', scope: 'workspace' }],
			['list_jobs', {}],
		]
		// The analytics window ends "now", so only its ends differ from one call to the next.
		const comparable = (name: string, result: any) => {
			if (name !== 'get_analytics_summary') return result
			const { from: _from, to: _to, ...rest } = result.structuredContent
			return { ...result, content: undefined, structuredContent: rest }
		}
		const seen = new Map<Kind, { tools: unknown; results: unknown[] }>()
		for (const kind of KINDS) {
			const client = await connect(kind, f.people.recruiter.token)
			const tools = (await client.listTools()).tools.sort((a, b) => a.name.localeCompare(b.name))
			const results = []
			for (const [name, args] of calls) {
				const result = (await client.callTool({ name, arguments: args })) as {
					isError?: boolean
					content: { type: string; text: string }[]
					structuredContent: unknown
				}
				expect({ name, isError: result.isError ?? false }).toEqual({ name, isError: false })
				expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent)
				results.push(comparable(name, { content: result.content, structuredContent: result.structuredContent }))
			}
			seen.set(kind, { tools, results })
			await client.close()
		}
		for (const kind of KINDS) expect({ kind, ...seen.get(kind) }).toEqual({ kind, ...seen.get('v1')! })
	})
})
