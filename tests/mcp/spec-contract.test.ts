/**
 * Each tool's parameters against the one-line contract written beside it (`spec` on its definition,
 * core/module.ts): names, read or write, every parameter with its type, required marker (*), limits
 * and defaults. The tools of spec/mcp-and-sign-in.md are in the registry, and their lines are pinned
 * by a snapshot (__snapshots__/spec-contract.test.ts.snap): a change to the public parameters of a
 * spec tool must show up there. Each tool's whole public definition (description, annotations,
 * output schema too) is pinned by its snapshot (tests/mcp/toolsnaps.test.ts).
 */
import { expect, test } from 'bun:test'
import type { ToolDef } from '../../core/module.ts'
import { publicJsonSchema } from '../../core/mcp/standard-schema.ts'
import { buildRegistry } from '../../core/registry.ts'
import { modules } from '../../modules/index.ts'

/** The tools spec/mcp-and-sign-in.md names: fixed by the spec, whatever modules are added. */
const SPEC_TOOLS = [
	'list_jobs',
	'get_job',
	'create_job',
	'set_job_status',
	'set_job_actively_hiring',
	'list_candidates',
	'get_candidate',
	'list_applications',
	'get_application',
	'get_job_applicants',
	'list_bench',
	'get_job_bench',
	'add_to_bench',
	'list_vendors',
	'get_vendor',
	'list_interview_results',
	'get_interview_result',
	'list_inbox_threads',
	'get_inbox_thread',
	'get_calendar',
	'get_analytics_summary',
	'list_saved_searches',
	'list_staffing_lookups',
	'list_todos',
	'get_review_queue',
	'search',
	'list_candidate_documents',
	'check_vendor_submission',
	'request_candidate_documents',
	'submit_to_vendor',
]

/** A tool's parameters read from its schema, in the form of its `spec` line. */
function describeTool(tool: Pick<ToolDef, 'readOnly' | 'params'>): string {
	const s = publicJsonSchema(tool.params as never) as { properties: Record<string, any>; required?: string[]; additionalProperties?: boolean }
	const props = Object.entries(s.properties).map(([name, v]) => {
		const bits: string[] = []
		if (v.type) bits.push(v.type)
		if (v.anyOf) bits.push(`enum:${v.anyOf.map((x: { const: unknown }) => x.const).join('|')}`)
		for (const key of ['minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems', 'default'])
			if (v[key] !== undefined) bits.push(`${key}=${JSON.stringify(v[key])}`)
		if (v.items)
			bits.push(
				`items:${v.items.anyOf ? v.items.anyOf.map((x: { const: unknown }) => x.const).join('|') : `${v.items.type} ${v.items.minLength ?? ''}-${v.items.maxLength ?? ''}`}`,
			)
		return `${name}${(s.required ?? []).includes(name) ? '*' : ''}(${bits.join(' ')})`
	})
	return `${tool.readOnly ? 'R' : 'W'} ${props.join(', ')}`
}

test('the registry holds every tool of the spec, each with the parameters the spec gives it (pinned by the snapshot)', () => {
	const byName = new Map(buildRegistry(modules).tools.map((t) => [t.name, t]))
	expect(SPEC_TOOLS.filter((name) => !byName.has(name))).toEqual([])
	expect(Object.fromEntries(SPEC_TOOLS.map((name) => [name, byName.get(name)?.spec ?? null]))).toMatchSnapshot('spec tools')
})

test('every tool has exactly the parameters, limits and defaults its spec line says, and refuses unknown properties', () => {
	for (const tool of buildRegistry(modules).tools) {
		expect({ tool: tool.name, params: describeTool(tool) }).toEqual({ tool: tool.name, params: tool.spec })
		expect((tool.params as { additionalProperties?: boolean }).additionalProperties).toBe(false)
	}
})
