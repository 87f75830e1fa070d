/**
 * The Job Publish API's business rules (vendors acting with an API key).
 *
 * Rules:
 * - Publish is one upsert keyed by (vendor, vendorJobId): concurrent publishes of a new id give
 *   exactly one creation. On an existing job only the fields sent change, and the job is (re)opened.
 * - A job is taken down by closing it; nothing is erased; a closed job can be re-opened.
 * - `publishedAt` is set each time a job becomes open; `closedAt` when it closes, cleared on re-open.
 * - The API's statuses are open and closed: a Draft (set in the portal or assistant) is not on the careers
 *   site, so it reads as closed (its `closedAt` null: it was drafted, not closed). Closing a job that is
 *   not live (DELETE, or a change to closed) leaves it as it is: no write, no event; opening a Draft publishes it.
 * - A publish or change that alters nothing leaves `updatedAt` (and the activity log) as it was.
 * - `employment` naming W2 and/or C2C plainly sets `contractType` when that is not sent; wording with a
 *   negation or conflicting terms sets nothing, with a warning asking for `contractType`.
 * - Choices (contractType, visa, schedule, status) are accepted in any case and stored as listed,
 *   with a warning. A field the API knows but the operation does not take (`vendorJobId` in a
 *   change, `status` in a publish) is ignored with a warning that says why, not called unknown.
 * - Bidirectional controls and Unicode tag characters are removed from display text, with a warning (rest-text.ts).
 * - One-line fields (title, location, vendorJobId, each must-have…) refuse a line break or a tab: 422 naming the field (rest-text.ts).
 * - Blank list items and a blank department are refused (model.ts); an item sent twice is kept once, with a warning (list-items.ts).
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
import { checkValue, namesToShow } from '../../core/schema-check.ts'
import { cutText, isBlank } from '../../core/untrusted.ts'
import type { PresentedCredential } from '../../core/http/auth.ts'
import { activityInsertFrom, activityValues } from '../activity/index.ts'
import { apiAccessOff, noteKeyUse, vendorKeyActorSql, vendorKeySql } from '../vendors/index.ts'
import { compile } from '../../db/client.ts'
import { eventValues } from '../events/index.ts'
import { jobEventInsert, jobEventSql } from './events.ts'
import { ChangeBody, EDITABLE_FIELDS, PublishBody, type ChangeInput, type EditableField, type PublishInput, type RestJob } from './model.ts'
import { JOB_COLUMN_NAMES, JOB_COLUMNS, jobUrl, slugify, type JobRow } from './rows.ts'
import { jobs } from './table.ts'
import { payRangeWarning } from './pay-transparency.ts'
import { escapedTextWarning, lineFeeds, noTextWarning, storedDescription } from './description.ts'
import { distinctItems } from './list-items.ts'
import { DISPLAY_TEXT_FIELDS, hiddenFormattingWarning, lineBreakErrors, stripHiddenFormatting } from './rest-text.ts'
import { isoInstant, isoInstantOrNull } from '../../core/time.ts'

export interface WriteResult {
	job: RestJob
	created: boolean
	warnings: string[]
}

const W2 = /\bW[- ]?2\b/i
const C2C = /\b(C2C|corp[- ]to[- ]corp|corp2corp)\b/i
/** Words that turn a named contract type around ("no C2C", "non-W2", "not W2", "without C2C"). */
const NEGATION = /\b(no|not|non|without|except|excluding)\b|n['’]t\b/i
/** A 1099 engagement is neither W2 nor C2C: named with either, the wording contradicts itself. */
const FORM_1099 = /\b1099\b/

/**
 * The contract type free-text `employment` names (W2, C2C or both), `'unclear'` when it names one
 * but cannot be read without guessing, or null when it names none. Only plain wording is read:
 * "Contract W2", "C2C only", "W2 or C2C". A negation anywhere ("C2C only, no W2", "1099 / non-W2"),
 * "only" with both named ("W2 only - no C2C"), or 1099 next to W2 or C2C makes it unclear: reading
 * the bare words there published the opposite of what the vendor wrote.
 */
export function contractTypeFrom(employment: string): 'W2' | 'C2C' | 'W2 / C2C' | 'unclear' | null {
	const w2 = W2.test(employment)
	const c2c = C2C.test(employment)
	if (!w2 && !c2c) return null
	if (NEGATION.test(employment) || FORM_1099.test(employment) || (w2 && c2c && /\bonly\b/i.test(employment))) return 'unclear'
	return w2 && c2c ? 'W2 / C2C' : w2 ? 'W2' : 'C2C'
}

interface Prepared {
	values: Partial<Record<EditableField, unknown>>
	warnings: string[]
}

/** Fields the API knows that an operation does not take, each with the warning for a vendor who sends it anyway. */
type NotTaken = Record<string, (sent: unknown) => string>

/** A sent value quoted in a warning (JSON, at most 60 characters). */
const quoted = (value: unknown) => cutText(JSON.stringify(value) ?? String(value), 60)

const NOT_TAKEN_ON_PUBLISH: NotTaken = {
	status: (sent) =>
		`status is not taken on publish, so ${quoted(sent)} was ignored: a publish always opens the job. Close it with PATCH {"status":"closed"} or DELETE.`,
}

const notTakenOnChange = (vendorJobId: string): NotTaken => ({
	vendorJobId: (sent) =>
		sent === vendorJobId
			? 'vendorJobId cannot be changed (it is the job’s address) and need not be sent in a change; it was ignored.'
			: `vendorJobId cannot be changed: the job keeps ${quoted(vendorJobId)} (its address) and ${quoted(sent)} was ignored. To use another id, publish the job under it and close this one.`,
})

/** Validates a publish or change body; returns the values to store and what was adjusted. */
function prepare<T>(schema: typeof PublishBody | typeof ChangeBody, sent: Record<string, unknown>, notTaken: NotTaken): Prepared & { input: T } {
	const taken = { ...sent }
	const notTakenWarnings: string[] = []
	for (const [field, warning] of Object.entries(notTaken))
		if (Object.hasOwn(taken, field)) {
			notTakenWarnings.push(warning(taken[field]))
			delete taken[field]
		}
	// Hidden formatting goes first, so the length and not-blank rules apply to what will be shown.
	const { body, cleaned } = stripHiddenFormatting(taken, DISPLAY_TEXT_FIELDS)
	const checked = checkValue<T & Record<string, unknown>>(schema, body, { unknown: 'ignore' })
	// One-line fields refuse line breaks (rest-text.ts), named with the schema's other problems, each field once.
	const named = new Set(checked.errors.map((e) => e.field))
	const errors = [...checked.errors, ...lineBreakErrors(body).filter((e) => !named.has(e.field) && !named.has(e.field.replace(/\[\d+\]$/, '')))]
	const input = checked.value
	// The description's rules are on its stored form (description.ts), named with the other problems.
	// Hidden formatting written as character references is decoded there, and removed as the raw characters were.
	const description =
		typeof input.description === 'string' && !named.has('description')
			? storedDescription(input.description, 'description', { removeHiddenFormatting: true })
			: null
	if (description?.problem) errors.push(description.problem)
	if (errors.length) throw invalid(errors)
	const warnings: string[] = []
	if (description?.removedHiddenFormatting && !cleaned.includes('description')) cleaned.push('description')
	if (cleaned.length) warnings.push(hiddenFormattingWarning(DISPLAY_TEXT_FIELDS.filter((f) => cleaned.includes(f))))
	if (checked.ignored.length) warnings.push(`Unknown fields were ignored: ${namesToShow(checked.ignored)}`)
	warnings.push(...notTakenWarnings)
	for (const path of checked.truncated) warnings.push(`${path} was cut to 160 characters`)
	for (const r of checked.recased) warnings.push(`${r.path} ${quoted(r.sent)} was stored as ${quoted(r.taken)}, its listed spelling`)

	const values: Partial<Record<EditableField, unknown>> = {}
	for (const field of EDITABLE_FIELDS) if (Object.hasOwn(input, field)) values[field] = input[field]
	for (const list of ['mustHave', 'niceToHave'] as const) {
		const sent = values[list]
		if (!Array.isArray(sent)) continue
		const { items, repeated } = distinctItems(sent)
		values[list] = items
		if (repeated.length) warnings.push(`${list} items sent more than once were kept once: ${repeated.map(quoted).join(', ')}`)
	}
	if (typeof values.summary === 'string') values.summary = lineFeeds(values.summary)
	if (description) {
		if (description.removedMarkup) warnings.push('Markup other than headings, paragraphs, lists, bold and italics was removed from description')
		if (description.escapedText) warnings.push(escapedTextWarning())
		if (description.html === null && !isBlank(input.description as string)) warnings.push(noTextWarning())
		values.description = description.html
	}
	if (typeof values.employment === 'string' && values.contractType === undefined) {
		const derived = contractTypeFrom(values.employment)
		if (derived === 'unclear')
			warnings.push(
				`contractType was not taken from employment ${quoted(values.employment)}: its wording (a negation, or terms that conflict) cannot be read without guessing. Send contractType: W2, C2C or W2 / C2C.`,
			)
		else if (derived) {
			values.contractType = derived
			warnings.push(`contractType was taken from employment: ${derived}`)
		}
	}
	return { values, warnings, input }
}

/*
 * The publish and change statements have one text each (per status change), whatever was sent:
 * every editable field is a parameter, and `sent` (a bit per field sent) decides which
 * ones are written. So they are built once and stay prepared on every connection; a text per set
 * of sent fields would let a client fill PostgreSQL's memory with thousands of prepared statements.
 */
const column = (field: EditableField) => sql.identifier(jobs[field].name)
const fieldBit = (field: EditableField) => 1 << EDITABLE_FIELDS.indexOf(field)
const wasSent = (field: EditableField) => sql`(${sql.placeholder('sent')}::integer & ${sql.raw(String(fieldBit(field)))}) <> 0`

/** A field's value as a parameter (named after the field), cast to its column's type (PostgreSQL cannot infer it inside `coalesce` and `case`). */
function valueSql(field: EditableField): SQL {
	const value = sql.placeholder(field)
	const type = jobs[field].getSQLType()
	return type === 'text' ? sql`${value}` : sql`${value}::${sql.raw(type)}`
}

/** A new job's value for a field: the one sent, else the column's default (only a field that was not sent is null where the API forbids null). */
function newJobValue(field: EditableField): SQL {
	const fallback = jobs[field].default as SQL | string | undefined
	return fallback === undefined ? valueSql(field) : sql`coalesce(${valueSql(field)}, ${fallback})`
}

/** The values a statement takes for a set of sent fields: every field (null when not sent) and `sent`, their bits. */
function fieldValues(values: Partial<Record<EditableField, unknown>>) {
	const all: Record<string, unknown> = {}
	let sent = 0
	for (const field of EDITABLE_FIELDS) {
		all[field] = values[field] ?? null
		if (Object.hasOwn(values, field)) sent |= fieldBit(field)
	}
	all.sent = sent
	return all
}

/** `(a, b) is distinct from (x, y)` over every editable field. */
function differs(left: (f: EditableField) => SQL, right: (f: EditableField) => SQL): SQL {
	return sql`(${sql.join(EDITABLE_FIELDS.map(left), sql`, `)}) is distinct from (${sql.join(EDITABLE_FIELDS.map(right), sql`, `)})`
}

function toRest(row: JobRow, deps: AppDeps, workspaceSlug: string): RestJob {
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
		url: open ? jobUrl(deps.config.baseUrl, workspaceSlug, row.slug) : null,
		createdAt: isoInstant(row.createdAt),
		updatedAt: isoInstant(row.updatedAt),
		publishedAt: isoInstantOrNull(row.publishedAt),
		closedAt: isoInstantOrNull(row.closedAt),
	}
}

/** A publish of a job that exists changes it when it re-opens it or alters a field. */
const republishChanges = sql`(jobs.status <> 'Open' or ${differs((f) => sql`jobs.${column(f)}`, publishedValue)})`

/**
 * The publish statement. The vendor key is looked up in it (`k`), so a publish is one round trip:
 * the job is written only for a live key whose vendor has API access, and the answer says which
 * of those failed. `k` has no row for an unknown or revoked key.
 */
export const publishStatement = compile(sql`with k as (
	${vendorKeySql(sql`${sql.placeholder('keyHash')}`)}
), j as (
	insert into ${jobs} (id, workspace_id, vendor_id, vendor_job_id, slug, status, created_at, published_at, last_write_event, ${sql.join(EDITABLE_FIELDS.map(column), sql`, `)})
	select ${sql.placeholder('id')}, k.workspace_id, k.vendor_id, ${sql.placeholder('vendorJobId')}, ${sql.placeholder('slug')}, 'Open', date_trunc('milliseconds', now()), now(), 'job.published', ${sql.join(EDITABLE_FIELDS.map(newJobValue), sql`, `)}
	from k where k.api_access
	on conflict (vendor_id, vendor_job_id) do update set
		${sql.join(
			EDITABLE_FIELDS.map((f) => sql`${column(f)} = ${publishedValue(f)}`),
			sql`, `,
		)},
		status = 'Open',
		published_at = case when jobs.status = 'Open' then jobs.published_at else now() end,
		closed_at = null,
		updated_at = case when ${republishChanges} then now() else jobs.updated_at end,
		last_write_changed = ${republishChanges},
		last_write_event = ${jobEventSql('Open', republishChanges, sql`jobs.`)}
	returning ${JOB_COLUMN_NAMES}, last_write_changed, last_write_event, (xmax = 0) as inserted
), log as (
	${activityInsertFrom(sql`j, k`, { action: sql`case when j.inserted then 'job.published' else 'job.republished' end`, targetType: 'job', targetId: sql`j.id`, where: sql`j.last_write_changed` }, vendorKeyActorSql('k'))}
), event as (
	${jobEventInsert(sql`j, k`, vendorKeyActorSql('k'))}
)
select k.api_access as "apiAccess", k.workspace_slug as "workspaceSlug", k.key_id as "keyId", k.key_last_used_at as "keyLastUsedAt", ${JOB_COLUMNS}, j.inserted as "inserted" from k left join j on true`)

/** What a publish leaves in an existing job's field: the value sent, or the one it had. */
function publishedValue(field: EditableField): SQL {
	return sql`case when ${wasSent(field)} then excluded.${column(field)} else jobs.${column(field)} end`
}

/**
 * Publishes with a key that has not been looked up yet (the statement looks it up). Errors of the
 * body rank below the key's own (401, 403: design.md), so on those paths the key is checked first.
 */
export async function publishJob(deps: AppDeps, key: PresentedCredential, readBody: () => Promise<Record<string, unknown>>): Promise<WriteResult> {
	const { values, warnings, input } = await keyCheckedFirst(key, async () => prepare<PublishInput>(PublishBody, await readBody(), NOT_TAKEN_ON_PUBLISH))
	const [row] = await runWithSlugRetry(() =>
		deps.database.run<JobRow & { apiAccess: boolean; workspaceSlug: string; keyId: string; keyLastUsedAt: Date | string | null; inserted: boolean | null }>(
			publishStatement,
			{
				...fieldValues(values),
				keyHash: key.hash,
				activityId: newId('act'),
				...eventValues(),
				id: newId('job'),
				vendorJobId: input.vendorJobId,
				slug: `${slugify(input.title)}-${shortCode()}`,
			},
		),
	)
	if (!row) throw await key.rejected()
	if (!row.apiAccess) throw apiAccessOff()
	noteKeyUse(deps, row.keyId, row.keyLastUsedAt)
	return { job: toRest(row, deps, row.workspaceSlug), created: row.inserted === true, warnings: withPayWarning(row, warnings) }
}

/** An open job that must show a pay range by law and has none is published, with a warning saying so. */
function withPayWarning(row: JobRow, warnings: string[]): string[] {
	const pay = row.status === 'Open' ? payRangeWarning(row) : null
	return pay ? [...warnings, pay] : warnings
}

async function keyCheckedFirst<T>(key: PresentedCredential, step: () => Promise<T>): Promise<T> {
	try {
		return await step()
	} catch (error) {
		await key.check()
		throw error
	}
}

/** A new job's slug collides with another only by a one-in-a-billion chance; then we draw again. */
async function runWithSlugRetry<T>(run: () => Promise<T>): Promise<T> {
	for (let attempt = 0; ; attempt++) {
		try {
			return await run()
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
	return toRest(row, deps, actor.workspaceSlug)
}

/** The vendor's jobs, newest first, at most 500. */
export async function listVendorJobs(deps: AppDeps, actor: Actor): Promise<RestJob[]> {
	const rows = await deps.database.rows<JobRow>(
		sql`select ${JOB_COLUMNS} from ${jobs} j where vendor_id = ${actor.vendorId} order by created_at desc nulls last, id desc nulls last limit 500`,
	)
	return rows.map((r) => toRest(r, deps, actor.workspaceSlug))
}

export const jobNotFound = () => new AppError('NOT_FOUND', 'No job with this vendorJobId')

export async function changeVendorJob(deps: AppDeps, actor: Actor, vendorJobId: string, body: Record<string, unknown>): Promise<WriteResult> {
	let prepared: Prepared & { input: ChangeInput }
	try {
		prepared = prepare<ChangeInput>(ChangeBody, body, notTakenOnChange(vendorJobId))
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

type StatusChange = 'open' | 'closed' | undefined

function changeSql(status: StatusChange): SQL {
	const changed = (f: EditableField) => sql`case when ${wasSent(f)} then ${valueSql(f)} else ${column(f)} end`
	const sets: SQL[] = EDITABLE_FIELDS.map((f) => sql`${column(f)} = ${changed(f)}`)
	let statusChanges = sql`false`
	if (status === 'open') {
		sets.push(sql`status = 'Open'`, sql`published_at = case when status = 'Open' then published_at else now() end`, sql`closed_at = null`)
		statusChanges = sql`status <> 'Open'`
	} else if (status === 'closed') {
		// Only a live job closes: a Closed job or a Draft (not on the careers site either) is already closed here, and stays as it is.
		sets.push(sql`status = case when status = 'Open' then 'Closed' else status end`, sql`closed_at = case when status = 'Open' then now() else closed_at end`)
		statusChanges = sql`status = 'Open'`
	}
	const changes = sql`(${statusChanges} or ${differs((f) => sql`${column(f)}`, changed)})`
	sets.push(sql`updated_at = case when ${changes} then now() else updated_at end`, sql`last_write_changed = ${changes}`)
	sets.push(sql`last_write_event = ${jobEventSql(status === 'open' ? 'Open' : status === 'closed' ? 'Closed' : null, changes)}`)
	const action = status === 'closed' ? 'job.closed' : status === 'open' ? 'job.opened' : 'job.changed'
	return sql`with j as (
	update ${jobs} set ${sql.join(sets, sql`, `)}
	where vendor_id = ${sql.placeholder('vendorId')} and vendor_job_id = ${sql.placeholder('vendorJobId')}
	returning ${JOB_COLUMN_NAMES}, last_write_changed, last_write_event
), log as (
	${activityInsertFrom(sql`j`, { action: sql.raw(`'${action}'`), targetType: 'job', targetId: sql`j.id`, where: sql`j.last_write_changed` })}
), event as (
	${jobEventInsert(sql`j`)}
)
select ${JOB_COLUMNS} from j`
}

/** One change statement per status change (none, open, closed). */
const changeStatements = { none: compile(changeSql(undefined)), open: compile(changeSql('open')), closed: compile(changeSql('closed')) }

async function applyChange(
	deps: AppDeps,
	actor: Actor,
	vendorJobId: string,
	values: Partial<Record<EditableField, unknown>>,
	status: StatusChange,
	warnings: string[],
): Promise<WriteResult> {
	const rows = await deps.database.run<JobRow>(changeStatements[status ?? 'none'], {
		...fieldValues(values),
		...activityValues(actor),
		...eventValues(actor),
		vendorId: actor.vendorId,
		vendorJobId,
	})
	if (!rows[0]) throw jobNotFound()
	return { job: toRest(rows[0], deps, actor.workspaceSlug), created: false, warnings: withPayWarning(rows[0], warnings) }
}
