/**
 * Sample module end to end, on the real app and database: the tool through the official MCP client
 * (who sees it, what it returns, paging), the rule of the service, the page and the seed.
 * Each test works in a workspace of its own, so tests never see each other's data.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { newWorkspace, testApp, testDeps, type TestWorkspace } from '../../../tests/helpers.ts'
import { signedIn } from '../../../tests/portal.ts'
import { closeClients, mcpPerson, type McpPerson } from '../../../tests/sdk.ts'
import { personActor } from '../../../modules/auth/index.ts'
import { SEED_ENTRIES, seedSampleModule } from './seed.ts'
import { addSampleModuleEntry } from './service.ts'

let ws: TestWorkspace
let recruiter: McpPerson
let viewer: McpPerson

beforeAll(async () => {
	await testApp()
	ws = await newWorkspace()
	recruiter = await mcpPerson(ws, 'recruiter')
	viewer = await mcpPerson(ws, 'viewer')
}, 120_000)
afterAll(closeClients)

/** Adds entries as the person with this e-mail, oldest first. */
async function add(workspace: TestWorkspace, email: string, ...titles: string[]) {
	const deps = await testDeps()
	const actor = await personActor(deps, workspace.slug, email)
	for (const title of titles) await addSampleModuleEntry(deps, actor, { title })
}

describe('list_sample_module', () => {
	test('is listed to the roles the permission names, and only to them', async () => {
		expect(await recruiter.toolNames()).toContain('list_sample_module')
		expect(await viewer.toolNames()).not.toContain('list_sample_module')
		// Calling it anyway is a protocol error: for that person the tool does not exist.
		await expect(viewer.tool('list_sample_module')).rejects.toThrow('not found')
	})

	test('returns the workspace’s entries newest first, page by page, and no other workspace’s', async () => {
		await add(ws, recruiter.email, 'one', 'two', 'three')
		const other = await newWorkspace()
		await add(other, (await mcpPerson(other, 'owner')).email, 'elsewhere')
		const first = await recruiter.tool('list_sample_module', { limit: 2 })
		expect(first.isError).toBe(false)
		expect(first.words.entries.map((e: { title: string }) => e.title)).toEqual(['three', 'two'])
		const second = await recruiter.tool('list_sample_module', { limit: 2, cursor: first.data.nextCursor })
		expect(second.words.entries.map((e: { title: string }) => e.title)).toEqual(['one'])
		expect(second.data.nextCursor).toBeNull()
	})
})

describe('rules', () => {
	test('a title is 1 to 200 characters on one line', async () => {
		const deps = await testDeps()
		const actor = await personActor(deps, ws.slug, recruiter.email)
		await expect(addSampleModuleEntry(deps, actor, { title: ' \n ' })).rejects.toMatchObject({ code: 'VALIDATION' })
		await expect(addSampleModuleEntry(deps, actor, { title: 'x'.repeat(201) })).rejects.toMatchObject({ code: 'VALIDATION' })
		expect((await addSampleModuleEntry(deps, actor, { title: ' two\nlines ' })).title).toBe('two lines')
	})
})

describe('the sample module page', () => {
	test('shows the entries to the roles the permission names; others are refused', async () => {
		const workspace = await newWorkspace()
		const owner = await mcpPerson(workspace, 'owner')
		await add(workspace, owner.email, '<b>not bold</b>')
		const page = await (await signedIn(owner)).get('/sample-module')
		expect(page.status).toBe(200)
		expect(page.text).toContain('&lt;b&gt;not bold&lt;/b&gt;')
		expect((await (await signedIn(viewer)).get('/sample-module')).status).toBe(403)
	})
})

describe('seed', () => {
	test('fills a workspace once: a second run adds nothing', async () => {
		const deps = await testDeps()
		const workspace = await newWorkspace()
		const owner = await mcpPerson(workspace, 'owner')
		await seedSampleModule(deps, workspace)
		await seedSampleModule(deps, workspace)
		expect((await owner.tool('list_sample_module')).data.entries).toHaveLength(SEED_ENTRIES)
	})
})
