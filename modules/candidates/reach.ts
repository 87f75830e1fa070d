/**
 * Who may see which candidates, applications and notes.
 *
 * Rules (design.md):
 * - Owners, admins and recruiters see every candidate and application of the workspace.
 * - Hiring managers see only the applications of jobs on whose hiring team they are, and only the
 *   candidates behind them; never contact details (e-mail, phone, and both are blanked in résumé
 *   text and in colleagues' words: `colleagueWords`) and never documents.
 * - Private notes are seen by their author, owners and admins; hiring managers see the shared notes
 *   about applications they can reach, and their own.
 * - A record out of reach is answered exactly like an absent one.
 */
import { sql, type SQL } from 'drizzle-orm'
import { isAdmin, type Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { reachableJobIds } from '../jobs/index.ts'
import { inList } from '../../core/sql-list.ts'

/** The jobs whose applications the actor can reach: every job of the workspace, or a list. */
export interface Reach {
	actor: Actor
	jobIds: 'all' | string[]
}

export async function reachOf(deps: AppDeps, actor: Actor): Promise<Reach> {
	return { actor, jobIds: await reachableJobIds(deps, actor) }
}

/**
 * `= any(…)` of ids as one array parameter: for the long lists (every bench person's résumé, 5,000
 * at the bench's scale) a parameter per id made the statement a new text per list length and cost
 * the driver and the planner per element (65 ms against 40 ms for 5,000 ids on the bench VM).
 */
export const anyId = (ids: readonly string[]) => sql`any(${sql.param([...new Set(ids)])}::text[])`

/** Applications (aliased `a`) the actor can reach. */
export function applicationReach(reach: Reach, alias = 'a'): SQL {
	const a = sql.raw(alias)
	const base = sql`${a}.workspace_id = ${reach.actor.workspaceId}`
	return reach.jobIds === 'all' ? base : sql`${base} and ${a}.job_id in ${inList(reach.jobIds)}`
}

/** Candidates (aliased `c`) the actor can reach. */
export function candidateReach(reach: Reach): SQL {
	const base = sql`c.workspace_id = ${reach.actor.workspaceId}`
	if (reach.jobIds === 'all') return base
	// The reachable candidates are collected first (few: the applicants of a few jobs), so the
	// planner fetches them by id instead of walking every candidate of the workspace.
	return sql`${base} and c.id = any(array(select ra.candidate_id from applications ra where ra.job_id in ${inList(reach.jobIds)}))`
}

/** Notes (aliased `n`) the actor may read. */
export function noteReach(reach: Reach): SQL {
	const { actor } = reach
	const base = sql`n.workspace_id = ${actor.workspaceId}`
	if (isAdmin(actor)) return base
	const mine = sql`n.author_user_id = ${actor.userId}`
	if (reach.jobIds === 'all') return sql`${base} and (n.visibility = 'shared' or ${mine})`
	return sql`${base} and (${mine} or (n.visibility = 'shared' and exists (select 1 from applications na where na.id = n.application_id and na.job_id in ${inList(reach.jobIds)})))`
}

/** E-mail and phone: owners, admins and recruiters (the `candidates:contact` permission). */
export const seesContact = (deps: AppDeps, actor: Actor) => deps.permissions.can(actor, 'candidates:contact')

/** An address: `@` or its percent-encoding (`mailto:sana%40example.com`), a domain or an address literal (`[192.0.2.1]`). */
const EMAILS = /[\p{L}\p{N}._%+-]+(?:@|%40)(?:[\p{L}\p{N}.-]+\.[\p{L}]{2,}|\[[\p{N}a-f.:]+\])/giu
/**
 * Phone numbers, the shapes a reader takes for one (no phone-number library is a dependency):
 * - international: `+`, then 7 to 15 digits (E.164) with spaces, dots, dashes or brackets between them
 *   ("+44 20 7946 0958", "+49 (0)30 123456");
 * - North American: ten digits as 3-3-4, the area code optionally in brackets, optionally after `1`
 *   or `+1` ("(512) 555-0142", "512.555.0142", "1-800-555-0199", "5125550142").
 * Any other run of digits stays: an employee id ("12345678"), a requisition ("Req 20261234"), a date
 * ("2027-01-10", "10.01.2027") or a range of years ("2015 - 2019") is not a number to call. The
 * earlier rule hid any 8 to 16 digits that were not shaped like a date, ids included.
 */
const INTERNATIONAL = /(?<!\d)\+\d(?:[\s().-]{0,2}\d){6,14}(?!\d)/g
const NORTH_AMERICAN = /(?<![\d+])(?:\+?1[\s.-]?)?(?:\(\d{3}\)|\d{3})[\s.-]?\d{3}[\s.-]?\d{4}(?!\d)/g

/**
 * Text without e-mail addresses and phone numbers (for people who may not see contact details).
 * Read in its compatibility form (NFKC) first: full-width digits and at signs (`５１２－５５５`,
 * `sana＠example.com`) are the same address and number to a reader, and were shown.
 */
export function redactContacts(text: string): string {
	return text.normalize('NFKC').replace(EMAILS, '[e-mail hidden]').replace(INTERNATIONAL, '[phone hidden]').replace(NORTH_AMERICAN, '[phone hidden]')
}

/**
 * Colleagues' words (notes, scorecard notes, rating comments, to-dos) as `actor` reads them: e-mail
 * addresses and phone numbers blanked (`redactContacts`) unless they may see contact details or wrote
 * the words themselves. A candidate's number a recruiter typed into a shared note showed a hiring
 * manager what the profile and the résumé beside it hide. `authorUserId`: who wrote the text (null: nobody).
 */
export function colleagueWords(deps: AppDeps, actor: Actor): (text: string, authorUserId: string | null) => string {
	if (seesContact(deps, actor)) return (text) => text
	return (text, authorUserId) => (authorUserId !== null && authorUserId === actor.userId ? text : redactContacts(text))
}
