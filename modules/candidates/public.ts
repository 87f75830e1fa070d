/** What other modules (bench, vendor submissions, documents) read of candidates. */
import { sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { jobLabels } from '../jobs/index.ts'
import { candidateNotFound } from './candidate-service.ts'
import { inList } from '../../core/sql-list.ts'
import { anyId, applicationReach, candidateReach, reachOf } from './reach.ts'
import { textOf, type UntrustedText } from '../../core/untrusted.ts'
import { candidateFacts, candidateRef, type CandidateRow } from './rows.ts'
import { resumeHashSql } from './resume-check.ts'

/** A short profile for other modules' results: every text labelled as the candidate's. */
export interface CandidateCard {
	id: string
	name: UntrustedText
	headline: UntrustedText | null
	location: UntrustedText | null
	skills: UntrustedText[]
	yearsExperience: number | null
	workAuthorization: UntrustedText | null
}

/** Throws NOT_FOUND (as for an absent one) unless the candidate is within the actor's reach. */
export async function requireCandidate(deps: AppDeps, actor: Actor, candidateId: string): Promise<CandidateCard> {
	const cards = await candidateCards(deps, actor, [candidateId])
	const card = cards.get(candidateId)
	if (!card) throw candidateNotFound()
	return card
}

/** Short profiles of the candidates among `ids` that the actor can reach. */
export async function candidateCards(deps: AppDeps, actor: Actor, ids: string[]): Promise<Map<string, CandidateCard>> {
	if (!ids.length) return new Map()
	const reach = await reachOf(deps, actor)
	const rows = await deps.database.rows<Pick<CandidateRow, 'id' | 'name' | 'headline' | 'location' | 'skills' | 'yearsExperience' | 'workAuthorization'>>(
		sql`select c.id, c.name, c.headline, c.location, c.skills, c.years_experience as "yearsExperience", c.work_authorization as "workAuthorization" from candidates c where ${candidateReach(reach)} and c.id in ${inList([...new Set(ids)])}`,
	)
	return new Map(rows.map((r) => [r.id, { ...candidateRef(r), ...candidateFacts(r) }]))
}

/** Résumé texts of candidates of one workspace (callers have checked reach). */
export async function resumeTexts(deps: AppDeps, workspaceId: string, ids: string[]): Promise<Map<string, string | null>> {
	if (!ids.length) return new Map()
	const rows = await deps.database.rows<{ id: string; text: string | null }>(
		sql`select id, resume_text as text from candidates where workspace_id = ${workspaceId} and id = ${anyId(ids)}`,
	)
	return new Map(rows.map((r) => [r.id, r.text]))
}

/** The stored résumé file of a candidate the actor can reach (key in the file store), or null. */
export async function resumeFileOf(deps: AppDeps, actor: Actor, candidateId: string): Promise<{ key: string; fileName: string; contentType: string } | null> {
	const reach = await reachOf(deps, actor)
	const [row] = await deps.database.rows<{ key: string | null; fileName: string | null; contentType: string | null }>(
		sql`select c.resume_path as key, c.resume_file_name as "fileName", c.resume_mime as "contentType" from candidates c where c.id = ${candidateId} and ${candidateReach(reach)}`,
	)
	return row?.key ? { key: row.key, fileName: row.fileName ?? 'resume', contentType: row.contentType ?? 'application/octet-stream' } : null
}

/** The résumé files sent with a candidate's applications (when they differ from the one on file), if the actor can reach the candidate. */
export async function applicationResumeFilesOf(
	deps: AppDeps,
	actor: Actor,
	candidateId: string,
): Promise<{ applicationId: string; key: string; fileName: string; contentType: string }[]> {
	const reach = await reachOf(deps, actor)
	const rows = await deps.database.rows<{ applicationId: string; key: string; fileName: string | null; contentType: string | null }>(
		sql`select a.id as "applicationId", a.resume_path as key, a.resume_file_name as "fileName", a.resume_mime as "contentType"
		from applications a join candidates c on c.id = a.candidate_id where c.id = ${candidateId} and a.resume_path is not null and ${candidateReach(reach)}`,
	)
	return rows.map((r) => ({ ...r, fileName: r.fileName ?? 'resume', contentType: r.contentType ?? 'application/octet-stream' }))
}

/** The résumé an application came with, when it is not its candidate's own (`applications.resume_*`), or null. */
export async function applicationOwnResume(
	deps: AppDeps,
	workspaceId: string,
	applicationId: string,
): Promise<{ resumePath: string; resumeFileName: string | null; resumeMime: string | null; resumeText: string | null } | null> {
	const [row] = await deps.database.rows<{ resumePath: string; resumeFileName: string | null; resumeMime: string | null; resumeText: string | null }>(
		sql`select resume_path as "resumePath", resume_file_name as "resumeFileName", resume_mime as "resumeMime", resume_text as "resumeText"
		from applications where workspace_id = ${workspaceId} and id = ${applicationId} and resume_path is not null`,
	)
	return row ?? null
}

/** MD5 of each candidate's résumé text (as `resumeHash` computes it), to cache work done on résumés. */
export async function resumeHashes(deps: AppDeps, workspaceId: string, ids: string[]): Promise<Map<string, string>> {
	if (!ids.length) return new Map()
	const rows = await deps.database.rows<{ id: string; hash: string }>(
		sql`select id, ${resumeHashSql('candidates')} as hash from candidates where workspace_id = ${workspaceId} and id = ${anyId(ids)}`,
	)
	return new Map(rows.map((r) => [r.id, r.hash]))
}

export interface ApplicationChoice {
	id: string
	jobId: string
	jobTitle: string
}

/**
 * The candidate's applications the actor can reach, newest first, with their jobs' titles: what
 * forms about the candidate offer to choose from (a note's or a document request's application,
 * a bench entry's job). At most 100.
 */
export async function candidateApplicationChoices(deps: AppDeps, actor: Actor, candidateId: string): Promise<ApplicationChoice[]> {
	const reach = await reachOf(deps, actor)
	const rows = await deps.database.rows<{ id: string; jobId: string }>(
		sql`select a.id, a.job_id as "jobId" from applications a where a.candidate_id = ${candidateId} and ${applicationReach(reach)} order by a.created_at desc nulls last, a.id desc nulls last limit 100`,
	)
	const titles = await jobLabels(deps, actor, [...new Set(rows.map((r) => r.jobId))])
	return rows.map((r) => ({ id: r.id, jobId: r.jobId, jobTitle: textOf(titles.get(r.jobId)) }))
}

export interface RecentApplication {
	id: string
	candidateId: string
	candidateName: string
	jobTitle: string
}

/** The newest applications the actor can reach (at most `limit`, 100 at most): what a preview offers to try a template on. */
export async function recentApplications(deps: AppDeps, actor: Actor, limit = 20): Promise<RecentApplication[]> {
	const reach = await reachOf(deps, actor)
	const rows = await deps.database.rows<{ id: string; candidateId: string; name: string; jobId: string }>(
		sql`select a.id, a.candidate_id as "candidateId", c.name, a.job_id as "jobId" from applications a join candidates c on c.id = a.candidate_id
		where ${applicationReach(reach)} order by a.created_at desc, a.id desc limit ${Math.min(100, Math.max(1, limit))}`,
	)
	const titles = await jobLabels(deps, actor, [...new Set(rows.map((r) => r.jobId))])
	return rows.map((r) => ({ id: r.id, candidateId: r.candidateId, candidateName: r.name, jobTitle: textOf(titles.get(r.jobId)) }))
}

/** One application the actor can reach, named for a page's heading (its candidate and job); NOT_FOUND otherwise. */
export async function applicationCard(deps: AppDeps, actor: Actor, applicationId: string): Promise<RecentApplication & { jobId: string }> {
	const reach = await reachOf(deps, actor)
	const [row] = await deps.database.rows<{ id: string; candidateId: string; name: string; jobId: string }>(
		sql`select a.id, a.candidate_id as "candidateId", c.name, a.job_id as "jobId" from applications a join candidates c on c.id = a.candidate_id
		where a.id = ${applicationId} and ${applicationReach(reach)}`,
	)
	if (!row) throw new AppError('NOT_FOUND', 'No application with this id')
	const titles = await jobLabels(deps, actor, [row.jobId])
	return { id: row.id, candidateId: row.candidateId, candidateName: row.name, jobId: row.jobId, jobTitle: textOf(titles.get(row.jobId)) }
}
