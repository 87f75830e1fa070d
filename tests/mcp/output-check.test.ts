/**
 * A tool whose result breaks its output schema: outside production the call is answered with an
 * error naming the tool and the path (so the test that called it fails); in production the check
 * is skipped. The tool below is deliberately wrong (a cast hides it from tsc, as a row or parsed
 * JSON would).
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { Type as t } from '@sinclair/typebox'
import { loadConfig } from '../../core/config.ts'
import { createLogger } from '../../core/log.ts'
import { createApp, createDeps, modules } from '../../core/main.ts'
import { outputCheck } from '../../core/mcp/output-check.ts'
import { params } from '../../core/mcp/params.ts'
import { defineModule, defineTool } from '../../core/module.ts'
import { callOn, clock, newPersonWithToken, newWorkspace, sharedDatabase } from '../helpers.ts'
import { MCP_HEADERS, messageOf } from './rpc.ts'

const Counted = t.Object({ count: t.Integer(), items: t.Array(t.Object({ id: t.String() })) })

const wrongModule = defineModule({
	name: 'wrong',
	description: 'Test only: a tool whose result breaks its output schema.',
	permissions: [{ key: 'wrong:use', description: 'Call the wrong tool', grantedTo: ['owner'] }],
	tools: [
		defineTool({
			name: 'wrong_result',
			title: 'Wrong result',
			description: 'Answers with a count that is a string and an item without its id (test only).',
			params: params({}),
			output: Counted,
			readOnly: true,
			permission: 'wrong:use',
			spec: 'R ',
			testCalls: () => [{}],
			run: async () => ({ count: 'three', items: [{ id: 'a' }, { name: 'b' }] }) as never,
		}),
		defineTool({
			name: 'right_result',
			title: 'Right result',
			description: 'Answers with what its schema says, an optional field left undefined (test only).',
			params: params({}),
			output: t.Object({ count: t.Integer(), note: t.Optional(t.String()) }),
			readOnly: true,
			permission: 'wrong:use',
			spec: 'R ',
			testCalls: () => [{}],
			run: async () => ({ count: 3, note: undefined }),
		}),
	],
})

async function appWith(env: Record<string, string>) {
	const config = loadConfig({ ...process.env, BASE_URL: 'http://localhost:3000', REDIS_URL: '', ...env })
	const deps = await createDeps({
		config,
		log: createLogger('silent'),
		database: await sharedDatabase(),
		moduleList: [...modules, wrongModule],
		now: clock.now,
	})
	const app = createApp(deps)
	const { token } = await newPersonWithToken(await newWorkspace(), 'owner')
	let id = 1
	return async (name: string) => {
		const res = await callOn(app, 'POST', '/api/mcp', {
			key: token,
			body: { jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name, arguments: {} } },
			headers: MCP_HEADERS,
		})
		expect(res.status).toBe(200)
		return messageOf(res.text).result as { isError?: boolean; content: { text: string }[]; structuredContent?: unknown }
	}
}

describe('tool results against their output schema', () => {
	let development: Awaited<ReturnType<typeof appWith>>
	let production: Awaited<ReturnType<typeof appWith>>
	beforeAll(async () => {
		development = await appWith({})
		// Production refuses the suite's development switches.
		production = await appWith({ NODE_ENV: 'production', PASSWORD_HASH_FAST: 'off', SSO_ALLOW_HTTP: 'off', OAUTH_CLIENT_METADATA_ALLOW_PRIVATE: 'off' })
	}, 120_000)

	test('outside production, a result that breaks the schema is an error naming the tool and each path', async () => {
		const answer = await development('wrong_result')
		expect(answer.isError).toBe(true)
		expect(answer.structuredContent).toBeUndefined()
		const text = answer.content[0]!.text
		expect(text).toStartWith('The result of wrong_result does not match its output schema')
		expect(text).toContain('/count: Expected integer (got "three")')
		expect(text).toContain('/items/1')
	})

	test('a result that matches, an undefined optional field included, is answered as it is', async () => {
		const answer = await development('right_result')
		expect(answer.isError).toBeFalsy()
		expect(answer.structuredContent).toEqual({ count: 3 })
	})

	test('in production the check is skipped: the result goes out as the tool made it', async () => {
		const answer = await production('wrong_result')
		expect(answer.isError).toBeFalsy()
		expect(answer.structuredContent).toEqual({ count: 'three', items: [{ id: 'a' }, { name: 'b' }] })
	})

	test('a schema is compiled once: the same check serves every call', () => {
		expect(outputCheck(Counted)).toBe(outputCheck(Counted))
		expect(outputCheck(Counted)({ count: 1, items: [] })).toEqual([])
	})
})
