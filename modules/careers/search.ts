/**
 * The careers site's job search, for candidates: `/careers/<slug>?q=java&location=Austin&remote=on&type=Contract&page=2`.
 * Keywords are matched and ranked as in the product's job search (`findOpenJobs`, `jobRanking`); the
 * location, remote and employment-type filters narrow the open jobs; 20 a page. Job alerts keep the
 * same criteria and find new jobs with the same conditions (alerts.ts). Input that cannot be a
 * search (an unknown type, page 0 or past `MAX_PAGE`, overlong text, keywords of one character) is
 * refused with what is wrong.
 */
import { type SQL, sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import type { FieldError } from '../../core/errors.ts'
import { unreadableMessage } from '../../core/http/query.ts'
import { MIN_SEARCH_CHARS, SEARCH_TEXT_TOO_SHORT } from '../../core/text-search.ts'
import type { Db } from '../../db/client.ts'
import { findOpenJobs, type PublicJob } from '../jobs/index.ts'
import { shownJob } from './lookup.ts'
import { placeCondition, placeOpenJobLocations } from './places.ts'
import { EMPLOYMENT_TYPE_LABELS, type EmploymentType, employmentTypeSql, fullyRemoteSql } from './job-facts.ts'
import { fileText, firstCodePoints } from '../../core/untrusted.ts'
import { codePoints } from '../../core/schema-check.ts'

/**
 * The employment types a candidate may pick: the `type` parameter's values (its contract: Full-time,
 * Part-time, Contract, Temporary, Internship), the words the job page shows, and what each means.
 */
export const JOB_TYPES: Readonly<Record<string, EmploymentType>> = Object.fromEntries(
	(['FULL_TIME', 'PART_TIME', 'CONTRACTOR', 'TEMPORARY', 'INTERN'] as const).map((type) => [EMPLOYMENT_TYPE_LABELS[type], type]),
)

export const PAGE_SIZE = 20
/** 10,000 jobs deep: further pages are refused (nobody reads them; an offset that far is slow). */
export const MAX_PAGE = 500
export const MAX_Q = 200
export const MAX_LOCATION = 100

export interface JobCriteria {
	q: string
	location: string
	remote: boolean
	/** A key of `JOB_TYPES`, or '' for any. */
	type: string
}

export const NO_CRITERIA: JobCriteria = { q: '', location: '', remote: false, type: '' }

export const hasCriteria = (c: JobCriteria) => Boolean(c.q || c.location || c.remote || c.type)

const one = (v: unknown) => (typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : '')

/** Each parameter's name as the form labels it. */
const LABELS: Readonly<Record<string, string>> = { q: 'Keywords', location: 'Location', remote: 'Remote only', type: 'Employment type', page: 'Page' }

/**
 * The criteria and page of a query string (or a form), with what is wrong in it. `undecodable`: the
 * parameters whose text the address (or the job-alert form, `from`) does not hold readably (`undecodableQueryNames`): each is refused,
 * never read as what was typed (`?q=%zz` is not a search for "%zz"). This is the app's one rule for such
 * addresses (core/app.ts, `unreadableQuery`), answered here with the search form and its error summary.
 */
export function readCriteria(
	given: Record<string, unknown>,
	undecodable: readonly string[] = [],
	from = 'this address',
): { criteria: JobCriteria; page: number; errors: FieldError[] } {
	const errors: FieldError[] = []
	const input = { ...given }
	for (const field of Object.keys(LABELS).filter((name) => undecodable.includes(name))) {
		errors.push({ field, message: `${unreadableMessage(LABELS[field]!, from)}: type it again` })
		input[field] = ''
	}
	// Any other parameter that cannot be read is refused too, as on every page (core/app.ts), at the first field.
	if (undecodable.some((name) => !Object.hasOwn(LABELS, name) && name !== 'email' && name !== 'csrf'))
		errors.push({ field: 'q', message: `${unreadableMessage('Part of the search', from)}: type it again` })
	// What was typed, without control or invisible characters or noncharacters (a NUL pasted in is no keyword, and the
	// database refuses it; an alert keeps the search, and a person's export holds it: `fileText`).
	const q = fileText(one(input.q)).replace(/\s+/g, ' ').trim()
	const location = fileText(one(input.location)).replace(/\s+/g, ' ').trim()
	const remoteText = one(input.remote)
	const typeText = one(input.type).trim()
	const pageText = one(input.page).trim()
	// Characters are code points, as every length in the product is counted (an emoji is one, not two UTF-16 units).
	// One character matches nothing (the words searched have two or more): said, as every search of the product says it,
	// rather than "0 jobs match" and a job alert that could never send a job.
	if (q && codePoints(q) < MIN_SEARCH_CHARS) errors.push({ field: 'q', message: `Keywords ${SEARCH_TEXT_TOO_SHORT}` })
	if (codePoints(q) > MAX_Q) errors.push({ field: 'q', message: `Keywords can be at most ${MAX_Q} characters` })
	if (codePoints(location) > MAX_LOCATION) errors.push({ field: 'location', message: `Location can be at most ${MAX_LOCATION} characters` })
	if (remoteText && remoteText !== 'on') errors.push({ field: 'remote', message: 'Remote only is on or left out' })
	const type = Object.keys(JOB_TYPES).find((t) => t.toLowerCase() === typeText.toLowerCase()) ?? ''
	if (typeText && !type) errors.push({ field: 'type', message: `Employment type must be one of: ${Object.keys(JOB_TYPES).join(', ')}` })
	let page = 1
	if (pageText) {
		page = /^\d{1,6}$/.test(pageText) ? Number(pageText) : Number.NaN
		if (!(page >= 1 && page <= MAX_PAGE)) errors.push({ field: 'page', message: `Page must be a whole number from 1 to ${MAX_PAGE}` })
	}
	return {
		criteria: { q: firstCodePoints(q, MAX_Q), location: firstCodePoints(location, MAX_LOCATION), remote: remoteText === 'on', type },
		page: errors.length ? 1 : page,
		errors,
	}
}

/** A candidate's search as words: "java", "in Austin", "remote only", "Contract". */
export function criteriaWords(c: JobCriteria): string[] {
	return [c.q && `“${c.q}”`, c.location && `in ${c.location}`, c.remote && 'remote only', c.type].filter((w): w is string => Boolean(w))
}

/** The query string of criteria (and a page), as the form sends it: the address of a search. */
export function criteriaQuery(c: JobCriteria, page = 1): string {
	const params = new URLSearchParams()
	if (c.q) params.set('q', c.q)
	if (c.location) params.set('location', c.location)
	if (c.remote) params.set('remote', 'on')
	if (c.type) params.set('type', c.type)
	if (page > 1) params.set('page', String(page))
	const text = params.toString()
	return text ? `?${text}` : ''
}

/** The filters as conditions on a job `j` (the keywords are `findOpenJobs`'s). */
export function filterConditions(c: JobCriteria): SQL[] {
	const where: SQL[] = []
	if (c.location) where.push(placeCondition(c.location))
	if (c.remote) where.push(fullyRemoteSql)
	if (c.type && JOB_TYPES[c.type]) where.push(sql`(${employmentTypeSql}) = ${JOB_TYPES[c.type]}`)
	return where
}

export interface CareersResults {
	jobs: PublicJob[]
	/** Open jobs matching (0 on a page past the last: the statement counts only the rows it reads). */
	total: number
	page: number
}

/** One page of the workspace's open jobs matching the criteria, as shown (`shownJob`): one statement (and, with a location, one more to find locations not yet placed). */
export async function searchCareers(deps: AppDeps, workspaceId: string, c: JobCriteria, page: number): Promise<CareersResults> {
	if (c.location) await placeOpenJobLocations(deps, workspaceId)
	const found = await findOpenJobs(deps, workspaceId, { q: c.q, where: filterConditions(c), limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE })
	return { jobs: found.jobs.map(shownJob), total: found.total, page }
}

/** Open jobs matching the criteria published in (after, through], best first, as shown (`shownJob`): a job alert's digest. */
export async function newMatchingJobs(deps: AppDeps, db: Db, workspaceId: string, c: JobCriteria, after: Date, through: Date, limit: number) {
	if (c.location) await placeOpenJobLocations(deps, workspaceId, db)
	const found = await findOpenJobs(deps, workspaceId, { q: c.q, where: filterConditions(c), limit, publishedAfter: after, publishedThrough: through }, db)
	return { jobs: found.jobs.map(shownJob), total: found.total }
}
