/**
 * The Job Publish API's business rules (vendors acting with an API key).
 *
 * Rules:
 * - Publish is one upsert keyed by (vendor, vendorJobId): concurrent publishes of a new id give
 *   exactly one creation. On an existing job only the fields sent change, and the job is (re)opened.
 * - A job is taken down by closing it; nothing is erased; a closed job can be re-opened.
 * - `publishedAt` is set each time a job becomes open; `closedAt` when it closes, cleared on re-open.
 * - A publish or change that alters nothing leaves `updatedAt` (and the activity log) as it was.
 * - `employment` naming W2 and/or C2C sets `contractType` when that is not sent.
 * - Another vendor's job is answered exactly like an absent one.
 * - The change and its activity-log line are one SQL statement.
 * - `created_at` is stored to the millisecond (its column rounds to 3 digits): it is truncated, not
 *   rounded, so a new job's createdAt and publishedAt read the same instant.
 */
import { sql, type SQL } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { newId, shortCode } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, invalid } from '../../core/errors.ts'
import { sanitizeDescription } from '../../core/sanitize.ts'
import { checkValue } from '../../core/schema-check.ts'
import { activityInsertFrom } from '../activity/index.ts'
import { ChangeBody, EDITABLE_FIELDS, PublishBody, type ChangeInput, type EditableField, type PublishInput, type RestJob } from './model.ts'
import { JOB_COLUMNS, jobUrl, slugify, type JobRow } from './rows.ts'
import { jobs } from './table.ts'

export interface WriteResult {
	job: RestJob
	created: boolean
	warnings: string[]
}

/** The contract type named in free-text `employment` (W2, C2C or both), if any. */
export function contractTypeFrom(employment: string): 'W2' | 'C2C' | 'W2 / C2C' | null {
	const w2 = /\bW[- ]?2\b/i.test(employment)
	const c2c = /\b(C2C|corp[- ]to[- ]corp|corp2corp)\b/i.test(employment)
	return w2 && c2c ? 'W2 / C2C' : w2 ? 'W2' : c2c ? 'C2C' : null
}

interface Prepared {
	values: Partial<Record<EditableField, unknown>>
	warnings: string[]
}

/** Validates a publish or change body; returns the values to store and what was adjusted. */
function prepare<T>(schema: typeof PublishBody | typeof ChangeBody, body: Record<string, unknown>): Prepared & { input: T } {
	const checked = checkValue<T & Record<string, unknown>>(schema, body, { unknown: 'ignore' })
	if (checked.errors.length) throw invalid(checked.errors)
	const input = checked.value
	const warnings: string[] = []
	if (checked.ignored.length) warnings.push(`Unknown fields were ignored: ${checked.ignored.join(', ')}`)
	for (const path of checked.truncated) warnings.push(`${path} was cut to 160 characters`)

	const values: Partial<Record<EditableField, unknown>> = {}
	for (const field of EDITABLE_FIELDS) if (Object.hasOwn(input, field)) values[field] = input[field]
	if (typeof values.description === 'string') {
		const clean = sanitizeDescription(values.description)
		if (clean.removedMarkup) warnings.push('Markup other than headings, paragraphs, lists, bold and italics was removed from description')
		values.description = clean.html
	}
	if (typeof values.employment === 'string' && values.contractType === undefined) {
		const derived = contractTypeFrom(values.employment)
		if (derived) {
			values.contractType = derived
			warnings.push(`contractType was taken from employment: ${derived}`)
		}
	}
	return { values, warnings, input }
}

const column = (field: EditableField) => sql.identifier(jobs[field].name)

function valueSql(field: EditableField, value: unknown): SQL {
	if (field === 'mustHave' || field === 'niceToHave') {
		const items = value as string[]
		return items.length ? sql`array[${sql.join(items.map((i) => sql`${i}`), sql`, `)}]::text[]` : sql`'{}'::text[]`
	}
	if (field === 'minYears') return value === null ? sql`null::integer` : sql`${value}::integer`
	return sql`${value}`
}

/** `(a, b) is distinct from (x, y)` over the fields being written. */
function differs(fields: EditableField[], left: (f: EditableField) => SQL, right: (f: EditableField) => SQL): SQL {
	if (!fields.length) return sql`false`
	return sql`(${sql.join(fields.map(left), sql`, `)}, null) is distinct from (${sql.join(fields.map(right), sql`, `)}, null)`
}

function toRest(row: JobRow, deps: AppDeps, actor: Actor): RestJob {
	const date = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString())
	const open = row.status === 'Open'
	return {
		vendorJobId: row.vendorJobId!,
		title: row.title,
		location: row.location,
		employment: row.employment,
		contractType: row.contractType,
		summary: row.summary,
		description: row.description,
		mustHave: row.mustHave ?? [],
		niceToHave: row.niceToHave ?? [],
		visa: row.visa,
		interview: row.interview,
		schedule: row.schedule,
		minYears: row.minYears,
		department: row.department,
		status: open ? 'open' : 'closed',
		url: open ? jobUrl(deps.config.baseUrl, actor.workspaceSlug, row.slug) : null,
		createdAt: date(row.createdAt)!,
		updatedAt: date(row.updatedAt)!,
		publishedAt: date(row.publishedAt),
		closedAt: date(row.closedAt),
	}
}

export async function publishJob(deps: AppDeps, actor: Actor, body: Record<string, unknown>): Promise<WriteResult> {
	const { values, warnings, input } = prepare<PublishInput>(PublishBody, body)
	const fields = Object.keys(values) as EditableField[]
	const statement = (slug: string) => sql`with j as (
	insert into ${jobs} (id, workspace_id, vendor_id, vendor_job_id, slug, status, created_at, published_at, ${sql.join(fields.map(column), sql`, `)})
	values (${newId('job')}, ${actor.workspaceId}, ${actor.vendorId}, ${input.vendorJobId}, ${slug}, 'Open', date_trunc('milliseconds', now()), now(), ${sql.join(fields.map((f) => valueSql(f, values[f])), sql`, `)})
	on conflict (vendor_id, vendor_job_id) do update set
		${sql.join(fields.map((f) => sql`${column(f)} = excluded.${column(f)}`), sql`, `)},
		status = 'Open',
		published_at = case when jobs.status = 'Open' then jobs.published_at else now() end,
		closed_at = null,
		updated_at = case when jobs.status <> 'Open' or ${differs(fields, (f) => sql`jobs.${column(f)}`, (f) => sql`excluded.${column(f)}`)} then now() else jobs.updated_at end
	returning *, (xmax = 0) as inserted
), log as (
	${activityInsertFrom(actor, sql`j`, { action: sql`case when j.inserted then 'job.published' else 'job.republished' end`, targetType: 'job', targetId: sql`j.id`, where: sql`j.updated_at = now()` })}
)
select ${JOB_COLUMNS}, j.inserted as "inserted" from j`
	const rows = await runWithSlugRetry(deps, () => statement(`${slugify(input.title)}-${shortCode()}`))
	const row = rows[0]!
	return { job: toRest(row, deps, actor), created: row.inserted === true, warnings }
}

/** A new job's slug collides with another only by a one-in-a-billion chance; then we draw again. */
async function runWithSlugRetry(deps: AppDeps, build: () => SQL): Promise<(JobRow & { inserted?: boolean })[]> {
	for (let attempt = 0; ; attempt++) {
		try {
			return await deps.database.rows<JobRow & { inserted?: boolean }>(build())
		} catch (error) {
			const e = error as { code?: string; constraint_name?: string; constraint?: string; message?: string }
			const slugClash = e.code === '23505' && `${e.constraint_name ?? e.constraint ?? e.message}`.includes('jobs_workspace_slug')
			if (!slugClash || attempt >= 3) throw error
		}
	}
}

const vendorJob = (actor: Actor, vendorJobId: string) => sql`vendor_id = ${actor.vendorId} and vendor_job_id = ${vendorJobId}`

export async function getVendorJob(deps: AppDeps, actor: Actor, vendorJobId: string): Promise<RestJob> {
	const [row] = await deps.database.rows<JobRow>(sql`select ${JOB_COLUMNS} from ${jobs} j where ${vendorJob(actor, vendorJobId)}`)
	if (!row) throw jobNotFound()
	return toRest(row, deps, actor)
}

/** The vendor's jobs, newest first, at most 500. */
export async function listVendorJobs(deps: AppDeps, actor: Actor): Promise<RestJob[]> {
	const rows = await deps.database.rows<JobRow>(sql`select ${JOB_COLUMNS} from ${jobs} j where vendor_id = ${actor.vendorId} order by created_at desc nulls last, id desc nulls last limit 500`)
	return rows.map((r) => toRest(r, deps, actor))
}

export const jobNotFound = () => new AppError('NOT_FOUND', 'No job with this vendorJobId')

export async function changeVendorJob(deps: AppDeps, actor: Actor, vendorJobId: string, body: Record<string, unknown>): Promise<WriteResult> {
	let prepared: Prepared & { input: ChangeInput }
	try {
		prepared = prepare<ChangeInput>(ChangeBody, body)
	} catch (error) {
		// 404 comes before 422: a change to a job that does not exist is "not found" whatever the body.
		await getVendorJob(deps, actor, vendorJobId)
		throw error
	}
	return applyChange(deps, actor, vendorJobId, prepared.values, prepared.input.status as 'open' | 'closed' | undefined, prepared.warnings)
}

export async function closeVendorJob(deps: AppDeps, actor: Actor, vendorJobId: string): Promise<RestJob> {
	return (await applyChange(deps, actor, vendorJobId, {}, 'closed', [])).job
}

async function applyChange(deps: AppDeps, actor: Actor, vendorJobId: string, values: Partial<Record<EditableField, unknown>>, status: 'open' | 'closed' | undefined, warnings: string[]): Promise<WriteResult> {
	const fields = Object.keys(values) as EditableField[]
	const sets: SQL[] = fields.map((f) => sql`${column(f)} = ${valueSql(f, values[f])}`)
	let statusChanges = sql`false`
	if (status === 'open') {
		sets.push(sql`status = 'Open'`, sql`published_at = case when status = 'Open' then published_at else now() end`, sql`closed_at = null`)
		statusChanges = sql`status <> 'Open'`
	} else if (status === 'closed') {
		sets.push(sql`status = 'Closed'`, sql`closed_at = case when status = 'Closed' then closed_at else now() end`)
		statusChanges = sql`status <> 'Closed'`
	}
	sets.push(sql`updated_at = case when ${statusChanges} or ${differs(fields, (f) => sql`${column(f)}`, (f) => valueSql(f, values[f]))} then now() else updated_at end`)
	const action = status === 'closed' ? 'job.closed' : status === 'open' ? 'job.opened' : 'job.changed'
	const rows = await deps.database.rows<JobRow>(sql`with j as (
	update ${jobs} set ${sql.join(sets, sql`, `)}
	where ${vendorJob(actor, vendorJobId)}
	returning *
), log as (
	${activityInsertFrom(actor, sql`j`, { action: sql`${action}`, targetType: 'job', targetId: sql`j.id`, where: sql`j.updated_at = now()` })}
)
select ${JOB_COLUMNS} from j`)
	if (!rows[0]) throw jobNotFound()
	return { job: toRest(rows[0], deps, actor), created: false, warnings }
}
