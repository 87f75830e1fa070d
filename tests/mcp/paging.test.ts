/**
 * Every paged tool pages to the end with only `limit` set (every other argument left to its
 * default, as an assistant asking "what is on my calendar" does), and the pages together are the
 * list one big page gives: same rows, same order, none twice, none missing. A cursor works for the
 * list it came from whatever that list's defaults are (`from` of `get_calendar` defaults to "now",
 * which moves between calls). Tools are found by their parameters, so a new paged tool is covered
 * without editing this file, and a required parameter this test cannot fill makes it fail.
 */
import { afterAll, expect, setDefaultTimeout, test } from 'bun:test'
import { runCommand } from '../../core/cli.ts'
import { clock, newWorkspace, testApp, testDeps } from '../helpers.ts'
import { closeClients, mcpPerson, type McpPerson } from '../sdk.ts'

setDefaultTimeout(240_000)
afterAll(closeClients)

const SMALL = 2
const BIG = 100

interface PagedTool {
	name: string
	required: Record<string, { enum?: string[]; anyOf?: { const?: string }[] }>
}

/** Every row of the list, following nextCursor; fails on an error or a cursor that does not end. */
async function pageThrough(person: McpPerson, tool: string, args: Record<string, unknown>, limit: number) {
	const rows: unknown[] = []
	let cursor: string | undefined
	let pages = 0
	do {
		const answer = await person.tool(tool, { ...args, limit, ...(cursor ? { cursor } : {}) })
		if (answer.isError) throw new Error(`${tool} ${JSON.stringify(args)} page ${pages + 1} (limit ${limit}): ${answer.text}`)
		// The rows: the one list of objects (get_calendar also echoes its `types`, a list of strings).
		const lists = Object.entries(answer.data).filter(([, v]) => Array.isArray(v) && v.every((x) => typeof x === 'object' && x !== null))
		if (lists.length !== 1) throw new Error(`${tool}: expected one list in the result, got ${lists.map(([k]) => k).join(', ')}`)
		const page = lists[0]![1] as unknown[]
		expect(page.length).toBeLessThanOrEqual(limit)
		rows.push(...page)
		cursor = answer.data.nextCursor ?? undefined
		if (cursor) expect(cursor.length).toBeLessThanOrEqual(64)
		pages++
	} while (cursor && pages < 500)
	expect(cursor).toBeUndefined()
	return { rows, pages }
}

/** A row's identity: its id (a review entry: its type and record; a ranked bench person: the candidate), else the whole row. */
const identity = (row: any) => String(row.id ?? (row.recordId ? `${row.type}:${row.recordId}` : (row.candidateId ?? row.candidate?.id ?? JSON.stringify(row))))

test('every paged tool pages to the end with only limit set, and the pages equal one big page', async () => {
	await testApp()
	const deps = await testDeps()
	const ws = await newWorkspace()
	const owner = await mcpPerson(ws, 'owner')
	await runCommand(deps, 'seed', { workspace: ws.slug })

	const tools = (await owner.client.listTools()).tools
	const paged: PagedTool[] = tools
		.filter((t) => t.inputSchema.properties && 'limit' in t.inputSchema.properties && 'cursor' in t.inputSchema.properties)
		.map((t) => ({ name: t.name, required: Object.fromEntries((t.inputSchema.required ?? []).map((k) => [k, (t.inputSchema.properties as any)[k]])) }))
	expect(paged.map((t) => t.name)).toContain('get_calendar')
	expect(paged.length).toBeGreaterThanOrEqual(12)

	const jobs = (await pageThrough(owner, 'list_jobs', {}, BIG)).rows as { id: string; applicants?: unknown }[]
	// The job with the most applicants (the seed gives several jobs many), for the per-job lists.
	const jobIds = jobs.map((j) => j.id)
	const busiest = await Promise.all(
		jobIds.slice(0, 10).map(async (id) => ({ id, n: (await pageThrough(owner, 'get_job_applicants', { jobId: id }, BIG)).rows.length })),
	)
	const jobId = busiest.sort((a, b) => b.n - a.n)[0]!.id

	/** The argument sets to try for a tool: every value of a required choice, a job for a jobId. */
	const argumentSets = (tool: PagedTool): Record<string, unknown>[] => {
		let sets: Record<string, unknown>[] = [{}]
		for (const [name, schema] of Object.entries(tool.required)) {
			const choices = schema.enum ?? schema.anyOf?.map((s) => s.const).filter((c): c is string => typeof c === 'string')
			if (choices?.length) sets = sets.flatMap((s) => choices.map((c) => ({ ...s, [name]: c })))
			else if (name === 'jobId') sets = sets.map((s) => ({ ...s, jobId }))
			else throw new Error(`${tool.name}: this test does not know how to fill the required parameter ${name}; teach it`)
		}
		return sets
	}

	const multiPage: string[] = []
	for (const tool of paged) {
		for (const args of argumentSets(tool)) {
			const big = await pageThrough(owner, tool.name, args, BIG)
			// Time passes between pages as it does between an assistant's calls.
			clock.advance(1500)
			const small = await pageThrough(owner, tool.name, args, SMALL)
			const label = `${tool.name} ${JSON.stringify(args)}`
			const smallIds = small.rows.map(identity)
			expect({ label, ids: smallIds }).toEqual({ label, ids: big.rows.map(identity) })
			expect({ label, duplicates: smallIds.length - new Set(smallIds).size }).toEqual({ label, duplicates: 0 })
			if (small.pages > 2) multiPage.push(tool.name)
		}
	}
	clock.reset()
	// The seed gives every list enough rows that paging is really exercised.
	expect(new Set(multiPage)).toEqual(new Set(paged.map((t) => t.name)))
})
