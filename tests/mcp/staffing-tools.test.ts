/**
 * The vendor, lookup, document and submission tools through the official MCP client (SDK v2) on a
 * real loopback server, for every role: which tools each role is shown, what each call returns or
 * refuses, the tool annotations and parameter limits, and the submission status shown with the
 * application by get_application and get_job_applicants.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { newId } from '../../core/credentials.ts'
import { fileStore } from '../../core/files.ts'
import { operatorActor, personActor } from '../../modules/auth/index.ts'
import { samplePdf } from '../../modules/documents/seed.ts'
import { candidateDocuments } from '../../modules/documents/table.ts'
import { jobTeam } from '../../modules/jobs/table.ts'
import { addLookup } from '../../modules/lookups/index.ts'
import { newPersonWithToken, newWorkspace, plain, serveApp, type TestWorkspace } from '../helpers.ts'
import { newApplication, newCandidate, newSubmissionVendor, newVendorJob } from '../staffing-fixtures.ts'

setDefaultTimeout(30_000)

const ROLES = ['owner', 'admin', 'recruiter', 'hiring_manager', 'viewer'] as const
type Role = (typeof ROLES)[number]
const TOOLS = [
	'list_vendors',
	'get_vendor',
	'list_staffing_lookups',
	'list_candidate_documents',
	'check_vendor_submission',
	'request_candidate_documents',
	'submit_to_vendor',
] as const
type Tool = (typeof TOOLS)[number]

const SHOWN: Record<Role, Tool[]> = {
	owner: [...TOOLS],
	admin: [...TOOLS],
	recruiter: [...TOOLS],
	hiring_manager: ['list_staffing_lookups'],
	viewer: [],
}

interface World {
	ws: TestWorkspace
	clients: Record<Role, Client>
	vendorId: string
	candidateId: string
	managerId: string
	/** One application per role, each on its own job of the vendor (hiring managers are on every team). */
	apps: Record<Role, { applicationId: string; jobId: string }>
}
let world: World

beforeAll(async () => {
	const { url, deps } = await serveApp()
	const ws = await newWorkspace()
	const vendorId = await newSubmissionVendor(ws, { rules: { always: ['dl', 'workAuth'], byWorkAuthorization: { H1B: ['visa', 'i94'] } } }, deps)
	const candidateId = await newCandidate(ws, { name: 'Mei Chen', workAuthorization: 'GC' }, deps)
	for (const kind of ['dl', 'workAuth'] as const) {
		const id = newId('doc')
		const key = `documents/${ws.id}/${candidateId}/${id}.pdf`
		const bytes = samplePdf(`${kind} of Mei`)
		await fileStore(deps.config).put(key, bytes, 'application/pdf')
		await deps.db
			.insert(candidateDocuments)
			.values({ id, workspaceId: ws.id, candidateId, kind, fileName: `${kind}.pdf`, contentType: 'application/pdf', sizeBytes: bytes.length, storageKey: key })
	}
	for (const [kind, name] of [
		['client', 'Harbor Mutual Insurance'],
		['client', 'Atlas Logistics'],
		['vendor', 'Keystone Talent'],
	] as const)
		await addLookup(deps, operatorActor(ws), { kind, name })

	const people = Object.fromEntries(await Promise.all(ROLES.map(async (r) => [r, await newPersonWithToken(ws, r)] as const))) as Record<
		Role,
		Awaited<ReturnType<typeof newPersonWithToken>>
	>
	const manager = await personActor(deps, ws.slug, people.hiring_manager.email)
	const apps = {} as World['apps']
	for (const role of ROLES) {
		const jobId = await newVendorJob(ws, { vendorId, title: `Data Engineer for ${role}` }, deps)
		await deps.db.insert(jobTeam).values({ jobId, userId: manager.userId!, teamRole: 'hiring_manager' })
		apps[role] = { jobId, applicationId: await newApplication(ws, candidateId, jobId, {}, deps) }
	}
	const clients = {} as Record<Role, Client>
	for (const role of ROLES) {
		const client = new Client({ name: `test-${role}`, version: '1.0.0' })
		await client.connect(
			new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${people[role].token}` } } }),
		)
		clients[role] = client
	}
	world = { ws, clients, vendorId, candidateId, managerId: manager.userId!, apps }
}, 60_000)

afterAll(async () => {
	for (const c of Object.values(world?.clients ?? {})) await c.close()
})

/** The structured result as words (labels taken off: they are checked where they matter, and in tool-results.test.ts). */
const sc = (r: { structuredContent?: unknown }) => plain(r.structuredContent)
const textOf = (r: { content?: unknown }) => JSON.stringify(r.content)

/** A call to a tool the role is not shown fails (as a tool error or a protocol error). */
async function refused(client: Client, name: string, args: Record<string, unknown>) {
	try {
		const result = await client.callTool({ name, arguments: args })
		expect(result.isError).toBe(true)
	} catch (error) {
		expect(String(error)).toMatch(/not found|unknown tool|invalid/i)
	}
}

describe('what each role is shown', () => {
	test.each(ROLES)('%s', async (role) => {
		const { tools } = await world.clients[role].listTools()
		const mine = tools.filter((t) => (TOOLS as readonly string[]).includes(t.name))
		expect(mine.map((t) => t.name).sort()).toEqual([...SHOWN[role]].sort())
		for (const t of mine) {
			const write = t.name === 'request_candidate_documents' || t.name === 'submit_to_vendor'
			expect(t.annotations?.readOnlyHint).toBe(!write)
			expect(t.annotations?.openWorldHint).toBe(write)
			expect((t.inputSchema as { additionalProperties?: boolean }).additionalProperties).toBe(false)
		}
	})
})

describe('what each role gets from each tool', () => {
	test.each(ROLES)('%s', async (role) => {
		const client = world.clients[role]
		const shown = (t: Tool) => SHOWN[role].includes(t)
		const { applicationId } = world.apps[role]
		const calls: Record<Tool, [Record<string, unknown>, (r: any) => void]> = {
			list_vendors: [
				{ limit: 10 },
				(r) =>
					expect(sc(r).vendors).toContainEqual(
						expect.objectContaining({ id: world.vendorId, name: 'Acme Staffing', submissionMethod: 'email', openJobCount: 5 }),
					),
			],
			get_vendor: [
				{ vendorId: world.vendorId },
				(r) => {
					expect(sc(r).vendor).toMatchObject({
						contact: { name: 'Vera Vendor', email: 'vera@acme.example' },
						documentRules: { always: ['dl', 'workAuth'], byWorkAuthorization: { H1B: ['visa', 'i94'] } },
					})
					// The vendor's name and contact are its words: labelled.
					expect(r.structuredContent.vendor.contact.name).toEqual({ untrusted: true, writtenBy: 'vendor', text: 'Vera Vendor', truncated: false })
				},
			],
			list_staffing_lookups: [
				{ kind: 'client', query: 'insur' },
				(r) =>
					expect(r.structuredContent.values.map((v: any) => v.name)).toEqual([
						{ untrusted: true, writtenBy: 'colleague', text: 'Harbor Mutual Insurance', truncated: false },
					]),
			],
			list_candidate_documents: [
				{ candidateId: world.candidateId },
				(r) => expect(sc(r)).toMatchObject({ onFile: ['dl', 'workAuth'], notOnFile: ['visa', 'i94'] }),
			],
			check_vendor_submission: [{ applicationId }, (r) => expect(sc(r)).toMatchObject({ required: ['dl', 'workAuth'], missing: [], ready: true })],
			request_candidate_documents: [
				{ candidateId: world.candidateId, items: ['visa'], message: 'Please send your visa.' },
				(r) =>
					expect(sc(r).request).toMatchObject({
						items: ['visa'],
						applicationId: expect.any(String),
						email: { status: 'queued' },
						message: { status: 'not_sent' },
					}),
			],
			submit_to_vendor: [
				{ applicationId, documents: ['dl', 'workAuth'], note: `Submitted by ${role}` },
				(r) =>
					expect(sc(r).submission).toMatchObject({
						applicationId,
						vendor: { id: world.vendorId },
						documents: ['dl', 'workAuth'],
						note: `Submitted by ${role}`,
						delivery: 'queued',
					}),
			],
		}
		for (const tool of TOOLS) {
			const [args, check] = calls[tool]
			if (!shown(tool)) {
				await refused(client, tool, args)
				continue
			}
			const result = await client.callTool({ name: tool, arguments: args })
			expect(result.isError, `${role} ${tool}: ${textOf(result)}`).toBeFalsy()
			check(result)
		}
		if (shown('submit_to_vendor')) {
			const again = await client.callTool({ name: 'submit_to_vendor', arguments: { applicationId, documents: ['dl', 'workAuth'] } })
			expect(again.isError).toBe(true)
			expect(textOf(again)).toContain('already submitted')
			const check = await client.callTool({ name: 'check_vendor_submission', arguments: { applicationId } })
			expect(sc(check).alreadySubmitted).toMatchObject({ documents: ['dl', 'workAuth'] })
		}
	})
})

describe('submission status with the application', () => {
	test('get_application and get_job_applicants show it; hiring managers see it without the documents', async () => {
		const { deps } = await serveApp()
		const jobId = await newVendorJob(world.ws, { vendorId: world.vendorId, title: 'Status check job' }, deps)
		await deps.db.insert(jobTeam).values({ jobId, userId: world.managerId, teamRole: 'hiring_manager' })
		const applicationId = await newApplication(world.ws, world.candidateId, jobId, {}, deps)
		const before = await world.clients.recruiter.callTool({ name: 'get_application', arguments: { applicationId } })
		expect(sc(before).application.vendorSubmission).toBeNull()
		const submitted = await world.clients.recruiter.callTool({ name: 'submit_to_vendor', arguments: { applicationId, documents: ['dl', 'workAuth'] } })
		expect(submitted.isError, textOf(submitted)).toBeFalsy()
		for (const role of ['recruiter', 'hiring_manager'] as const) {
			const app = await world.clients[role].callTool({ name: 'get_application', arguments: { applicationId } })
			expect(app.isError, textOf(app)).toBeFalsy()
			const status = sc(app).application.vendorSubmission
			expect(status).toMatchObject({ status: 'submitted', delivery: 'queued', vendor: { id: world.vendorId, name: 'Acme Staffing' } })
			if (role === 'recruiter') expect(status.documents).toEqual(['dl', 'workAuth'])
			else expect(status).not.toHaveProperty('documents')
			const ranked = await world.clients[role].callTool({ name: 'get_job_applicants', arguments: { jobId } })
			expect(ranked.isError, textOf(ranked)).toBeFalsy()
			expect(sc(ranked).applicants.find((a: any) => a.applicationId === applicationId || a.id === applicationId)?.vendorSubmission?.status).toBe('submitted')
		}
	})
})

describe('parameter limits', () => {
	test.each([
		['request: no kinds', 'request_candidate_documents', { items: [] }],
		['request: five kinds', 'request_candidate_documents', { items: ['dl', 'visa', 'i94', 'workAuth', 'dl'] }],
		['request: an unknown kind', 'request_candidate_documents', { items: ['passport'] }],
		['request: a message over 2000 characters', 'request_candidate_documents', { items: ['dl'], message: 'x'.repeat(2001) }],
		['request: includeJobLink not a boolean', 'request_candidate_documents', { items: ['dl'], includeJobLink: 'yes' }],
		['request: an unknown property', 'request_candidate_documents', { items: ['dl'], extra: 1 }],
		['submit: five documents', 'submit_to_vendor', { documents: ['dl', 'visa', 'i94', 'workAuth', 'dl'] }],
		['submit: a note over 1000 characters', 'submit_to_vendor', { documents: ['dl'], note: 'x'.repeat(1001) }],
		['submit: no documents parameter', 'submit_to_vendor', {}],
		['lookups: an unknown kind', 'list_staffing_lookups', { kind: 'partner' }],
		['lookups: a query over 240 characters', 'list_staffing_lookups', { kind: 'client', query: 'x'.repeat(241) }],
		['vendors: limit 101', 'list_vendors', { limit: 101 }],
		['vendor: an empty id', 'get_vendor', { vendorId: '' }],
	] as const)('%s is refused', async (_label, tool, extra) => {
		const base: Record<string, unknown> =
			tool === 'request_candidate_documents'
				? { candidateId: world.candidateId }
				: tool === 'submit_to_vendor'
					? { applicationId: world.apps.owner.applicationId }
					: {}
		const result = await world.clients.owner.callTool({ name: tool, arguments: { ...base, ...extra } })
		expect(result.isError).toBe(true)
	})

	test('a lookup cursor works only for its own list', async () => {
		const client = world.clients.owner
		const first = await client.callTool({ name: 'list_staffing_lookups', arguments: { kind: 'client', limit: 1 } })
		expect(sc(first).values.map((v: any) => v.name)).toEqual(['Atlas Logistics'])
		const next = await client.callTool({ name: 'list_staffing_lookups', arguments: { kind: 'client', limit: 1, cursor: sc(first).nextCursor } })
		expect(sc(next).values.map((v: any) => v.name)).toEqual(['Harbor Mutual Insurance'])
		expect(sc(next).nextCursor).toBeNull()
		const borrowed = await client.callTool({ name: 'list_staffing_lookups', arguments: { kind: 'vendor', cursor: sc(first).nextCursor } })
		expect(borrowed.isError).toBe(true)
	})
})
