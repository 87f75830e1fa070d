/**
 * Reads of candidates and applications that the inbox, the AI interviews and the review queue
 * need (added by the issue-7 work; owned by this module). Callers check reach themselves or only
 * use the results internally (threading mail, seeding, the review queue's own job filter).
 */
import { sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { normalEmail } from '../../core/email.ts'
import type { SourcePosition } from '../../core/module.ts'
import { inList } from '../../core/sql-list.ts'
import { afterPosition } from '../../core/source-merge.ts'
import { applicationReach, reachOf } from './reach.ts'
import { stagesOf } from './stages.ts'

export interface CandidateParty {
	id: string
	name: string
	email: string
	phone: string | null
}

const digits = (s: string) => s.replace(/\D/g, '').slice(-10)

/**
 * Every candidate of the workspace reached at each of these addresses (e-mail addresses compared in
 * their normal form, core/email.ts: `ann@Bücher.example` is `ann@xn--bcher-kva.example`; phone
 * numbers by their last ten digits), keyed by the address as given, oldest first. An address can be
 * several people's (a shared phone, a vendor's mailbox): callers must not pick one of them.
 */
export async function candidatesByAddress(deps: AppDeps, workspaceId: string, addresses: string[]): Promise<Map<string, CandidateParty[]>> {
	const emails = [...new Set(addresses.filter((a) => a.includes('@')).map(normalEmail))]
	const phones = [
		...new Set(
			addresses
				.filter((a) => !a.includes('@'))
				.map(digits)
				.filter((d) => d.length >= 7),
		),
	]
	const out = new Map<string, CandidateParty[]>()
	if (!emails.length && !phones.length) return out
	const rows = await deps.database.rows<CandidateParty>(
		sql`select id, name, email, phone from candidates where workspace_id = ${workspaceId} and (lower(email) in ${inList(emails)} or right(regexp_replace(coalesce(phone, ''), '[^0-9]', '', 'g'), 10) in ${inList(phones)}) order by created_at, id`,
	)
	for (const a of addresses) {
		// Stored addresses are in normal form (rewritten at start, core/stored-addresses.ts), as `emails` are.
		const email = a.includes('@') ? normalEmail(a) : null
		const matches = email !== null ? rows.filter((r) => r.email.toLowerCase() === email) : rows.filter((r) => r.phone && digits(r.phone) === digits(a))
		if (matches.length) out.set(a, matches)
	}
	return out
}

/** Candidates of the workspace by id (for filing messages; no reach check: callers use them internally). */
export async function candidatePartiesById(deps: AppDeps, workspaceId: string, ids: string[]): Promise<Map<string, CandidateParty>> {
	if (!ids.length) return new Map()
	const rows = await deps.database.rows<CandidateParty>(
		sql`select id, name, email, phone from candidates where workspace_id = ${workspaceId} and id in ${inList([...new Set(ids)])}`,
	)
	return new Map(rows.map((r) => [r.id, r]))
}

export interface ApplicationParty {
	id: string
	candidateId: string
	jobId: string
	stageKey: string
	candidate: CandidateParty
	createdAt: Date
}

type PartyRow = {
	id: string
	candidateId: string
	jobId: string
	stageKey: string
	createdAt: Date | string
	name: string
	email: string
	phone: string | null
}
const party = (r: PartyRow): ApplicationParty => ({
	id: r.id,
	candidateId: r.candidateId,
	jobId: r.jobId,
	stageKey: r.stageKey,
	createdAt: new Date(r.createdAt),
	candidate: { id: r.candidateId, name: r.name, email: r.email, phone: r.phone },
})
const PARTY = sql`a.id, a.candidate_id as "candidateId", a.job_id as "jobId", a.stage_key as "stageKey", a.created_at as "createdAt", c.name, c.email, c.phone`

/** The candidate and job of applications of the workspace, by application id. */
export async function applicationParties(deps: AppDeps, workspaceId: string, ids: string[]): Promise<Map<string, ApplicationParty>> {
	if (!ids.length) return new Map()
	const rows = await deps.database.rows<PartyRow>(
		sql`select ${PARTY} from applications a join candidates c on c.id = a.candidate_id where a.workspace_id = ${workspaceId} and a.id in ${inList([...new Set(ids)])}`,
	)
	return new Map(rows.map((r) => [r.id, party(r)]))
}

/** Every application of the workspace that is not archived, oldest first (demo data of other modules). */
export async function workspaceApplications(deps: AppDeps, workspaceId: string): Promise<ApplicationParty[]> {
	const rows = await deps.database.rows<PartyRow>(
		sql`select ${PARTY} from applications a join candidates c on c.id = a.candidate_id where a.workspace_id = ${workspaceId} and a.archived = false order by a.created_at, a.id`,
	)
	return rows.map(party)
}

/**
 * Applications that came in through the careers site's apply form (every `applicant` whose source is
 * not a vendor, a referral or sourcing), oldest first: the demo's careers traffic is made to agree
 * with them.
 */
export async function careersSiteApplications(deps: AppDeps, workspaceId: string): Promise<{ id: string; jobId: string; createdAt: Date }[]> {
	const rows = await deps.database.rows<{ id: string; jobId: string; createdAt: string | Date }>(
		sql`select a.id, a.job_id as "jobId", a.created_at as "createdAt" from applications a
		where a.workspace_id = ${workspaceId} and a.kind = 'applicant' and a.source not in ('vendor', 'referral', 'sourced') order by a.created_at, a.id`,
	)
	return rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt) }))
}

/**
 * Applications still in the pipeline's first stage (nobody has moved them on), on the given jobs,
 * oldest first after `after` by `(created_at, id)`: the review queue's "new application" entries.
 * Each job's first few are read in that order from `applications_waiting` (one ordered index-only
 * read per job, however long its history: the columns read are all in the index) and the few merged: one read over all the jobs collected and
 * sorted every waiting application of them (23,621 on 5 busy jobs for 9 rows: 76 ms).
 */
export async function waitingApplications(
	deps: AppDeps,
	workspaceId: string,
	query: { jobIds: string[]; after?: SourcePosition; limit: number },
): Promise<ApplicationParty[]> {
	if (!query.jobIds.length) return []
	const first = (await stagesOf(deps, workspaceId))[0]?.key ?? 'applied'
	// `created_at >= at` bounds the index range; the row comparison then skips the equal ones already shown.
	const after = query.after
		? sql` and a.created_at >= ${query.after.at.toISOString()}::timestamptz and ${afterPosition(sql`a.created_at`, sql`a.id`, query.after)}`
		: sql``
	const rows = await deps.database.rows<PartyRow>(
		sql`select ${PARTY} from unnest(${sql.param([...new Set(query.jobIds)])}::text[]) j(id)
cross join lateral (select a.id, a.candidate_id, a.job_id, a.stage_key, a.created_at, a.workspace_id from applications a where a.job_id = j.id and a.stage_key = ${first} and a.archived = false and a.outcome is null and a.kind = 'applicant'${after}
  order by a.created_at, a.id collate "C" limit ${query.limit}) a
join candidates c on c.id = a.candidate_id
where a.workspace_id = ${workspaceId}
order by a.created_at, a.id collate "C" limit ${query.limit}`,
	)
	return rows.map(party)
}

/** A candidate with contact and résumé, as the document flows need them (they check reach themselves). */
export interface CandidateFile {
	id: string
	name: string
	email: string
	phone: string | null
	workAuthorization: string | null
	resumeFileName: string | null
	resumeMime: string | null
	resumePath: string | null
	resumeText: string | null
}

export async function candidateFile(deps: AppDeps, workspaceId: string, candidateId: string): Promise<CandidateFile | null> {
	const [row] =
		await deps.database.rows<CandidateFile>(sql`select c.id, c.name, c.email, c.phone, c.work_authorization as "workAuthorization", c.resume_file_name as "resumeFileName",
		c.resume_mime as "resumeMime", c.resume_path as "resumePath", c.resume_text as "resumeText"
		from candidates c where c.id = ${candidateId} and c.workspace_id = ${workspaceId}`)
	return row ?? null
}

export interface ApplicationKey {
	id: string
	candidateId: string
	jobId: string
	createdAt: Date
}

/** An application the actor can reach: by id, or the candidate's newest one; null when there is none. */
export async function reachableApplication(
	deps: AppDeps,
	actor: Actor,
	which: { applicationId: string } | { newestOf: string },
): Promise<ApplicationKey | null> {
	const reach = await reachOf(deps, actor)
	const where = 'applicationId' in which ? sql`a.id = ${which.applicationId}` : sql`a.candidate_id = ${which.newestOf}`
	const [row] = await deps.database.rows<Omit<ApplicationKey, 'createdAt'> & { createdAt: Date | string }>(
		sql`select a.id, a.candidate_id as "candidateId", a.job_id as "jobId", a.created_at as "createdAt" from applications a where ${where} and ${applicationReach(reach)} order by a.created_at desc, a.id desc limit 1`,
	)
	return row ? { ...row, createdAt: new Date(row.createdAt) } : null
}
