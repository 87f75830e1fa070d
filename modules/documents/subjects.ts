/**
 * The candidate, application and job a document flow is about, read by id within the actor's
 * workspace and reach, and the names the public upload page shows.
 *
 * Why these reads go straight to the candidates and jobs tables: those modules' public APIs do not
 * (yet) offer a candidate's contact and résumé by id, a candidate's newest application, or a job's
 * vendor and careers slug; these few keyed reads are kept in this one file so that they can be
 * swapped for public functions when those exist.
 */
import { sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { workspaces } from '../auth/table.ts'
import { applications, candidates } from '../candidates/table.ts'
import { jobReach, jobUrl } from '../jobs/index.ts'
import { jobs } from '../jobs/table.ts'

export interface Candidate {
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

export interface ApplicationRef {
	id: string
	candidateId: string
	jobId: string
	jobTitle: string
	jobStatus: string
	jobSlug: string
	vendorId: string | null
	/** The vendor's own reference for the job. */
	vendorJobId: string | null
	createdAt: Date
}

const candidateNotFound = () => new AppError('NOT_FOUND', 'No candidate with this id')
const applicationNotFound = () => new AppError('NOT_FOUND', 'No application with this id')

export async function loadCandidate(deps: AppDeps, actor: Actor, candidateId: string): Promise<Candidate> {
	const [row] = await deps.database.rows<Candidate>(sql`select c.id, c.name, c.email, c.phone, c.work_authorization as "workAuthorization", c.resume_file_name as "resumeFileName",
		c.resume_mime as "resumeMime", c.resume_path as "resumePath", c.resume_text as "resumeText"
		from ${candidates} c where c.id = ${candidateId} and c.workspace_id = ${actor.workspaceId}`)
	if (!row) throw candidateNotFound()
	return row
}

const APPLICATION = sql`select a.id, a.candidate_id as "candidateId", a.job_id as "jobId", j.title as "jobTitle", j.status as "jobStatus", j.slug as "jobSlug", j.vendor_id as "vendorId", j.vendor_job_id as "vendorJobId", a.created_at as "createdAt"
	from ${applications} a join ${jobs} j on j.id = a.job_id`

/** An application whose job the actor can reach. */
export async function loadApplication(deps: AppDeps, actor: Actor, applicationId: string): Promise<ApplicationRef> {
	const [row] = await deps.database.rows<ApplicationRef>(sql`${APPLICATION} where a.id = ${applicationId} and a.workspace_id = ${actor.workspaceId} and ${jobReach(actor)}`)
	if (!row) throw applicationNotFound()
	return { ...row, createdAt: new Date(row.createdAt) }
}

/** The candidate's newest application (on a job the actor can reach), or null. */
export async function newestApplication(deps: AppDeps, actor: Actor, candidateId: string): Promise<ApplicationRef | null> {
	const [row] = await deps.database.rows<ApplicationRef>(sql`${APPLICATION} where a.candidate_id = ${candidateId} and a.workspace_id = ${actor.workspaceId} and ${jobReach(actor)} order by a.created_at desc, a.id desc limit 1`)
	return row ? { ...row, createdAt: new Date(row.createdAt) } : null
}

/** The job's public careers address; null unless the job is open. */
export const careersUrl = (deps: AppDeps, actor: Actor, app: ApplicationRef) => (app.jobStatus === 'Open' ? jobUrl(deps.config.baseUrl, actor.workspaceSlug, app.jobSlug) : null)

/** Names shown on the candidate's upload page (the link holder is not signed in: no actor). */
export async function uploadPageNames(deps: AppDeps, workspaceId: string, candidateId: string): Promise<{ workspaceSlug: string; workspaceName: string; candidateName: string } | null> {
	const [row] = await deps.database.rows<{ workspaceSlug: string; workspaceName: string; candidateName: string }>(sql`select w.slug as "workspaceSlug", w.name as "workspaceName", c.name as "candidateName"
		from ${candidates} c join ${workspaces} w on w.id = c.workspace_id where c.id = ${candidateId} and c.workspace_id = ${workspaceId}`)
	return row ?? null
}
