/**
 * MCP prompts: workflows written out for the person's assistant, each naming the tools it uses,
 * listed only to people who may use all of them. Through both official SDK clients.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client'
import { call, newPersonWithToken, newWorkspace, serveApp, testDeps } from '../helpers.ts'
import { MCP_HEADERS, messageOf } from './rpc.ts'

setDefaultTimeout(120_000)
const open: { close(): Promise<void> }[] = []
afterAll(async () => {
	for (const c of open) await c.close()
})

async function clients(token: string) {
	const { url } = await serveApp()
	const init = { requestInit: { headers: { Authorization: `Bearer ${token}` } } }
	const v1 = new ClientV1({ name: 'test', version: '1.0.0' })
	await v1.connect(new TransportV1(new URL(`${url}/api/mcp`), init))
	const v2 = new ClientV2({ name: 'test', version: '1.0.0' })
	await v2.connect(new TransportV2(new URL(`${url}/api/mcp`), init))
	open.push(v1, v2)
	return [v1, v2] as const
}

describe('prompts', () => {
	test('an owner gets the three workflows with their arguments; each names only tools the server lists', async () => {
		const ws = await newWorkspace()
		const owner = await newPersonWithToken(ws, 'owner')
		for (const client of await clients(owner.token)) {
			expect(client.getServerCapabilities()?.prompts).toEqual({ listChanged: false })
			const { prompts } = await client.listPrompts()
			expect(prompts.map((p) => p.name).sort()).toEqual(['my_day', 'prepare_vendor_submission', 'screen_applicants'])
			const screen = prompts.find((p) => p.name === 'screen_applicants')!
			expect(screen).toMatchObject({ title: 'Screen the applicants of a job', arguments: [{ name: 'job', required: true }] })
			expect(prompts.find((p) => p.name === 'my_day')!.arguments ?? []).toEqual([])
			const listed = new Set((await client.listTools()).tools.map((t) => t.name))
			const deps = await testDeps()
			for (const p of deps.registry.prompts) for (const tool of p.tools) expect(listed.has(tool)).toBe(true)

			const got = await client.getPrompt({ name: 'screen_applicants', arguments: { job: 'Senior Java Developer' } })
			const text = (got.messages[0]!.content as { text: string }).text
			expect(got.messages[0]!.role).toBe('user')
			expect(text).toContain('"Senior Java Developer"')
			for (const tool of ['list_jobs', 'get_job_applicants', 'get_application']) expect(text).toContain(tool)
			// A required argument missing, or one it does not take, is refused with its name.
			await expect(client.getPrompt({ name: 'screen_applicants', arguments: {} })).rejects.toThrow(/job/)
			// Blank text (spaces, zero-width spaces) names no job either.
			for (const job of ['   ', '\u200b\u200b']) await expect(client.getPrompt({ name: 'screen_applicants', arguments: { job } })).rejects.toThrow(/blank/)
			await expect(client.getPrompt({ name: 'my_day', arguments: { bogus: 'x' } })).rejects.toThrow(/bogus/)
		}
	})

	test('a prompt is listed only to people who may use every tool it names; a viewer gets none and no prompts capability', async () => {
		const ws = await newWorkspace()
		const viewer = await newPersonWithToken(ws, 'viewer')
		for (const client of await clients(viewer.token)) {
			expect(client.getServerCapabilities()?.prompts).toBeUndefined()
			await expect(client.getPrompt({ name: 'my_day' })).rejects.toThrow()
		}
		const manager = await newPersonWithToken(ws, 'hiring_manager')
		const deps = await testDeps()
		for (const client of await clients(manager.token)) {
			const listed = new Set((await client.listTools()).tools.map((t) => t.name))
			const expected = deps.registry.prompts.filter((p) => p.tools.every((t) => listed.has(t))).map((p) => p.name)
			expect((await client.listPrompts()).prompts.map((p) => p.name).sort()).toEqual(expected.sort())
			// A hiring manager does not submit to vendors.
			expect(expected).not.toContain('prepare_vendor_submission')
		}
	})

	test('an argument named __proto__ is refused as any unknown argument is, for every prompt, as tools refuse it', async () => {
		const ws = await newWorkspace()
		const owner = await newPersonWithToken(ws, 'owner')
		const deps = await testDeps()
		// Written as JSON text: in a JavaScript literal `__proto__` sets the prototype and is never sent.
		const sent = async (name: string, args: string) => {
			const raw = `{"jsonrpc":"2.0","id":9,"method":"prompts/get","params":{"name":"${name}","arguments":${args}}}`
			const res = await call('POST', '/api/mcp', { key: owner.token, raw, headers: { ...MCP_HEADERS, 'content-type': 'application/json' } })
			return messageOf(res.text)
		}
		const [v1, v2] = await clients(owner.token)
		for (const prompt of deps.registry.prompts) {
			const allowed = Object.keys(prompt.params.properties)
			// The other arguments as a valid call would send them, so the only fault is the extra one.
			const valid = Object.fromEntries(allowed.map((name) => [name, 'job_1']))
			const refusal = (name: string) => `unknown property "${name}"; allowed: ${allowed.length ? allowed.join(', ') : 'none'}`
			for (const extra of ['__proto__', 'bogus']) {
				const args = JSON.stringify(valid).replace(/}$/, `${allowed.length ? ',' : ''}"${extra}":"x"}`)
				const answer = await sent(prompt.name, args)
				expect([prompt.name, extra, answer.result]).toEqual([prompt.name, extra, undefined])
				expect(answer.error).toMatchObject({ code: -32602, message: expect.stringContaining(refusal(extra)) })
				// Through both SDK clients: parsed JSON keeps an own `__proto__`, and the clients send it.
				for (const client of [v1, v2]) await expect(client.getPrompt({ name: prompt.name, arguments: JSON.parse(args) })).rejects.toThrow(refusal(extra))
			}
			// The same arguments without the extra one are answered.
			expect((await sent(prompt.name, JSON.stringify(valid))).result.messages).toHaveLength(1)
		}
	})
})
