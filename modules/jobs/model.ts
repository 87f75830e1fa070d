/**
 * Job shapes. The REST schemas carry the limits of `spec/job-publish-api.md`; the same schemas
 * validate requests (through `core/schema-check.ts`) and generate the OpenAPI document.
 */
import { Type as t, type Static, type TSchema } from '@sinclair/typebox'

export const REST_CONTRACT_TYPES = ['W2', 'C2C', 'W2 / C2C'] as const
export const VISAS = ['Any', 'No Sponsorship', 'USC', 'USC/GC'] as const
export const SCHEDULES = ['Onsite', 'Hybrid', 'Remote'] as const
export const JOB_STATUSES = ['Open', 'Draft', 'Closed'] as const
export type JobStatus = (typeof JOB_STATUSES)[number]

const literals = <T extends readonly string[]>(values: T, description?: string) => t.Union(values.map((v) => t.Literal(v)) as never, { description })
/**
 * A choice a vendor may send in any case (`"remote"`, `"ONSITE"`): the listed spelling is stored
 * and a warning says so (`core/schema-check.ts`, `x-any-case`).
 */
/** A description followed by more: one full stop between them, whether or not it ended with one. */
const thenMore = (description: string | undefined) => (description ? `${description.replace(/\.$/, '')}. ` : '')

const anyCase = <T extends readonly string[]>(values: T, description?: string) =>
	t.Union(values.map((v) => t.Literal(v)) as never, {
		'x-any-case': true,
		description: `${thenMore(description)}Accepted in any case (e.g. "${values[0]!.toLowerCase()}"): stored as listed, with a warning saying so.`,
	})
/**
 * An optional field a read may return as null: null is sent back as no value (a change clears the
 * field), so what a read returns can always be sent back as it is.
 */
const orNull = <T extends TSchema>(schema: T) =>
	t.Union([schema, t.Null()], { description: `${thenMore(schema.description)}null is no value (a change clears it).` })
/** A list item feeds résumé checks: a blank one would count as a requirement no résumé meets. */
const item = t.String({ maxLength: 160, 'x-truncate': true, 'x-not-blank': true, description: 'Cut to 160 characters when longer; not blank' })

const editable = {
	title: t.String({ minLength: 1, maxLength: 140, 'x-not-blank': true, description: 'Shown to candidates' }),
	location: orNull(t.String({ maxLength: 120, description: 'Where the work is done' })),
	employment: orNull(
		t.String({
			maxLength: 60,
			description:
				'The engagement in the vendor’s own words; hidden from candidates. When it plainly names W2 or C2C and contractType is not sent, it is taken as the contract type; wording with a negation ("no C2C", "non-W2") or conflicting terms is not read, with a warning asking for contractType.',
		}),
	),
	contractType: orNull(anyCase(REST_CONTRACT_TYPES, 'Shown to candidates')),
	summary: orNull(t.String({ maxLength: 300, description: 'Shown at the top of the job page' })),
	description: orNull(
		t.String({
			maxLength: 20000,
			description:
				'Plain text or simple HTML (headings, paragraphs, lists, bold, italics); any other markup is removed. Stored as HTML (& is written &amp;, < &lt;, with a warning): the limit applies to the stored form too, so what a read returns can be sent back.',
		}),
	),
	mustHave: t.Array(item, { maxItems: 30, description: 'Candidates’ résumés are checked against these. An item sent twice is kept once, with a warning.' }),
	niceToHave: t.Array(item, { maxItems: 30, description: 'An item sent twice is kept once, with a warning.' }),
	visa: orNull(anyCase(VISAS)),
	interview: orNull(t.String({ maxLength: 120, description: 'How interviews are held' })),
	schedule: orNull(anyCase(SCHEDULES)),
	minYears: t.Union([t.Integer({ minimum: 0, maximum: 40 }), t.Null()]),
	department: t.String({ maxLength: 60, 'x-not-blank': true, description: 'Practice area used to group jobs; not blank; default Technologies' }),
}

const optional = <T extends Record<string, any>>(props: T) =>
	Object.fromEntries(Object.entries(props).map(([k, v]) => [k, t.Optional(v)])) as { [K in keyof T]: ReturnType<typeof t.Optional<T[K]>> }

const { title, ...notRequired } = editable

/** Publish: `vendorJobId` and `title` are required; every other field is optional. */
export const PublishBody = t.Object(
	{
		// "." and ".." cannot travel in a URL path (they are dot segments), so such a job could never be reached again.
		vendorJobId: t.String({
			minLength: 1,
			maxLength: 100,
			pattern: '^(?!\\.{1,2}$)',
			'x-pattern-message': 'must not be "." or ".." (they cannot be used in the job’s address)',
			description: 'The vendor’s own id',
		}),
		title,
		...optional(notRequired),
	},
	{
		description:
			'Fields the API does not know are ignored, with a warning naming them. `status` is not taken on publish (a publish always opens the job; close it with PATCH or DELETE): sent anyway, it is ignored with a warning saying so. One-line fields (vendorJobId, title, location, employment, interview, department, each mustHave and niceToHave item) refuse a line break or a tab: 422 naming the field.',
	},
)

export const ChangeBody = t.Object(
	{
		...optional(editable),
		status: t.Optional(anyCase(['open', 'closed'] as const)),
	},
	{
		description:
			'Only the fields sent change. `vendorJobId` is not part of it: it is the job’s address and cannot be changed; sent anyway, it is ignored with a warning saying so. Fields the API does not know are ignored, with a warning naming them. One-line fields refuse a line break or a tab, as on publish.',
	},
)

export type PublishInput = Partial<Static<typeof ChangeBody>> & { vendorJobId: string; title: string }
export type ChangeInput = Static<typeof ChangeBody>

export const RestJob = t.Object({
	vendorJobId: t.String(),
	title: t.String(),
	location: t.Union([t.String(), t.Null()]),
	employment: t.Union([t.String(), t.Null()]),
	contractType: t.Union([t.String(), t.Null()]),
	summary: t.Union([t.String(), t.Null()]),
	description: t.Union([t.String(), t.Null()]),
	mustHave: t.Array(t.String()),
	niceToHave: t.Array(t.String()),
	visa: t.Union([t.String(), t.Null()]),
	interview: t.Union([t.String(), t.Null()]),
	schedule: t.Union([t.String(), t.Null()]),
	minYears: t.Union([t.Integer(), t.Null()]),
	department: t.String(),
	status: literals(['open', 'closed'] as const),
	url: t.Union([t.String({ format: 'uri' }), t.Null()], { description: 'Public address where the job is live; null while the job is closed' }),
	createdAt: t.String({ format: 'date-time' }),
	updatedAt: t.String({ format: 'date-time' }),
	publishedAt: t.Union([t.String({ format: 'date-time' }), t.Null()]),
	closedAt: t.Union([t.String({ format: 'date-time' }), t.Null()]),
})
export type RestJob = Static<typeof RestJob>

/** Editable fields in the order of the spec, with their database columns. */
export const EDITABLE_FIELDS = [
	'title',
	'location',
	'employment',
	'contractType',
	'summary',
	'description',
	'mustHave',
	'niceToHave',
	'visa',
	'interview',
	'schedule',
	'minYears',
	'department',
] as const
export type EditableField = (typeof EDITABLE_FIELDS)[number]
