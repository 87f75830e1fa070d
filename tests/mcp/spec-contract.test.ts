/**
 * The tools of spec/mcp-and-sign-in.md, exactly: names, read or write, every parameter with its
 * type, required marker (*), limits and defaults. Written from the spec's tables; a change to any
 * tool's public parameters must show up here. Each tool's whole public definition (description,
 * annotations, output schema too) is pinned by its snapshot (tests/mcp/toolsnaps.test.ts).
 */
import { expect, test } from 'bun:test'
import { publicJsonSchema } from '../../core/mcp/standard-schema.ts'
import { buildRegistry } from '../../core/registry.ts'
import { modules } from '../../modules/index.ts'

const LIMIT = 'limit(integer minimum=1 maximum=100 default=25)'
const CURSOR = 'cursor(string minLength=1 maxLength=64)'
const ID = (name: string, required = true) => `${name}${required ? '*' : ''}(string minLength=1 maxLength=160)`
const KINDS = 'dl|visa|i94|workAuth'
const FAMILIES =
	'java|dotnet|datasci|python|fullstack|qa|sre|devops|cloud|genai|dataeng|dba|privacy|security|workday|salesforce|servicenow|gis|insurance|product|ba|pm|other'

const SPEC: Record<string, string> = {
	list_jobs: `R status(enum:Open|Draft|Closed), query(string maxLength=120), ${LIMIT}, ${CURSOR}`,
	get_job: `R ${ID('jobId')}`,
	list_candidates: `R ${ID('jobId', false)}, query(string maxLength=120), ${LIMIT}, ${CURSOR}`,
	get_candidate: `R ${ID('candidateId')}`,
	list_applications: `R ${ID('jobId', false)}, stageKey(string minLength=1 maxLength=60), includeArchived(boolean default=false), ${LIMIT}, ${CURSOR}`,
	get_application: `R ${ID('applicationId')}`,
	list_bench: `R ${LIMIT}, ${CURSOR}`,
	get_job_bench: `R ${ID('jobId')}, ${LIMIT}, ${CURSOR}`,
	get_job_applicants: `R ${ID('jobId')}, list(enum:applicants|leads default="applicants"), ${LIMIT}, ${CURSOR}`,
	list_vendors: `R ${LIMIT}, ${CURSOR}`,
	get_vendor: `R ${ID('vendorId')}`,
	list_interview_results: `R status(enum:invited|started|completed|expired), ${LIMIT}, ${CURSOR}`,
	get_interview_result: `R ${ID('interviewId')}`,
	list_inbox_threads: `R filter(enum:all|unread|starred default="all"), ${LIMIT}, ${CURSOR}`,
	get_inbox_thread: `R ${ID('threadId')}`,
	get_calendar: `R from(string maxLength=40), to(string maxLength=40), scope(enum:mine|team|workspace default="mine"), types(array maxItems=3 default=["interview","followup","external"] items:interview|followup|external), ${LIMIT}, ${CURSOR}`,
	get_analytics_summary: 'R range(enum:7|30 default=30)',
	list_saved_searches: 'R list*(enum:candidates|bench|jobs|applications|pipeline|assessments|inbox|vendors|privacy|accounts)',
	list_staffing_lookups: `R kind*(enum:vendor|implementation_partner|client), query(string maxLength=240), ${LIMIT}, ${CURSOR}`,
	list_todos: `R ${ID('candidateId', false)}, ${LIMIT}, ${CURSOR}`,
	get_review_queue: `R ${LIMIT}, ${CURSOR}`,
	search: 'R q*(string minLength=2 maxLength=120)',
	list_candidate_documents: `R ${ID('candidateId')}`,
	check_vendor_submission: `R ${ID('applicationId')}`,
	create_job:
		'W title*(string minLength=1 maxLength=200), department(string maxLength=120), location(string maxLength=200), employment(string maxLength=60), pitch(string maxLength=600), description(string maxLength=20000), requirements(array maxItems=40 items:string 1-300), niceToHave(array maxItems=40 items:string 1-300), salaryMin(integer minimum=0), salaryMax(integer minimum=0), contractType(enum:W2|C2C|Fulltime), activelyHiring(boolean)',
	set_job_status: `W ${ID('jobId')}, status*(enum:Open|Draft|Closed)`,
	set_job_actively_hiring: `W ${ID('jobId')}, activelyHiring*(boolean)`,
	add_to_bench: `W ${ID('candidateId')}, roleFamily*(enum:${FAMILIES}), ${ID('jobId', false)}`,
	request_candidate_documents: `W ${ID('candidateId')}, items*(array minItems=1 maxItems=4 items:${KINDS}), ${ID('applicationId', false)}, message(string maxLength=2000), includeJobLink(boolean default=true)`,
	submit_to_vendor: `W ${ID('applicationId')}, documents*(array maxItems=4 items:${KINDS}), note(string maxLength=1000)`,
}

function describeTool(tool: { readOnly: boolean; params: unknown }): string {
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

test('the registry holds exactly the tools of the spec (read or write: the R or W of each, checked below)', () => {
	const tools = buildRegistry(modules).tools
	expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(SPEC).sort())
})

test('every tool has exactly the spec’s parameters, limits and defaults, and refuses unknown properties', () => {
	for (const tool of buildRegistry(modules).tools) {
		expect({ tool: tool.name, params: describeTool(tool) }).toEqual({ tool: tool.name, params: SPEC[tool.name]! })
		expect((tool.params as { additionalProperties?: boolean }).additionalProperties).toBe(false)
	}
})
