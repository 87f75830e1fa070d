/**
 * The OpenAPI 3.1 description of the Job Publish API, generated from the same TypeBox schemas
 * that validate requests, and a readable docs page built from it.
 */
import { html, page, type SafeHtml } from '../../core/html.ts'
import { dataTable } from '../../core/ui.ts'
import { ChangeBody, PublishBody, RestJob } from './model.ts'
import type { ApiOperations } from './port.ts'
import { docText, operationLine } from './doc-text.ts'
import { PAY_TRANSPARENCY_STATES } from './pay-transparency.ts'

const plain = (schema: unknown) => JSON.parse(JSON.stringify(schema))

const errorRef = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } })
const jobResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/JobResponse' } } } })
const R = {
	400: errorRef('Body is not JSON, or an object in it names a member twice'),
	401: errorRef('Key missing, malformed, unknown or revoked'),
	403: errorRef('API access is switched off for this vendor'),
	404: errorRef('The vendor has no job with that vendorJobId'),
	413: errorRef('Body larger than 200 KB'),
	// core/http/body.ts, readBodyText: a body is read as UTF-8 only; JSON is read whatever the media type says.
	415: errorRef(
		'Content-Type declares a charset other than UTF-8 (utf-8, us-ascii or none are read), or the body is compressed (Content-Encoding: send it uncompressed)',
	),
	422: errorRef('One or more fields are not valid; `fields` says which'),
	429: {
		...errorRef('Too many requests; wait the number of seconds given in the Retry-After header'),
		headers: { 'Retry-After': { schema: { type: 'integer' } } },
	},
}
const idParam = { name: 'vendorJobId', in: 'path', required: true, schema: { type: 'string', maxLength: 100 } }

/** The operations on a vendor's jobs. */
const jobPaths = () => ({
	'/jobs': {
		post: {
			operationId: 'publishJob',
			summary: 'Publish a job (upsert by vendorJobId)',
			requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/PublishBody' } } } },
			responses: {
				201: {
					...jobResponse('Created; the job is live'),
					headers: { Location: { description: 'The job’s address, `/api/v1/jobs/{vendorJobId}`', schema: { type: 'string' } } },
				},
				200: jobResponse('An existing job was updated (and re-opened)'),
				400: R[400],
				401: R[401],
				403: R[403],
				413: R[413],
				415: R[415],
				422: R[422],
				429: R[429],
			},
		},
		get: {
			operationId: 'listJobs',
			summary: 'The vendor’s jobs, newest first, at most 500',
			responses: {
				200: {
					description: 'The jobs',
					content: {
						'application/json': {
							schema: { type: 'object', properties: { jobs: { type: 'array', items: { $ref: '#/components/schemas/Job' } } }, required: ['jobs'] },
						},
					},
				},
				401: R[401],
				403: R[403],
				429: R[429],
			},
		},
	},
	'/jobs/{vendorJobId}': {
		parameters: [idParam],
		get: { operationId: 'getJob', summary: 'One job', responses: { 200: jobResponse('The job'), 401: R[401], 403: R[403], 404: R[404], 429: R[429] } },
		patch: {
			operationId: 'changeJob',
			summary: 'Change only the fields sent; `status` closes or re-opens',
			requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/ChangeBody' } } } },
			responses: {
				200: jobResponse('The job after the change'),
				400: R[400],
				401: R[401],
				403: R[403],
				404: R[404],
				413: R[413],
				415: R[415],
				422: R[422],
				429: R[429],
			},
		},
		delete: {
			operationId: 'closeJob',
			summary: 'Close the job (nothing is erased)',
			responses: { 200: jobResponse('The job, now closed'), 401: R[401], 403: R[403], 404: R[404], 429: R[429] },
		},
	},
})

/** The schemas of a job, its bodies and the error. */
const jobSchemas = () => ({
	Job: plain(RestJob),
	JobResponse: {
		type: 'object',
		properties: {
			job: { $ref: '#/components/schemas/Job' },
			warnings: {
				type: 'array',
				items: { type: 'string' },
				description: `What the service adjusted: unknown fields ignored; a known field the operation does not take ignored, saying why (vendorJobId in a change: it cannot be changed; status in a publish); a choice sent in another case stored as listed ("remote" as "Remote"); items cut; markup removed; invisible formatting characters (bidirectional controls, Unicode tags) removed; contract type taken from employment; a pay-transparency notice when an open job located in a state whose law requires a pay range on postings (${PAY_TRANSPARENCY_STATES.join(', ')}), or remote, has none (the job is published all the same)`,
			},
		},
		required: ['job'],
	},
	PublishBody: plain(PublishBody),
	ChangeBody: plain(ChangeBody),
	Error: {
		type: 'object',
		properties: {
			error: { type: 'string' },
			fields: {
				type: 'array',
				items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } }, required: ['field', 'message'] },
			},
		},
		required: ['error'],
	},
})

export function openApiDocument(baseUrl: string, more: readonly ApiOperations[] = []) {
	const extraPaths = Object.assign({}, ...more.map((m) => m.paths))
	const extraSchemas = Object.assign({}, ...more.map((m) => m.schemas))
	return {
		openapi: '3.1.0',
		info: {
			title: 'Benchline Job Publish API',
			version: '1.0.0',
			description: 'Vendors publish, update, close and re-open their jobs. A published job is live at once on the public careers site.',
		},
		servers: [{ url: `${baseUrl}/api/v1` }],
		security: [{ apiKey: [] }],
		paths: {
			...jobPaths(),
			...extraPaths,
		},
		components: {
			securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'The vendor’s API key (bl_vk_…)' } },
			schemas: {
				...jobSchemas(),
				...extraSchemas,
			},
		},
	}
}

/** A field of a body, as the docs page's Fields table lists it. */
interface FieldFacts {
	name: string
	required: boolean
	type: string
	limits: string
	notes: string
}

function fieldFacts(schema: { properties: Record<string, any>; required?: string[] }): FieldFacts[] {
	return Object.entries(schema.properties).map(([name, s]) => {
		// A nullable field is `anyOf: [its shape, null]`.
		const nullable = s.anyOf?.some((x: any) => x.type === 'null') ?? false
		const shape = nullable ? s.anyOf.find((x: any) => x.type !== 'null') : s
		const values = shape.anyOf?.filter((x: any) => 'const' in x).map((x: any) => x.const)
		const type = shape.type === 'array' ? 'array of string' : values?.length ? `one of ${values.join(', ')}` : shape.type
		const limits = [
			shape.maxLength && `max ${shape.maxLength} chars`,
			shape.maxItems && `max ${shape.maxItems} items; each cut to 160 chars`,
			shape.maximum !== undefined && `${shape.minimum} to ${shape.maximum}`,
		]
			.filter(Boolean)
			.join('; ')
		return { name, required: schema.required?.includes(name) ?? false, type: nullable ? `${type} or null` : type, limits, notes: s.description ?? '' }
	})
}

/** The fields of a publish (and the change's `status`): a card per field on a phone, where a table of four columns would be cut off. */
function fieldsTable(): SafeHtml {
	const status = { name: 'status', required: false, type: 'one of open, closed', limits: '', notes: (ChangeBody as any).properties.status.description }
	return dataTable<FieldFacts>({
		caption: 'Fields of a job',
		hideCaption: true,
		columns: [
			{ label: 'Field', cell: (f) => html`<code>${f.name}</code>${f.required ? ' (required)' : f === status ? ' (change only)' : ''}` },
			{ label: 'Type', cell: (f) => f.type },
			{ label: 'Limits', cell: (f) => f.limits || '—' },
			{ label: 'Notes', cell: (f) => (f.notes ? docText(f.notes) : '—') },
		],
		rows: [...fieldFacts(PublishBody as never), status],
		empty: '',
	})
}

/** This API's own operations, one line each, written as the other modules' lines are (`ApiOperations.docs`). */
const JOB_OPERATIONS = [
	'POST /jobs publishes (an upsert keyed by your `vendorJobId`): 201 when created, 200 when an existing job was updated and re-opened.',
	'GET /jobs lists your jobs, newest first, at most 500.',
	'GET /jobs/{vendorJobId} returns one job.',
	'PATCH /jobs/{vendorJobId} changes only the fields you send; `status` `closed` or `open` closes or re-opens it.',
	'DELETE /jobs/{vendorJobId} closes the job; nothing is erased.',
]

export function renderApiDocs(baseUrl: string, more: readonly ApiOperations[] = []): Response {
	const api = `${baseUrl}/api/v1`
	const example = (s: string) => html`<pre><code>${s}</code></pre>`
	return page(
		{ title: 'Job Publish API' },
		html`<section class="card api-docs">
<h1>Job Publish API</h1>
<p>Publish, update, close and re-open your jobs. A published job is live at once on the careers site. Every request carries your API key: <code>Authorization: Bearer &lt;API_KEY&gt;</code>. The machine-readable description is at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p>
<h2>Operations</h2>
<ul>
${[...JOB_OPERATIONS, ...more.flatMap((m) => m.docs)].map(operationLine)}
</ul>
<p>Choices (<code>contractType</code>, <code>visa</code>, <code>schedule</code>, <code>status</code>) are accepted in any case and stored as listed: <code>"remote"</code> is stored as <code>"Remote"</code>, with a warning. A change cannot rename a job: <code>vendorJobId</code> is its address, and one sent in a <code>PATCH</code> body is ignored with a warning saying so; <code>status</code> sent in a publish is ignored the same way (a publish always opens the job).</p>
<p>Answers are <code>{"job": …}</code> (or <code>{"jobs": […]}</code>); when the service adjusted what you sent, a <code>warnings</code> list says what. Errors are <code>{"error": "…", "fields": [{"field", "message"}]}</code>: 400 body not JSON (or an object in it naming a member twice: send each once), 401 key missing or revoked, 403 API access off, 404 no such job, 413 body over 200 KB, 415 body declared in a charset other than UTF-8 (send <code>charset=utf-8</code> or none) or sent compressed (send it without <code>Content-Encoding</code>), 422 invalid fields, 429 too many requests, per key or per client address (wait <code>Retry-After</code> seconds). A method an address does not take is 405 with <code>Allow</code>.</p>
<h2>Fields</h2>
${fieldsTable()}
<h2>Examples</h2>
${example(`curl -X POST ${api}/jobs -H "Authorization: Bearer $API_KEY" -H "Content-Type: application/json" \\\n  -d '{"vendorJobId":"REQ-1001","title":"Senior Java Developer","location":"Austin, TX","employment":"Contract W2","schedule":"Hybrid","mustHave":["Java 17","Spring Boot"]}'`)}
${example(`curl ${api}/jobs/REQ-1001 -H "Authorization: Bearer $API_KEY"`)}
${example(`curl -X PATCH ${api}/jobs/REQ-1001 -H "Authorization: Bearer $API_KEY" -H "Content-Type: application/json" -d '{"status":"closed"}'`)}
</section>`,
	)
}
