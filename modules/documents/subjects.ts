/**
 * The candidate, application and job a document flow is about, read by id within the actor's
 * workspace and reach, and the names the public upload page shows: through the public APIs of the
 * modules that own them (candidates, jobs, auth).
 */
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { workspacesById } from '../auth/index.ts'
import { candidateFile, candidatePartiesById, reachableApplication, type ApplicationKey, type CandidateFile } from '../candidates/index.ts'
import { jobAddress, jobRefs } from '../jobs/index.ts'

export type Candidate = CandidateFile

export interface ApplicationRef {
	id: string
	candidateId: string
	jobId: string
	jobTitle: string
	jobStatus: string
	vendorId: string | null
	/** The vendor's own reference for the job. */
	vendorJobId: string | null
	createdAt: Date
}

const candidateNotFound = () => new AppError('NOT_FOUND', 'No candidate with this id')
const applicationNotFound = () => new AppError('NOT_FOUND', 'No application with this id')

export async function loadCandidate(deps: AppDeps, actor: Actor, candidateId: string): Promise<Candidate> {
	const row = await candidateFile(deps, actor.workspaceId, candidateId)
	if (!row) throw candidateNotFound()
	return row
}

/** The application with its job's title, status, slug and vendor. */
async function withJob(deps: AppDeps, actor: Actor, app: ApplicationKey | null): Promise<ApplicationRef | null> {
	if (!app) return null
	const job = (await jobRefs(deps, actor.workspaceId, [app.jobId])).get(app.jobId)
	if (!job) return null
	return { ...app, jobTitle: job.title, jobStatus: job.status, vendorId: job.vendorId, vendorJobId: job.vendorJobId }
}

/** An application whose job the actor can reach. */
export async function loadApplication(deps: AppDeps, actor: Actor, applicationId: string): Promise<ApplicationRef> {
	const row = await withJob(deps, actor, await reachableApplication(deps, actor, { applicationId }))
	if (!row) throw applicationNotFound()
	return row
}

/** The candidate's newest application (on a job the actor can reach), or null. */
export async function newestApplication(deps: AppDeps, actor: Actor, candidateId: string): Promise<ApplicationRef | null> {
	return withJob(deps, actor, await reachableApplication(deps, actor, { newestOf: candidateId }))
}

/** The job's public careers address, by id (no words of its title: `jobAddress`); null unless the job is open. */
export const careersUrl = (deps: AppDeps, actor: Actor, app: ApplicationRef) =>
	app.jobStatus === 'Open' ? jobAddress(deps.config.baseUrl, actor.workspaceSlug, app.jobId) : null

/** Names shown on the candidate's upload page (the link holder is not signed in: no actor). */
export async function uploadPageNames(
	deps: AppDeps,
	workspaceId: string,
	candidateId: string,
): Promise<{ workspaceSlug: string; workspaceName: string; candidateName: string } | null> {
	const [workspace, candidate] = await Promise.all([workspacesById(deps.db, [workspaceId]), candidatePartiesById(deps, workspaceId, [candidateId])])
	const ws = workspace.get(workspaceId)
	const person = candidate.get(candidateId)
	return ws && person ? { workspaceSlug: ws.slug, workspaceName: ws.name, candidateName: person.name } : null
}
