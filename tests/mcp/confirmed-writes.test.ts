/**
 * Writes the person confirms: submit_to_vendor and request_candidate_documents, called by a client
 * that can ask its user, first ask what goes to whom, and do nothing on no, cancel or no answer: a
 * 2026-07-28 client with elicitation in the request's capabilities (input_required), and a 2025-era
 * client that declared elicitation in `initialize` (its sealed session id says so; the question goes
 * out on the call's stream and its answer, posted apart, reaches the call on whichever instance).
 * A client that cannot ask runs the tool as before.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { sql } from 'drizzle-orm'
import { newId } from '../../core/credentials.ts'
import { closeDeps } from '../../core/main.ts'
import type { AppDeps } from '../../core/deps.ts'
import { fileStore } from '../../core/files.ts'
import { samplePdf } from '../../modules/documents/seed.ts'
import { candidateDocuments } from '../../modules/documents/table.ts'
import { flushAudit } from '../../modules/audit/index.ts'
import { newPersonWithToken, newWorkspace, serveApp, serveAppWith, testDeps, type TestWorkspace } from '../helpers.ts'
import { describeProcesses } from '../reliability/gate.ts'
import { privateRedis, type PrivateRedis } from '../reliability/processes.ts'
import { newApplication, newCandidate, newSubmissionVendor, newVendorJob } from '../staffing-fixtures.ts'

setDefaultTimeout(120_000)

type Answer = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }

let url: string
let ws: TestWorkspace
let token: string
let tokenId: string
let candidateId: string
const open: { close(): Promise<void> }[] = []

beforeAll(async () => {
	;({ url } = await serveApp())
	const deps = await testDeps()
	ws = await newWorkspace()
	;({ token, tokenId } = await newPersonWithToken(ws, 'owner'))
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
async function application(vendor = 'Acme Staffing') {
	const deps = await testDeps()
	const vendorId = await newSubmissionVendor(ws, { name: vendor, email: `subs@${vendor.split(' ')[0]!.toLowerCase()}.example` }, deps)
	const jobId = await newVendorJob(ws, { vendorId, title: 'Data Engineer' }, deps)
	return newApplication(ws, candidateId, jobId, {}, deps)
}

/**
 * A 2026-07-28 client; with `answer`, it declares elicitation and answers every question so.
 * `rewrite` changes each `tools/call` body before it is sent (a buggy or tampering client);
 * `sent` keeps every request it made (headers and body), to be sent again.
 */
async function modernClient(answer?: Answer, options: { rewrite?: (body: any) => any; sent?: RequestInit[] } = {}) {
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
	const fetchVia = (async (input: RequestInfo | URL, init?: RequestInit) => {
		if (typeof init?.body === 'string' && JSON.parse(init.body).method === 'tools/call') {
			if (options.rewrite) init = { ...init, body: JSON.stringify(options.rewrite(JSON.parse(init.body))) }
			options.sent?.push(init)
		}
		return fetch(input, init)
	}) as typeof fetch
	await client.connect(
		new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } }, fetch: fetchVia }),
	)
	open.push(client)
	return { client, asked }
}

/**
 * A 2025-era client (`@modelcontextprotocol/client`, the initialize handshake at `version`); with
 * `answer`, it declares elicitation and answers every question so (a function: it decides when).
 * `fetch` stands for a load balancer in front of several instances.
 */
async function legacyClient(
	version: string,
	answer?: Answer | ((signal: AbortSignal, id: string | number) => Promise<Answer>),
	options: { base?: string; fetch?: typeof fetch } = {},
) {
	const asked: string[] = []
	const client = new Client(
		{ name: 'confirm-2025', version: '1.0.0' },
		{ supportedProtocolVersions: [version], ...(answer ? { capabilities: { elicitation: { form: {} } } } : {}) },
	)
	if (answer)
		client.setRequestHandler('elicitation/create', async (request, ctx) => {
			asked.push(request.params.message)
			return (typeof answer === 'function' ? await answer(ctx.mcpReq.signal, ctx.mcpReq.id) : answer) as never
		})
	const transport = new StreamableHTTPClientTransport(new URL(`${options.base ?? url}/api/mcp`), {
		requestInit: { headers: { Authorization: `Bearer ${token}` } },
		fetch: options.fetch,
	})
	await client.connect(transport)
	open.push(client)
	return { client, asked, transport }
}

/** How the trail recorded this token's latest call of `tool`. */
async function lastOutcome(tool: string, on?: AppDeps) {
	const deps = on ?? (await serveApp()).deps
	await flushAudit(deps)
	const [line] = await deps.database.rows<{ outcome: string }>(
		sql`select outcome from audit_log where credential_id = ${tokenId} and action = ${tool} order by at desc, seq desc limit 1`,
	)
	return line?.outcome
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
		expect(asked[0]).toContain('“Acme Staffing” at subs@acme.example')
		expect(asked[0]).toContain('Driver')
		expect(asked[0]).toContain('Strong Spark background')
		expect(await submissions(applicationId)).toBe(1)
	})

	test('a yes counts only for the question asked about this very call, and once', async () => {
		const yes: Answer = { action: 'accept', content: { confirm: true } }
		const documents = ['dl', 'workAuth']
		// A yes sent before anything was asked: the person is asked all the same.
		const unasked = await application()
		const eager = await modernClient(yes, { rewrite: (b) => ({ ...b, params: { inputResponses: { confirm: yes }, ...b.params } }) })
		expect((await eager.client.callTool({ name: 'submit_to_vendor', arguments: { applicationId: unasked, documents } })).isError).toBeFalsy()
		expect(eager.asked).toHaveLength(1)
		expect(await submissions(unasked)).toBe(1)

		// The yes given about one submission, sent with another's arguments: asked again, about what is done.
		const askedAbout = await application('Bolt Staffing')
		const done = await application('Zeta Staffing')
		const swapping = await modernClient(yes, {
			rewrite: (b) => (b.params.inputResponses ? { ...b, params: { ...b.params, arguments: { ...b.params.arguments, applicationId: done } } } : b),
		})
		await swapping.client.callTool({ name: 'submit_to_vendor', arguments: { applicationId: askedAbout, documents } })
		expect(swapping.asked).toHaveLength(2)
		expect(swapping.asked[0]).toContain('Bolt Staffing')
		expect(swapping.asked[1]).toContain('Zeta Staffing')
		expect([await submissions(askedAbout), await submissions(done)]).toEqual([0, 1])

		// A requestState altered by the client is refused before any tool runs (a replayed one: core/mcp/confirm.test.ts).
		const sent: RequestInit[] = []
		const once = await application('Once Staffing')
		const first = await modernClient(yes, { sent })
		await first.client.callTool({ name: 'submit_to_vendor', arguments: { applicationId: once, documents } })
		const answered = sent.find((init) => JSON.parse(String(init.body)).params.inputResponses)!
		const forged = JSON.parse(String(answered.body))
		forged.params.requestState = `${forged.params.requestState}x`
		expect(await (await fetch(`${url}/api/mcp`, { ...answered, body: JSON.stringify(forged) })).text()).toContain('Invalid or expired requestState')
		expect(await submissions(once)).toBe(1)
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
		expect(no.asked[0]).toMatch(/^Ask “Mei Chen” for Visa .*by e-mail to .*@/)
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

	test('2025-era clients that do not declare elicitation: no session, not asked', async () => {
		const applicationId = await application()
		const { client, transport } = await legacyClient('2025-11-25')
		expect(transport.sessionId).toBeUndefined()
		const result = await client.callTool({ name: 'submit_to_vendor', arguments: { applicationId, documents: ['dl', 'workAuth'] } })
		expect(result.isError).toBeFalsy()
		expect(await submissions(applicationId)).toBe(1)
	})
})

describe("2025-era clients that declared elicitation are asked on the call's stream", () => {
	for (const version of ['2025-03-26', '2025-06-18', '2025-11-25'])
		test(`${version}: asked what goes to whom, submitted on yes; nothing on no or cancel, and the trail says refused`, async () => {
			const yes = await application()
			const accepting = await legacyClient(version, { action: 'accept', content: { confirm: true } })
			expect(accepting.transport.sessionId).toBeString()
			const done = await accepting.client.callTool({
				name: 'submit_to_vendor',
				arguments: { applicationId: yes, documents: ['dl', 'workAuth'], note: 'Strong Spark background' },
			})
			expect(done.isError).toBeFalsy()
			expect(accepting.asked).toHaveLength(1)
			expect(accepting.asked[0]).toContain('Mei Chen')
			expect(accepting.asked[0]).toContain('“Acme Staffing” at subs@acme.example')
			expect(accepting.asked[0]).toContain('Strong Spark background')
			expect(await submissions(yes)).toBe(1)
			expect(await lastOutcome('submit_to_vendor')).toBe('ok')

			for (const answer of [{ action: 'decline' }, { action: 'cancel' }, { action: 'accept', content: { confirm: false } }] as Answer[]) {
				const no = await application()
				const refusing = await legacyClient(version, answer)
				const result = await refusing.client.callTool({ name: 'submit_to_vendor', arguments: { applicationId: no, documents: ['dl', 'workAuth'] } })
				expect(refusing.asked).toHaveLength(1)
				expect(result.isError).toBe(true)
				expect(JSON.stringify(result.content)).toContain('Nothing was done: the person did not confirm submit_to_vendor')
				expect(await submissions(no)).toBe(0)
				expect(await lastOutcome('submit_to_vendor')).toBe('refused')
			}
		})

	test('request_candidate_documents: the recipient, channel and message are asked about; sent only on yes', async () => {
		const before = await requests()
		const no = await legacyClient('2025-06-18', { action: 'decline' })
		const refused = await no.client.callTool({
			name: 'request_candidate_documents',
			arguments: { candidateId, items: ['visa'], message: 'Please upload today' },
		})
		expect(refused.isError).toBe(true)
		expect(no.asked[0]).toMatch(/^Ask “Mei Chen” for Visa .*by e-mail to .*@/)
		expect(no.asked[0]).toContain('Please upload today')
		expect(await requests()).toBe(before)
		const yes = await legacyClient('2025-06-18', { action: 'accept', content: { confirm: true } })
		const sent = await yes.client.callTool({ name: 'request_candidate_documents', arguments: { candidateId, items: ['visa'] } })
		expect(sent.isError).toBeFalsy()
		expect(await requests()).toBe(before + 1)
	})

	test('the SDK 1.x client (2025-11-25) is asked too', async () => {
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
		expect(asked).toHaveLength(1)
		expect(result.isError).toBe(true)
		expect(await submissions(applicationId)).toBe(0)
	})

	test('a session id of another credential, or made up, counts for nothing: the call runs as for a client that cannot ask', async () => {
		const { client, transport, asked } = await legacyClient('2025-11-25', { action: 'decline' })
		const other = await newPersonWithToken(ws, 'owner')
		for (const sessionId of [transport.sessionId!, 'made-up', 'x'.repeat(600)]) {
			const applicationId = await application()
			const response = await fetch(`${url}/api/mcp`, {
				method: 'POST',
				headers: {
					Authorization: `Bearer ${other.token}`,
					'Content-Type': 'application/json',
					Accept: 'application/json, text/event-stream',
					'Mcp-Session-Id': sessionId,
					'MCP-Protocol-Version': '2025-11-25',
				},
				body: JSON.stringify({
					jsonrpc: '2.0',
					id: 7,
					method: 'tools/call',
					params: { name: 'submit_to_vendor', arguments: { applicationId, documents: ['dl', 'workAuth'] } },
				}),
			})
			const text = await response.text()
			expect(text).not.toContain('elicitation/create')
			expect(text).toContain('"result"')
			expect(await submissions(applicationId)).toBe(1)
		}
		expect(asked).toEqual([])
		await client.close()
	})

	test('an answer is taken only from the credential asked; an app that fails to ask does nothing', async () => {
		const other = await newPersonWithToken(ws, 'owner')
		const applicationId = await application()
		const forged: number[] = []
		const { client } = await legacyClient('2025-11-25', async (_signal, id) => {
			// Another credential answers yes first, with the question's id: it counts for nothing.
			const response = await fetch(`${url}/api/mcp`, {
				method: 'POST',
				headers: { Authorization: `Bearer ${other.token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
				body: JSON.stringify({ jsonrpc: '2.0', id, result: { action: 'accept', content: { confirm: true } } }),
			})
			forged.push(response.status)
			return { action: 'decline' }
		})
		const result = await client.callTool({ name: 'submit_to_vendor', arguments: { applicationId, documents: ['dl', 'workAuth'] } })
		expect(forged).toEqual([202])
		expect(JSON.stringify(result.content)).toContain('Nothing was done: the person did not confirm submit_to_vendor')
		expect(await submissions(applicationId)).toBe(0)

		const failing = await legacyClient('2025-11-25', async () => {
			throw new Error('no window to ask in')
		})
		const failed = await failing.client.callTool({ name: 'submit_to_vendor', arguments: { applicationId, documents: ['dl', 'workAuth'] } })
		expect(failed.isError).toBe(true)
		expect(JSON.stringify(failed.content)).toContain('Nothing was done: the app could not ask the person to confirm submit_to_vendor')
		expect(await submissions(applicationId)).toBe(0)
		expect(await lastOutcome('submit_to_vendor')).toBe('refused')
	})

	test('no answer in time: nothing is sent, the question is withdrawn, and the answer says so', async () => {
		const served = await serveAppWith({ MCP_TOOL_TIMEOUT: '1' })
		let answered!: (answer: Answer) => void
		const late = new Promise<Answer>((resolve) => (answered = resolve))
		const applicationId = await application()
		let question: AbortSignal | undefined
		const { client, asked } = await legacyClient(
			'2025-11-25',
			(signal) => {
				question = signal
				return late
			},
			{ base: served.url },
		)
		const result = await client.callTool({ name: 'submit_to_vendor', arguments: { applicationId, documents: ['dl', 'workAuth'] } })
		expect(asked).toHaveLength(1)
		expect(result.isError).toBe(true)
		expect(JSON.stringify(result.content)).toContain('Nothing was done: the person did not answer within 1 seconds')
		// Withdrawn (notifications/cancelled) on the stream before the result came.
		expect(question?.aborted).toBe(true)
		expect(await lastOutcome('submit_to_vendor', served.deps)).toBe('refused')
		// A yes after the time is up changes nothing.
		answered({ action: 'accept', content: { confirm: true } })
		expect(await submissions(applicationId)).toBe(0)
		await closeDeps(served.deps)
	})
})

describeProcesses('several instances behind a load balancer (answers through Redis)', () => {
	let redis: PrivateRedis
	beforeAll(async () => {
		redis = await privateRedis()
	}, 30_000)
	afterAll(async () => {
		await redis?.stop()
	})

	test('the answer posted to another instance reaches the call waiting on the first', async () => {
		const [a, b] = await Promise.all([0, 1].map(() => serveAppWith({ REDIS_URL: redis.url })))
		try {
			expect([a!.deps.answers.mode(), b!.deps.answers.mode()]).toEqual(['redis', 'redis'])
			const posts: string[] = []
			// Every request to instance A but the client's answers, which go to instance B.
			const balancer: typeof fetch = Object.assign(
				(input: RequestInfo | URL, init?: RequestInit) => {
					const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : undefined
					const to = body && !('method' in body) ? b! : a!
					posts.push(to === b ? 'answer to B' : `${body?.method ?? init?.method} to A`)
					return fetch(String(input).replace(a!.url, to.url), init)
				},
				{ preconnect: fetch.preconnect },
			)
			for (const [answer, expected] of [
				[{ action: 'accept', content: { confirm: true } }, 1],
				[{ action: 'decline' }, 0],
			] as const) {
				const applicationId = await application()
				const { client, asked } = await legacyClient('2025-11-25', answer as Answer, { base: a!.url, fetch: balancer })
				const result = await client.callTool({ name: 'submit_to_vendor', arguments: { applicationId, documents: ['dl', 'workAuth'] } })
				expect(asked).toHaveLength(1)
				expect(Boolean(result.isError)).toBe(expected === 0)
				expect(await submissions(applicationId)).toBe(expected)
			}
			expect(posts).toContain('answer to B')
		} finally {
			for (const served of [a, b]) {
				if (served) await closeDeps(served.deps)
			}
		}
	})
})
