/**
 * The jobs pages: `/jobs` (list), `/jobs/new` (New job), `/jobs/<id>` (a job and, from other
 * modules, its pipeline, applicants, leads and bench ranking; `?stage=<key>` or `?list=<name>`
 * shows one of those lists in full, paged), the status and actively-hiring buttons, and the
 * hiring team's Add to the team and Take off the team.
 * Thin adapters over the services the job tools call, with the tools' permissions, so every role
 * rule holds alike; forms answer with Post/Redirect/Get.
 */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, type FieldError } from '../../core/errors.ts'
import { pageSections, type SafeHtml } from '../../core/html.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { doneNotice, formText, seeOther } from '../../core/http/form.ts'
import type { HttpKit, PageQuery } from '../../core/module.ts'
import { ownEntry } from '../../core/own-entry.ts'
import { checkValue } from '../../core/schema-check.ts'
import { formValues, parseJobForm, serviceErrors } from './job-form.ts'
import { JOB_STATUSES, type JobStatus } from './model.ts'
import { jobPage, jobsListPage, newJobPage, type TeamChanges } from './pages.ts'
import { ACTIVELY_HIRING, createJob, getJob, JOB_SORTS, jobVendors, listJobs, setActivelyHiring, setJobStatus, type ListJobsInput } from './service.ts'
import { ListJobsParams } from './tools.ts'
import { addHiringManager, CHANGE_TEAM, hiringManagersOffTeam, removeFromTeam } from './team.ts'

const form = t.Object({ csrf: t.Optional(t.String()) }, { additionalProperties: true })

/** Confirmations after a change (`?done=<key>`, Post/Redirect/Get). */
const NOTICES: Record<string, string> = {
	created: 'The job was created as a Draft: nobody outside sees it until it is published.',
	published: 'The job is published: it is live on the careers site.',
	closed: 'The job is closed: it is no longer on the careers site.',
	drafted: 'The job is back to Draft: it is no longer on the careers site.',
	'hiring-on': 'The job is marked as actively hiring.',
	'hiring-off': 'The job is no longer marked as actively hiring.',
}
/** Confirmations of the hiring team's changes, shown in its section. */
const TEAM_NOTICES: Record<string, string> = {
	'team-added': 'The hiring manager is on the team: they now see this job and its applicants.',
	'team-already': 'That hiring manager was already on the team; nothing changed.',
	'team-removed': 'The person is off the hiring team. A hiring manager no longer sees this job or its applicants, unless on its team again.',
	'team-not-on': 'That person was not on the hiring team; nothing changed.',
}
const NOT_A_HIRING_MANAGER = 'The person chosen is not a hiring manager in this workspace (any more): choose one from the list.'
const DONE_FOR_STATUS: Record<JobStatus, string> = { Open: 'published', Closed: 'closed', Draft: 'drafted' }

/**
 * The lists a job's page shows in full (`?list=`), contributed by other modules' sections; the
 * names are this page's address contract. `?stage=<key>` shows one pipeline stage.
 */
const LISTS: Record<string, string> = {
	applicants: 'Applicants ranked by résumé check',
	leads: 'Leads ranked by résumé check',
	closed: 'Rejected or withdrawn',
	archived: 'Archived applications',
	bench: 'Bench ranked by fit',
}

const JOBS_PER_PAGE = 25

/**
 * Job ids are made of letters, digits, `_` and `-` (core/credentials.ts): an address with anything
 * else names no job and is answered as absent, without a query (nor a database error on a NUL).
 */
const jobIdOf = (id: string) => {
	if (!/^[A-Za-z0-9_-]{1,160}$/.test(id)) throw new AppError('NOT_FOUND', 'No job with this id')
	return id
}

/** What the jobs list page accepts: list_jobs' parameters and limits, and the page's own filters and orders. */
const JobsPageParams = t.Object(
	{
		...ListJobsParams.properties,
		vendorId: t.Optional(t.String({ minLength: 1, maxLength: 160 })),
		location: t.Optional(t.String({ maxLength: 200 })),
		sort: t.Optional(t.Union(JOB_SORTS.map((s) => t.Literal(s)))),
	},
	{ additionalProperties: false },
)

/** Where a refused list filter is shown on the list page (its form field, or the results). */
const LIST_FIELDS: Record<string, [string, string]> = {
	query: ['q', 'Title search'],
	status: ['status', 'Status'],
	vendorId: ['vendor', 'Vendor'],
	location: ['location', 'Location search'],
	sort: ['sort', 'Sort'],
}
const FIXED_MESSAGES: Record<string, string> = {
	status: 'must be Open, Draft or Closed',
	sort: `must be one of: ${JOB_SORTS.join(', ')}`,
	vendorId: 'must be one of the vendors listed',
}
const OUT_OF_DATE = 'This page link is out of date or was changed: start again from the first page.'

function filterErrors(errors: readonly FieldError[]): FieldError[] {
	return errors.map((e) => {
		const known = LIST_FIELDS[e.field]
		if (known) return { field: known[0], message: `${known[1]} ${FIXED_MESSAGES[e.field] ?? e.message}` }
		return { field: 'results', message: e.field === 'cursor' ? OUT_OF_DATE : `${e.field} ${e.message}` }
	})
}

/** The jobs list for these filters and order; refused filters are said on the page. */
async function showList(
	deps: AppDeps,
	session: PageSession,
	query: { q?: string; status?: string; vendor?: string; location?: string; sort?: string; cursor?: string },
) {
	const filters = { q: query.q ?? '', status: query.status ?? '', vendor: query.vendor ?? '', location: query.location ?? '', sort: query.sort ?? '' }
	const args: Record<string, unknown> = { limit: JOBS_PER_PAGE }
	if (filters.q.trim()) args.query = filters.q.trim()
	if (filters.status) args.status = filters.status
	if (filters.vendor) args.vendorId = filters.vendor
	if (filters.location.trim()) args.location = filters.location.trim()
	if (filters.sort) args.sort = filters.sort
	if (query.cursor) args.cursor = query.cursor
	const checked = checkValue<ListJobsInput>(JobsPageParams, args, { unknown: 'reject' })
	const vendors = await jobVendors(deps, session.actor)
	// A vendor none of the person's jobs has is not one of the choices (another workspace's, or made up).
	if (filters.vendor && !vendors.some((v) => v.id === filters.vendor)) checked.errors.push({ field: 'vendorId', message: 'is not a vendor' })
	const view = { filters, vendors, paged: Boolean(query.cursor), jobs: [], nextCursor: null }
	if (checked.errors.length) return jobsListPage(deps, session, { ...view, errors: filterErrors(checked.errors) })
	try {
		const list = await listJobs(deps, session.actor, checked.value)
		return jobsListPage(deps, session, { ...view, ...list, errors: [] })
	} catch (error) {
		if (!(error instanceof AppError) || error.code !== 'VALIDATION') throw error
		return jobsListPage(deps, session, { ...view, errors: filterErrors(error.fields ?? [{ field: 'cursor', message: error.message }]) })
	}
}

/** The hiring team's choices for someone who may change it (undefined for others). */
async function teamChanges(deps: AppDeps, session: PageSession, job: { hiringTeam: { userId: string }[] }, more: Omit<TeamChanges, 'offTeam'>) {
	if (!deps.permissions.can(session.actor, CHANGE_TEAM)) return undefined
	const offTeam = await hiringManagersOffTeam(
		deps,
		session.actor.workspaceId,
		job.hiringTeam.map((m) => m.userId),
	)
	return { offTeam, ...more }
}

/** A job's page, or one of its lists (a stage, applicants, leads): a list asked for wrongly is said on the page. */
async function showJob(
	deps: AppDeps,
	session: PageSession,
	jobId: string,
	query: { stage?: string; list?: string; cursor?: string; done?: string },
	teamErrors?: FieldError[],
) {
	const job = await getJob(deps, session.actor, jobId)
	if (query.stage === undefined && query.list === undefined) {
		// The confirmation of a change shows next to what made it: the job's own buttons under the
		// heading, a section's (the pipeline's Move, the scorecard, the hiring team) in that section.
		return jobPage(deps, session, {
			job,
			sections: await pageSections(deps, 'job', session, jobId, { done: query.done }),
			notice: doneNotice(NOTICES, query.done),
			team: await teamChanges(deps, session, job, { notice: doneNotice(TEAM_NOTICES, query.done), errors: teamErrors }),
		})
	}
	const listLabel = query.list === undefined ? undefined : ownEntry(LISTS, query.list)
	const label = query.list !== undefined ? (listLabel ?? 'List') : 'Pipeline stage'
	const refused = (problem: string, link: { href: string; text: string }) => jobPage(deps, session, { job, sections: [], list: { label, problem, link } })
	const backToJob = { href: `/jobs/${jobId}`, text: 'Back to the job' }
	if (query.stage !== undefined && query.list !== undefined) return refused('Ask for one list at a time: a stage or a list, not both.', backToJob)
	if (query.list !== undefined && !listLabel)
		return refused(`A job’s page has no list “${query.list}”: the lists are ${Object.keys(LISTS).join(', ')}.`, backToJob)
	const pageQuery: PageQuery = { stage: query.stage, list: query.list, cursor: query.cursor }
	let sections: SafeHtml[]
	try {
		sections = await pageSections(deps, 'job', session, jobId, { query: pageQuery })
	} catch (error) {
		if (!(error instanceof AppError) || error.code !== 'VALIDATION') throw error
		const field = error.fields?.[0]
		if (field?.field === 'cursor')
			return refused(OUT_OF_DATE, {
				href: `/jobs/${jobId}?${query.stage !== undefined ? `stage=${encodeURIComponent(query.stage)}` : `list=${query.list}`}`,
				text: 'Go to the first page',
			})
		if (field?.field === 'stageKey')
			return refused(`The stage “${query.stage}” ${field.message}.`, { href: `/jobs/${jobId}#pipeline`, text: 'Back to the pipeline' })
		return refused(error.message, backToJob)
	}
	// Every list belongs to a section; none answering means the role may not see it.
	if (!sections.length) throw new AppError('FORBIDDEN', 'Your role does not allow this list.')
	return jobPage(deps, session, { job, sections, list: { label } })
}

export function jobPageRoutes(deps: AppDeps, { auth }: HttpKit) {
	return new Elysia({ name: 'jobs.pages' })
		.use(auth)
		.get('/jobs', ({ session, query }) => showList(deps, session, query), {
			session: { permission: 'jobs:read' },
			// Generous caps here; the exact limits are list_jobs' own, checked with their messages.
			query: t.Object({
				q: t.Optional(t.String({ maxLength: 1000 })),
				status: t.Optional(t.String({ maxLength: 100 })),
				vendor: t.Optional(t.String({ maxLength: 1000 })),
				location: t.Optional(t.String({ maxLength: 1000 })),
				sort: t.Optional(t.String({ maxLength: 100 })),
				cursor: t.Optional(t.String({ maxLength: 1000 })),
			}),
		})
		.get('/jobs/new', ({ session }) => newJobPage(deps, session, {}, []), { session: { permission: 'jobs:create' } })
		.post(
			'/jobs/new',
			async ({ session, body, redirect }) => {
				const values = formValues(body)
				const parsed = parseJobForm(values)
				if (!parsed.input) return newJobPage(deps, session, values, parsed.errors)
				try {
					const job = await createJob(deps, session.actor, parsed.input)
					return redirect(`/jobs/${job.id}?done=created#done`, 303)
				} catch (error) {
					if (!(error instanceof AppError) || error.code !== 'VALIDATION') throw error
					return newJobPage(deps, session, values, serviceErrors(error.fields, error.message))
				}
			},
			{ session: { permission: 'jobs:create' }, body: form },
		)
		.get('/jobs/:id', ({ session, params, query }) => showJob(deps, session, jobIdOf(params.id), query), {
			session: { permission: 'jobs:read' },
			query: t.Object({
				stage: t.Optional(t.String({ maxLength: 60 })),
				list: t.Optional(t.String({ maxLength: 30 })),
				cursor: t.Optional(t.String({ maxLength: 64 })),
				done: t.Optional(t.String({ maxLength: 30 })),
			}),
		})
		.post(
			'/jobs/:id/status',
			async ({ session, params, body, redirect }) => {
				const status = (body as Record<string, unknown>).status
				if (!JOB_STATUSES.includes(status as JobStatus)) throw new AppError('VALIDATION', 'The status must be Open, Draft or Closed.')
				const job = await setJobStatus(deps, session.actor, jobIdOf(params.id), status as JobStatus)
				return redirect(`/jobs/${job.id}?done=${DONE_FOR_STATUS[status as JobStatus]}#done`, 303)
			},
			{ session: { permission: 'jobs:set_status' }, body: form },
		)
		.post(
			'/jobs/:id/actively-hiring',
			async ({ session, params, body, redirect }) => {
				const value = (body as Record<string, unknown>).activelyHiring
				if (value !== 'on' && value !== 'off') throw new AppError('VALIDATION', 'Actively hiring must be on or off.')
				const job = await setActivelyHiring(deps, session.actor, jobIdOf(params.id), value === 'on')
				return redirect(`/jobs/${job.id}?done=hiring-${value}#done`, 303)
			},
			{ session: { permission: ACTIVELY_HIRING }, body: form },
		)
		.use(teamRoutes(deps, auth))
}

/** The hiring team's Add to the team and Take off the team, on the job's page (`modules/jobs/team.ts` holds the rules). */
function teamRoutes(deps: AppDeps, auth: HttpKit['auth']) {
	return new Elysia({ name: 'jobs.pages.team' })
		.use(auth)
		.post(
			'/jobs/:id/team',
			async ({ session, params, body }) => {
				const jobId = jobIdOf(params.id)
				const userId = formText(body, 'userId')
				try {
					const { changed } = await addHiringManager(deps, session.actor, jobId, userId)
					return seeOther(`/jobs/${jobId}`, changed ? 'team-added' : 'team-already', 'done')
				} catch (error) {
					if (!(error instanceof AppError) || error.code !== 'VALIDATION') throw error
					// Nobody chosen, or someone who stopped being a hiring manager here since the page was shown.
					const message = userId ? NOT_A_HIRING_MANAGER : 'Choose a hiring manager to add.'
					return showJob(deps, session, jobId, {}, [{ field: 'team-add', message }])
				}
			},
			{ session: { permission: CHANGE_TEAM }, body: form },
		)
		.post(
			'/jobs/:id/team/:userId/remove',
			async ({ session, params }) => {
				const jobId = jobIdOf(params.id)
				const { changed } = await removeFromTeam(deps, session.actor, jobId, params.userId)
				return seeOther(`/jobs/${jobId}`, changed ? 'team-removed' : 'team-not-on', 'done')
			},
			{ session: { permission: CHANGE_TEAM }, body: form },
		)
}
