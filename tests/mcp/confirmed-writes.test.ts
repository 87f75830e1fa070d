/**
 * Writes the person confirms: submit_to_vendor and request_candidate_documents, called by a client
 * that can ask its user (elicitation in the request's capabilities, protocol 2026-07-28), first ask
 * what goes to whom, and do nothing on no or cancel. A client that cannot ask, and a 2025-era
 * client (the stateless endpoint cannot know its capabilities when it calls a tool), run as before.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { sql } from 'drizzle-orm'
import { newId } from '../../core/credentials.ts'
import { fileStore } from '../../core/files.ts'
import { samplePdf } from '../../modules/documents/seed.ts'
import { candidateDocuments } from '../../modules/documents/table.ts'
import { newPersonWithToken, newWorkspace, serveApp, testDeps, type TestWorkspace } from '../helpers.ts'
import { newApplication, newCandidate, newSubmissionVendor, newVendorJob } from '../staffing-fixtures.ts'

setDefaultTimeout(120_000)

type Answer = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }

let url: string
let ws: TestWorkspace
let token: string
let candidateId: string
const open: { close(): Promise<void> }[] = []

beforeAll(async () => {
	;({ url } = await serveApp())
	const deps = await testDeps()
	ws = await newWorkspace()
	token = (await newPersonWithToken(ws, 'owner')).token
	candidateId = await newCandidate(ws, { name: 'Mei Chen', workAuthorization: 'GC' }, deps)
	for (const kind of ['dl', 'workAuth'] as const) {
		const id = newId('doc')
		const key = `documents/${ws.id}/${candidateId}/${id}.pdf`
		const bytes = samplePdf(`${kind} of Mei`)
		await fileStore(deps.config).put(key, bytes, 'application/pdf')
		await deps.db
			.insert(candidateDocuments)
			.values({ id, workspaceId: ws.id, candidateId, kind, fileName: `${kind}.pdf`, contentType: 'application/pdf', sizeBytes: bytes.length, storageKey: key })
	}
})
afterAll(async () => {
	for (const c of open) await c.close().catch(() => {})
})

/** An application to a fresh vendor's job (one submission each). */
async function application() {
	const deps = await testDeps()
	const vendorId = await newSubmissionVendor(ws, { name: 'Acme Staffing', email: 'subs@acme.example' }, deps)
	const jobId = await newVendorJob(ws, { vendorId, title: 'Data Engineer' }, deps)
	return newApplication(ws, candidateId, jobId, {}, deps)
}

/** A 2026-07-28 client; with `answer`, it declares elicitation and answers every question so. */
async function modernClient(answer?: Answer) {
	const asked: string[] = []
	const client = new Client(
		{ name: 'confirm-test', version: '1.0.0' },
		{ versionNegotiation: { mode: 'auto' }, ...(answer ? { capabilities: { elicitation: { form: {} } } } : {}) },
	)
	if (answer)
		client.setRequestHandler('elicitation/create', async (request) => {
			asked.push(request.params.message)
			return answer as never
		})
	await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }))
	open.push(client)
	return { client, asked }
}

const submissions = async (applicationId: string) =>
	(await (await testDeps()).database.rows<{ n: number }>(sql`select count(*)::int as n from vendor_submissions where application_id = ${applicationId}`))[0]!.n
const requests = async () =>
	(await (await testDeps()).database.rows<{ n: number }>(sql`select count(*)::int as n from document_requests where candidate_id = ${candidateId}`))[0]!.n

describe('a client that can ask its user', () => {
	test('submit_to_vendor asks what goes to whom, and submits on yes', async () => {
		const applicationId = await application()
		const { client, asked } = await modernClient({ action: 'accept', content: { confirm: true } })
		const result = await client.callTool({
			name: 'submit_to_vendor',
			arguments: { applicationId, documents: ['dl', 'workAuth'], note: 'Strong Spark background' },
		})
		expect(result.isError).toBeFalsy()
		expect(asked).toHaveLength(1)
		expect(asked[0]).toContain('Mei Chen')
		expect(asked[0]).toContain('Acme Staffing at subs@acme.example')
		expect(asked[0]).toContain('Driver')
		expect(asked[0]).toContain('Strong Spark background')
		expect(await submissions(applicationId)).toBe(1)
	})

	test('a no, a cancel, or the box left unticked: nothing is sent, and the answer says so', async () => {
		for (const answer of [{ action: 'decline' }, { action: 'cancel' }, { action: 'accept', content: { confirm: false } }] as Answer[]) {
			const applicationId = await application()
			const { client, asked } = await modernClient(answer)
			const result = await client.callTool({ name: 'submit_to_vendor', arguments: { applicationId, documents: ['dl', 'workAuth'] } })
			expect(asked).toHaveLength(1)
			expect(result.isError).toBe(true)
			expect(JSON.stringify(result.content)).toContain('Nothing was done: the person did not confirm submit_to_vendor')
			expect(await submissions(applicationId)).toBe(0)
		}
	})

	test('request_candidate_documents asks (recipient, channel, message) and sends only on yes', async () => {
		const before = await requests()
		const no = await modernClient({ action: 'decline' })
		const refused = await no.client.callTool({
			name: 'request_candidate_documents',
			arguments: { candidateId, items: ['visa'], message: 'Please upload today' },
		})
		expect(refused.isError).toBe(true)
		expect(no.asked[0]).toMatch(/^Ask Mei Chen for Visa .*by e-mail to .*@/)
		expect(no.asked[0]).toContain('Please upload today')
		expect(await requests()).toBe(before)
		const yes = await modernClient({ action: 'accept', content: { confirm: true } })
		const sent = await yes.client.callTool({ name: 'request_candidate_documents', arguments: { candidateId, items: ['visa'] } })
		expect(sent.isError).toBeFalsy()
		expect(await requests()).toBe(before + 1)
	})

	test('a call that would be refused is not asked about: its own error says why', async () => {
		const applicationId = await application()
		const { client, asked } = await modernClient({ action: 'accept', content: { confirm: true } })
		const result = await client.callTool({ name: 'submit_to_vendor', arguments: { applicationId, documents: ['dl'] } })
		expect(asked).toEqual([])
		expect(result.isError).toBe(true)
		expect(JSON.stringify(result.content)).toContain('the vendor needs these too')
	})
})

describe('clients that cannot ask run the tool as before', () => {
	test('a 2026-07-28 client without elicitation', async () => {
		const applicationId = await application()
		const { client } = await modernClient()
		const result = await client.callTool({ name: 'submit_to_vendor', arguments: { applicationId, documents: ['dl', 'workAuth'] } })
		expect(result.isError).toBeFalsy()
		expect(await submissions(applicationId)).toBe(1)
	})

	test('a 2025-era client, even one that declares elicitation (its capabilities are not known to a stateless call)', async () => {
		const applicationId = await application()
		const asked: string[] = []
		const client = new ClientV1({ name: 'confirm-v1', version: '1.0.0' }, { capabilities: { elicitation: {} } })
		client.setRequestHandler(ElicitRequestSchema, async (request) => {
			asked.push(request.params.message)
			return { action: 'decline' }
		})
		await client.connect(new TransportV1(new URL(`${url}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }))
		open.push(client)
		const result = await client.callTool({ name: 'submit_to_vendor', arguments: { applicationId, documents: ['dl', 'workAuth'] } })
		expect(result.isError).toBeFalsy()
		expect(asked).toEqual([])
		expect(await submissions(applicationId)).toBe(1)
	})
})
