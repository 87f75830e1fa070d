/**
 * Jobs as people in the portal and assistant apps see them.
 *
 * Rules:
 * - Owners, admins, recruiters and viewers see every job of the workspace; hiring managers only
 *   the jobs on whose hiring team they are. A job out of reach is answered exactly like an absent one.
 * - `create_job` makes a Draft; the creator joins its hiring team. Publishing (and every status
 *   change) stays with owners and admins: opening makes the job live on the careers site,
 *   closing or drafting takes it down.
 * - The actively-hiring flag needs its own permission, also when set at creation.
 * - Salaries are whole amounts that fit the columns (at most MAX_SALARY), the lowest not above the highest.
 */
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm'
import { searchTextProblem } from '../../core/text-search.ts'
import type { Actor } from '../../core/actor.ts'
import { newId, shortCode } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { repeatWindowStart } from '../../core/repeats.ts'
import type { Db } from '../../db/client.ts'
import { AppError, forbidden, invalid } from '../../core/errors.ts'
import { contributionsTo } from '../../core/registry.ts'
import { idKey, keysetPage, newestFirst, timeKey, type Order } from '../../core/paging.ts'
import { htmlToText } from '../../core/sanitize.ts'
import { isoInstant } from '../../core/time.ts'
import { isBlank, personAuthor, textOf, untrusted, untrustedLine, type TextAuthor, type UntrustedText } from '../../core/untrusted.ts'
import { recordActivity } from '../activity/index.ts'
import { recordEvent } from '../events/index.ts'
import { jobChanged, jobEventOf } from './events.ts'
import { jobLabelSql } from './label.ts'
import { jobMatches } from './matching.ts'
import { personRef, userNames } from '../auth/index.ts'
import { vendorNames } from '../vendors/index.ts'
import type { JobStatus } from './model.ts'
import { jobFacts as jobFactsPort, type JobFacts } from './port.ts'
import { JOB_COLUMNS, jobAddress, slugify, type JobRow } from './rows.ts'
import { jobQuestions, jobs, jobTeam } from './table.ts'
import { inList } from '../../core/sql-list.ts'
import { lineBreakErrors } from './rest-text.ts'
import { lineFeeds, storedDescription } from './description.ts'
import { distinctItems } from './list-items.ts'
import { mixedPayUnits } from './salary.ts'

export const ACTIVELY_HIRING = 'jobs:actively_hiring'
/** The permission that publishes, closes or drafts a job (and changes its hiring team, team.ts). */
export const SET_STATUS = 'jobs:set_status'

/** SQL condition: the job (aliased `j`) is in the actor's workspace and within their reach. */
export function jobReach(actor: Actor): SQL {
	const base = sql`j.workspace_id = ${actor.workspaceId}`
	if (actor.role !== 'hiring_manager') return base
	return sql`${base} and exists (select 1 from ${jobTeam} t where t.job_id = j.id and t.user_id = ${actor.userId})`
}

/** The label of the job whose id is `id` (modules/jobs/label.ts), inside another module's statement (null for no such job). */
export const jobLabelOf = (id: SQL) => sql<string | null>`(select ${sql.raw(jobLabelSql('jt'))} from ${jobs} jt where jt.id = ${id})`

/** Ids of the jobs the actor can reach among `jobIds` (other modules limit their rows with it). */
export async function reachableJobIds(deps: AppDeps, actor: Actor, jobIds?: string[]): Promise<string[] | 'all'> {
	if (actor.role !== 'hiring_manager' && !jobIds) return 'all'
	const rows = await deps.database.rows<{ id: string }>(
		sql`select j.id from ${jobs} j where ${jobReach(actor)}${jobIds ? sql` and j.id in ${inList(jobIds)}` : sql``}`,
	)
	return rows.map((r) => r.id)
}

const notFound = () => new AppError('NOT_FOUND', 'No job with this id')

async function loadJob(deps: AppDeps, actor: Actor, jobId: string): Promise<JobRow & { label: string }> {
	const [row] = await deps.database.rows<JobRow & { label: string }>(
		sql`select ${JOB_COLUMNS}, ${sql.raw(jobLabelSql('j'))} as label from ${jobs} j where j.id = ${jobId} and ${jobReach(actor)}`,
	)
	if (!row) throw notFound()
	return row
}

/** Facts other modules know about jobs (applicant counts, counts per stage), merged. */
async function jobFacts(deps: AppDeps, actor: Actor, jobIds: string[]) {
	const merged = new Map<string, JobFacts>()
	for (const facts of contributionsTo(deps.registry, jobFactsPort))
		for (const [id, more] of await facts(deps, actor, jobIds)) merged.set(id, { ...merged.get(id), ...more })
	return merged
}

export interface JobSummary {
	id: string
	title: UntrustedText
	/** The title, and what tells the job apart from others of that title (modules/jobs/label.ts). */
	label: UntrustedText
	status: JobStatus
	department: UntrustedText
	location: UntrustedText | null
	contractType: string | null
	vendor: { id: string; name: UntrustedText } | null
	applicantCount: number
	activelyHiring: boolean
	createdAt: string
	publishedAt: string | null
	url: string | null
}

/** What a job summary shows: list_jobs reads only these columns (not the 1 KB description, the arrays). */
type SummaryRow = Pick<
	JobRow,
	| 'id'
	| 'title'
	| 'status'
	| 'department'
	| 'location'
	| 'contractType'
	| 'vendorId'
	| 'createdByUserId'
	| 'activelyHiring'
	| 'createdAt'
	| 'publishedAt'
	| 'slug'
> & { label: string }
const SUMMARY_COLUMNS = sql.raw(
	`${jobLabelSql('j')} as "label", ${[
		['id', 'id'],
		['title', 'title'],
		['status', 'status'],
		['department', 'department'],
		['location', 'location'],
		['contract_type', 'contractType'],
		['vendor_id', 'vendorId'],
		['created_by_user_id', 'createdByUserId'],
		['actively_hiring', 'activelyHiring'],
		['created_at', 'createdAt'],
		['published_at', 'publishedAt'],
		['slug', 'slug'],
	]
		.map(([c, a]) => `j.${c} as "${a}"`)
		.join(', ')}`,
)

/**
 * Who wrote a job's texts, as `reader` sees them: its vendor (published through the REST API), or
 * the person who made it in the portal or with create_job (`personAuthor`: the reader themselves,
 * `self`, or a colleague; a job nobody is recorded as making is a colleague's).
 */
export const jobAuthor = (row: JobAuthorship, reader: { userId?: string | null }): TextAuthor =>
	row.vendorId ? 'vendor' : personAuthor(row.createdByUserId, reader)

/** What `jobAuthor` reads of a job: its vendor, or who made it. */
export interface JobAuthorship {
	vendorId: string | null
	createdByUserId: string | null
}

/**
 * Vendors write a job's text through the REST API (colleagues through create_job): on its way to a
 * tool result each field is labelled with its author and made inert (core/untrusted.ts), one line
 * for the short ones. The caps are at least the input limits: only a line that grew as links were
 * spelled out can be cut. Stored text is left as written. Only the values of fixed lists (status,
 * contract type, visa, schedule) stay plain.
 */
function summarize(
	deps: AppDeps,
	actor: Actor,
	row: SummaryRow,
	vendors: Map<string, UntrustedText>,
	facts: { applicantCount?: number } | undefined,
): JobSummary {
	const by = jobAuthor(row, actor)
	return {
		id: row.id,
		title: untrustedLine(row.title, by, 200),
		label: untrustedLine(row.label, by, 300),
		status: row.status,
		department: untrustedLine(row.department, by, 120),
		location: untrustedLine(row.location, by, 200),
		contractType: row.contractType,
		vendor: row.vendorId ? { id: row.vendorId, name: vendors.get(row.vendorId) ?? untrustedLine('', 'vendor') } : null,
		applicantCount: facts?.applicantCount ?? 0,
		activelyHiring: row.activelyHiring,
		createdAt: isoInstant(row.createdAt),
		publishedAt: row.publishedAt ? isoInstant(row.publishedAt) : null,
		url: row.status === 'Open' ? jobAddress(deps.config.baseUrl, actor.workspaceSlug, row.id) : null,
	}
}

export interface ListJobsInput {
	status?: JobStatus
	query?: string
	/** Only this vendor's jobs. */
	vendorId?: string
	/** Text the location contains. */
	location?: string
	/** One of JOB_SORTS (default newest). */
	sort?: string
	limit: number
	cursor?: string
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)

/** Orders of the jobs list; the first is the default (and `list_jobs`' only one). */
export const JOB_SORTS = ['newest', 'oldest', 'title', 'title-desc', 'location'] as const
export type JobSort = (typeof JOB_SORTS)[number]
export const JOB_SORT_LABELS: Record<JobSort, string> = {
	newest: 'Newest first',
	oldest: 'Oldest first',
	title: 'Title, A to Z',
	'title-desc': 'Title, Z to A',
	location: 'Location, A to Z',
}

/** An order over text (not cursor-safe): the cursor holds the last job's id, its values are read back with it. */
const byLookup = (columns: readonly string[], desc = false): Order<SummaryRow> => ({
	keys: columns.map((c) => ({ expr: sql.raw(c), desc })),
	lookup: (id: string) => sql`select ${sql.raw(columns.map((c) => c.replace(/\bj\./g, 'x.')).join(', '))} from ${jobs} x where x.id = ${id}`,
})

const ORDERS: Record<JobSort, Order<SummaryRow>> = {
	newest: newestFirst<SummaryRow>(sql`j.created_at`, sql`j.id`, (r) => r.createdAt),
	oldest: { keys: [timeKey<SummaryRow>(sql`j.created_at`, (r) => r.createdAt), idKey<SummaryRow>(sql`j.id`)] },
	title: byLookup(['lower(j.title)', 'j.id']),
	'title-desc': byLookup(['lower(j.title)', 'j.id'], true),
	// Jobs without a location come after those with one.
	location: byLookup(['(j.location is null)', "lower(coalesce(j.location, ''))", 'j.id']),
}

/**
 * Jobs in the chosen order (newest first by default), keyset-paged; the cursor is bound to the
 * person, the filters and the order. A sort that is not one of JOB_SORTS is refused (VALIDATION).
 */
export async function listJobs(deps: AppDeps, actor: Actor, input: ListJobsInput): Promise<{ jobs: JobSummary[]; nextCursor: string | null }> {
	const sort = (input.sort || 'newest') as JobSort
	if (!JOB_SORTS.includes(sort)) throw invalid([{ field: 'sort', message: `must be one of: ${JOB_SORTS.join(', ')}` }])
	const location = input.location?.trim() ?? ''
	const problem = searchTextProblem(input.query?.trim() ?? '')
	if (problem) throw invalid([{ field: 'query', message: problem }])
	// The tool's cursors (no vendor, location or order) keep the scope they always had.
	const more = input.vendorId || location || sort !== 'newest' ? `:${input.vendorId ?? ''}:${location}:${sort}` : ''
	const scope = `list_jobs:${actor.userId}:${input.status ?? ''}:${input.query ?? ''}${more}`
	const conditions: SQL[] = [jobReach(actor)]
	if (input.status) conditions.push(sql`j.status = ${input.status}`)
	// Matched as the search matches (modules/jobs/matching.ts): `search` offers this list to page through what it counted.
	if (input.query?.trim()) conditions.push(jobMatches(input.query.trim()))
	if (input.vendorId) conditions.push(sql`j.vendor_id = ${input.vendorId}`)
	if (location) conditions.push(sql`j.location ilike ${`%${escapeLike(location)}%`}`)
	const { rows: page, nextCursor } = await keysetPage(deps, {
		scope,
		cursor: input.cursor,
		limit: input.limit,
		order: ORDERS[sort],
		from: sql`select ${SUMMARY_COLUMNS} from ${jobs} j`,
		where: conditions,
	})
	const [vendors, facts] = await Promise.all([
		vendorNames(deps, unique(page.map((r) => r.vendorId))),
		jobFacts(
			deps,
			actor,
			page.map((r) => r.id),
		),
	])
	return { jobs: page.map((r) => summarize(deps, actor, r, vendors, facts.get(r.id))), nextCursor }
}

/** The vendors of the jobs the actor can reach, by name (the jobs list's vendor filter). */
export async function jobVendors(deps: AppDeps, actor: Actor): Promise<{ id: string; name: UntrustedText }[]> {
	const rows = await deps.database.rows<{ id: string }>(
		sql`select distinct j.vendor_id as id from ${jobs} j where ${jobReach(actor)} and j.vendor_id is not null`,
	)
	const names = await vendorNames(
		deps,
		rows.map((r) => r.id),
	)
	return rows.map((r) => ({ id: r.id, name: names.get(r.id) ?? untrustedLine('', 'vendor') })).sort((a, b) => textOf(a.name).localeCompare(textOf(b.name)))
}

const unique = (ids: (string | null)[]) => [...new Set(ids.filter((x): x is string => Boolean(x)))]

export interface JobDetail extends JobSummary {
	summary: UntrustedText | null
	description: UntrustedText | null
	requirements: UntrustedText[]
	niceToHave: UntrustedText[]
	employment: UntrustedText | null
	visa: string | null
	interview: UntrustedText | null
	schedule: string | null
	minYears: number | null
	salaryMin: number | null
	salaryMax: number | null
	vendorJobId: UntrustedText | null
	updatedAt: string
	closedAt: string | null
	hiringTeam: { userId: string; name: UntrustedText; teamRole: string }[]
	screeningQuestions: { id: string; prompt: UntrustedText; kind: string; required: boolean }[]
	applicationsByStage: Record<string, number>
}

export async function getJob(deps: AppDeps, actor: Actor, jobId: string): Promise<JobDetail> {
	const row = await loadJob(deps, actor, jobId)
	const [team, questions, vendors, facts] = await Promise.all([
		deps.db
			.select({ userId: jobTeam.userId, teamRole: jobTeam.teamRole })
			.from(jobTeam)
			.where(eq(jobTeam.jobId, jobId))
			.orderBy(asc(jobTeam.addedAt), asc(jobTeam.userId)),
		deps.db
			.select({ id: jobQuestions.id, prompt: jobQuestions.prompt, kind: jobQuestions.kind, required: jobQuestions.required })
			.from(jobQuestions)
			.where(eq(jobQuestions.jobId, jobId))
			.orderBy(asc(jobQuestions.position)),
		vendorNames(deps, unique([row.vendorId])),
		jobFacts(deps, actor, [jobId]),
	])
	const names = await userNames(
		deps.db,
		team.map((t) => t.userId),
		actor,
	)
	const f = facts.get(jobId)
	const by = jobAuthor(row, actor)
	return {
		...summarize(deps, actor, row, vendors, f),
		summary: row.summary === null ? null : untrusted(row.summary, by, 1000),
		// htmlToText decodes entities, so `&lt;img …&gt;` becomes a tag here: made inert after it.
		description: row.description ? untrusted(htmlToText(row.description), by, 20000) : null,
		requirements: (row.mustHave ?? []).map((r) => untrustedLine(r, by, 300)),
		niceToHave: (row.niceToHave ?? []).map((r) => untrustedLine(r, by, 300)),
		employment: untrustedLine(row.employment, by, 60),
		visa: row.visa,
		interview: untrustedLine(row.interview, by, 120),
		schedule: row.schedule,
		minYears: row.minYears,
		salaryMin: row.salaryMin,
		salaryMax: row.salaryMax,
		vendorJobId: untrustedLine(row.vendorJobId, 'vendor', 100),
		updatedAt: isoInstant(row.updatedAt),
		closedAt: row.closedAt ? isoInstant(row.closedAt) : null,
		hiringTeam: team.map((t) => ({ ...personRef(names, t.userId), teamRole: t.teamRole })),
		// Screening questions are the workspace's own wording, typed by people there.
		screeningQuestions: questions.map((q) => ({ ...q, prompt: untrustedLine(q.prompt, 'colleague', 500) })),
		applicationsByStage: f?.applicationsByStage ?? {},
	}
}

export interface CreateJobInput {
	title: string
	department?: string
	location?: string
	employment?: string
	pitch?: string
	description?: string
	requirements?: string[]
	niceToHave?: string[]
	salaryMin?: number
	salaryMax?: number
	contractType?: string
	activelyHiring?: boolean
}

/** The largest amount the salary columns hold (PostgreSQL integer): a larger one is refused as input, not failed as a database error. */
export const MAX_SALARY = 2_147_483_647

export async function createJob(deps: AppDeps, actor: Actor, input: CreateJobInput): Promise<JobDetail> {
	if (input.activelyHiring && !deps.permissions.can(actor, ACTIVELY_HIRING))
		throw forbidden('Setting activelyHiring needs the actively-hiring permission; create the job without it')
	const tooLarge = (['salaryMin', 'salaryMax'] as const).filter((f) => (input[f] ?? 0) > MAX_SALARY)
	if (tooLarge.length) throw invalid(tooLarge.map((field) => ({ field, message: `must be at most ${MAX_SALARY}` })))
	if (input.salaryMin !== undefined && input.salaryMax !== undefined && input.salaryMin > input.salaryMax)
		throw invalid([{ field: 'salaryMin', message: 'must not be greater than salaryMax' }])
	const mixed = mixedPayUnits({ salaryMin: input.salaryMin ?? null, salaryMax: input.salaryMax ?? null })
	if (mixed) throw invalid([mixed])
	if (isBlank(input.title)) throw invalid([{ field: 'title', message: 'must not be blank' }])
	// One-line fields are one line through every door (the Job Publish API refuses the same, rest-text.ts).
	const multiline = lineBreakErrors(input as unknown as Record<string, unknown>, [
		'title',
		'department',
		'location',
		'employment',
		'contractType',
		'requirements',
		'niceToHave',
	])
	const description = input.description ? storedDescription(input.description) : null
	const problems = [...multiline, ...(description?.problem ? [description.problem] : [])]
	if (problems.length) throw invalid(problems)
	const fields = {
		title: input.title.trim(),
		department: input.department?.trim() || 'Technologies',
		location: input.location ?? null,
		employment: input.employment ?? null,
		summary: input.pitch === undefined ? null : lineFeeds(input.pitch),
		description: description?.html ?? null,
		mustHave: distinctItems(input.requirements ?? []).items,
		niceToHave: distinctItems(input.niceToHave ?? []).items,
		salaryMin: input.salaryMin ?? null,
		salaryMax: input.salaryMax ?? null,
		contractType: input.contractType ?? null,
		activelyHiring: input.activelyHiring ?? false,
	}
	// A client that retries the same call (its answer got lost) gets the job it already made.
	const repeat = await recentSameDraft(deps, actor, fields)
	if (repeat) return getJob(deps, actor, repeat)
	const id = newId('job')
	await deps.db.transaction(async (tx) => {
		await tx
			.insert(jobs)
			.values({ id, workspaceId: actor.workspaceId, slug: `${slugify(input.title)}-${shortCode()}`, ...fields, status: 'Draft', createdByUserId: actor.userId })
		if (actor.userId)
			await tx.insert(jobTeam).values({ jobId: id, userId: actor.userId, teamRole: actor.role === 'hiring_manager' ? 'hiring_manager' : 'recruiter' })
		await recordActivity(tx, actor, { action: 'job.created', targetType: 'job', targetId: id, detail: { title: input.title.trim(), status: 'Draft' } })
	})
	return getJob(deps, actor, id)
}

/** A Draft this person created moments ago with exactly these fields (a retried call), if any. */
async function recentSameDraft<F extends Partial<Record<keyof typeof jobs.$inferInsert, unknown>>>(
	deps: AppDeps,
	actor: Actor,
	fields: F,
): Promise<string | null> {
	if (!actor.userId) return null
	const same = Object.entries(fields).map(([key, value]) => {
		const column = jobs[key as keyof typeof jobs.$inferInsert]
		if (value === null) return sql`${column} is null`
		if (Array.isArray(value))
			return sql`${column} = ${
				value.length
					? sql`array[${sql.join(
							value.map((v) => sql`${v}`),
							sql`, `,
						)}]::text[]`
					: sql`'{}'::text[]`
			}`
		return sql`${column} = ${value}`
	})
	const [row] = await deps.db
		.select({ id: jobs.id })
		.from(jobs)
		.where(
			and(
				eq(jobs.workspaceId, actor.workspaceId),
				eq(jobs.createdByUserId, actor.userId),
				eq(jobs.status, 'Draft'),
				sql`${jobs.createdAt} > ${repeatWindowStart(deps.now()).toISOString()}::timestamptz`,
				...same,
			),
		)
		.limit(1)
	return row?.id ?? null
}

export async function setJobStatus(deps: AppDeps, actor: Actor, jobId: string, status: JobStatus): Promise<JobDetail> {
	// Asked here too, not only by the tool's and the page's door: every caller of the service gets the rule.
	if (!deps.permissions.can(actor, SET_STATUS)) throw forbidden('Publishing, closing or drafting a job needs the jobs:set_status permission')
	await loadJob(deps, actor, jobId)
	await deps.db.transaction(async (tx) => {
		// The row as it is now, locked: what the change does (and its event) is decided on it, not on an earlier read.
		const [before] = await deps.database.rows<{ status: JobStatus; publishedAt: string | null; vendorId: string | null }>(
			sql`select status, published_at as "publishedAt", vendor_id as "vendorId" from ${jobs} where id = ${jobId} and workspace_id = ${actor.workspaceId} for update`,
			tx,
		)
		if (!before || before.status === status) return
		const now = sql`now()`
		await tx
			.update(jobs)
			.set({
				status,
				updatedAt: now,
				publishedAt: status === 'Open' ? now : undefined,
				closedAt: status === 'Closed' ? now : null,
			})
			.where(and(eq(jobs.id, jobId), eq(jobs.workspaceId, actor.workspaceId)))
		await recordActivity(tx, actor, { action: 'job.status_set', targetType: 'job', targetId: jobId, detail: { from: before.status, to: status } })
		const event = jobEventOf(before, status, true)
		if (event) await recordEvent(tx, event, actor, { jobId, vendorId: before.vendorId, status })
	})
	return getJob(deps, actor, jobId)
}

export async function setActivelyHiring(deps: AppDeps, actor: Actor, jobId: string, activelyHiring: boolean): Promise<JobDetail> {
	if (!deps.permissions.can(actor, ACTIVELY_HIRING)) throw forbidden('Marking a job as actively hiring needs the jobs:actively_hiring permission')
	const row = await loadJob(deps, actor, jobId)
	if (row.activelyHiring !== activelyHiring) {
		await deps.db.transaction(async (tx) => {
			await tx
				.update(jobs)
				.set({ activelyHiring, updatedAt: sql`now()` })
				.where(and(eq(jobs.id, jobId), eq(jobs.workspaceId, actor.workspaceId)))
			await recordActivity(tx, actor, { action: activelyHiring ? 'job.actively_hiring_on' : 'job.actively_hiring_off', targetType: 'job', targetId: jobId })
			await recordEvent(tx, jobChanged, actor, { jobId, vendorId: row.vendorId, status: row.status as JobStatus })
		})
	}
	return getJob(deps, actor, jobId)
}

/** Titles of jobs by id, within the actor's workspace (for other modules' results): labelled with their author, as in summaries. */
/** What other modules' flows need to name and address jobs of the workspace: plain (the caller labels what it shows). */
export interface JobRef {
	title: string
	status: string
	slug: string
	vendorId: string | null
	/** The vendor's own reference for the job. */
	vendorJobId: string | null
}

/** `db`: the caller's transaction, when it has one (a second connection inside it waits forever on the embedded database). */
export async function jobRefs(deps: AppDeps, workspaceId: string, ids: string[], db: Db = deps.db): Promise<Map<string, JobRef>> {
	if (!ids.length) return new Map()
	const rows = await db
		.select({ id: jobs.id, title: jobs.title, status: jobs.status, slug: jobs.slug, vendorId: jobs.vendorId, vendorJobId: jobs.vendorJobId })
		.from(jobs)
		.where(and(eq(jobs.workspaceId, workspaceId), inArray(jobs.id, [...new Set(ids)])))
	return new Map(rows.map(({ id, ...ref }) => [id, ref]))
}

/**
 * Each job's label (modules/jobs/label.ts): its title, and what tells it apart from jobs of the same
 * title; labelled with its author as `reader` sees it (`jobAuthor`), in the reader's workspace.
 */
export async function jobLabels(deps: AppDeps, reader: { workspaceId: string; userId?: string | null }, ids: string[]): Promise<Map<string, UntrustedText>> {
	if (!ids.length) return new Map()
	const rows = await deps.database.rows<{ id: string; label: string } & JobAuthorship>(
		sql`select j.id, ${sql.raw(jobLabelSql('j'))} as label, j.vendor_id as "vendorId", j.created_by_user_id as "createdByUserId" from ${jobs} j
		where j.workspace_id = ${reader.workspaceId} and j.id in ${inList([...new Set(ids)])}`,
	)
	return new Map(rows.map((r) => [r.id, untrustedLine(r.label, jobAuthor(r, reader), 300)]))
}
