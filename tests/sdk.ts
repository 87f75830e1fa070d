/**
 * The official MCP client (SDK v2) against the app on a real loopback port, one client per
 * person, and a workspace with one person of every role (each with a personal token).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { createPersonalToken, personActor } from '../modules/auth/index.ts'
import { jobTeam } from '../modules/jobs/table.ts'
import { newPersonWithToken, newWorkspace, plain, serveApp, testDeps, type TestWorkspace } from './helpers.ts'

export const ROLES = ['owner', 'admin', 'recruiter', 'hiring_manager', 'viewer'] as const
export type TestRole = (typeof ROLES)[number]

export interface ToolAnswer {
	isError: boolean
	/** The structured result (undefined for errors). */
	data: any
	/** The structured result with each labelled text replaced by its words (`plain`), for comparing what it says. */
	words: any
	/** The text a model reads. */
	text: string
}

export interface McpPerson {
	userId: string
	email: string
	password: string
	token: string
	client: Client
	/** Calls a tool through the official client. */
	tool(name: string, args?: Record<string, unknown>): Promise<ToolAnswer>
	toolNames(): Promise<string[]>
}

const open: Client[] = []

export async function mcpPerson(ws: TestWorkspace, role: string): Promise<McpPerson> {
	return connect(await newPersonWithToken(ws, role))
}

/** An MCP client for a person already in the workspace (added by the CLI, say), with a new personal token. */
export async function mcpClient(ws: TestWorkspace, email: string): Promise<McpPerson> {
	const deps = await testDeps()
	const actor = await personActor(deps, ws.slug, email)
	const { token, tokenId } = await createPersonalToken(
		deps,
		{ ...actor, credential: { kind: 'session', id: 'test', name: 'portal session' } },
		{ name: 'test token' },
	)
	return connect({ userId: actor.userId!, email, password: '', role: actor.role, token, tokenId })
}

async function connect(person: { userId: string; email: string; password: string; role: string; token: string; tokenId: string }): Promise<McpPerson> {
	const { url } = await serveApp()
	const client = new Client({ name: 'benchline-test', version: '1.0.0' })
	await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${person.token}` } } }))
	open.push(client)
	return {
		...person,
		client,
		async tool(name, args = {}) {
			const result = (await client.callTool({ name, arguments: args })) as {
				isError?: boolean
				structuredContent?: unknown
				content?: { type: string; text?: string }[]
			}
			return {
				isError: Boolean(result.isError),
				data: result.structuredContent,
				words: plain(result.structuredContent),
				text: (result.content ?? []).map((c) => c.text ?? '').join('\n'),
			}
		},
		async toolNames() {
			return (await client.listTools()).tools.map((t) => t.name)
		},
	}
}

/** A workspace with one person of every role, each with an MCP client. */
export async function everyRole(): Promise<{ ws: TestWorkspace; people: Record<TestRole, McpPerson> }> {
	const ws = await newWorkspace()
	const people = {} as Record<TestRole, McpPerson>
	for (const role of ROLES) people[role] = await mcpPerson(ws, role)
	return { ws, people }
}

/** Puts people on a job's hiring team. */
export async function onTeam(jobId: string, ...userIds: string[]) {
	const deps = await testDeps()
	await deps.db
		.insert(jobTeam)
		.values(userIds.map((userId) => ({ jobId, userId, teamRole: 'recruiter' })))
		.onConflictDoNothing()
}

export async function closeClients() {
	await Promise.all(open.splice(0).map((c) => c.close().catch(() => {})))
}

/** Follows `nextCursor` until the end; returns every row under `key`. */
export async function allPages(person: McpPerson, name: string, args: Record<string, unknown>, key: string): Promise<{ rows: any[]; pages: number }> {
	const rows: any[] = []
	let cursor: string | undefined
	let pages = 0
	do {
		const answer = await person.tool(name, { ...args, ...(cursor ? { cursor } : {}) })
		if (answer.isError) throw new Error(`${name}: ${answer.text}`)
		rows.push(...answer.words[key])
		cursor = answer.data.nextCursor ?? undefined
		pages++
	} while (cursor && pages < 100)
	return { rows, pages }
}
