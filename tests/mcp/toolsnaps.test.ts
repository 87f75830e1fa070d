/**
 * Every tool as an assistant sees it in `tools/list`: name, title, description, parameters,
 * annotations and output schema, one snapshot per tool in __snapshots__/toolsnaps.test.ts.snap.
 * A change to any tool's public face shows up in review as a change to that file.
 *
 * After a deliberate change: `npm run snapshots:tools` (bun test --update-snapshots on this
 * file), then read the diff of the .snap file before committing it.
 */
import { beforeAll, expect, test } from 'bun:test'
import { newPersonWithToken, newWorkspace, testApp } from '../helpers.ts'
import { isTrackedModule } from '../tracked-modules.ts'
import { rpc } from './rpc.ts'

interface ListedTool {
	name: string
	title?: string
	description: string
	inputSchema: unknown
	outputSchema?: unknown
	annotations?: unknown
	_meta?: { ui?: { resourceUri?: string } }
}

let listed: ListedTool[] = []
let registered: string[] = []
/** Tools of modules git does not track yet (just made by new-module): not snapshotted until added. */
let untracked = new Set<string>()

beforeAll(async () => {
	const { deps } = await testApp()
	registered = deps.registry.tools.map((t) => t.name).sort()
	untracked = new Set(deps.registry.modules.filter((m) => !isTrackedModule(m.name)).flatMap((m) => (m.tools ?? []).map((t) => t.name)))
	// An owner is listed every tool.
	const { token } = await newPersonWithToken(await newWorkspace(), 'owner')
	listed = ((await rpc(token, 'tools/list')).message.result.tools as ListedTool[]).sort((a, b) => (a.name < b.name ? -1 : 1))
}, 60_000)

test('the owner is listed every tool of the registry', () => {
	expect(listed.map((t) => t.name)).toEqual(registered)
})

test('each tool’s public definition matches its snapshot', () => {
	for (const tool of listed) {
		if (untracked.has(tool.name)) continue
		const { _meta, ...definition } = tool
		// The view's address carries a hash of its HTML: the snapshot keeps which view, not the hash.
		const view = _meta?.ui?.resourceUri?.replace(/-[0-9a-f]+\.html$/, '.html') ?? null
		expect({ ...definition, view }).toMatchSnapshot(tool.name)
	}
})
