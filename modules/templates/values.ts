/**
 * The values of the merge fields for one record, as the person writing may see it: the candidate
 * (and the job of the application a message is about), or the vendor; the sender and the firm.
 * Records out of the person's reach are answered like absent ones (NOT_FOUND).
 */
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { textOf } from '../../core/untrusted.ts'
import { listPeople, workspacesById } from '../auth/index.ts'
import { reachableApplication, requireCandidate } from '../candidates/index.ts'
import { jobRefs, jobUrl } from '../jobs/index.ts'
import { getVendor } from '../vendors/index.ts'
import type { MergeValues } from './fields.ts'
import { signatureOf } from './service.ts'

/** What a message is about: a candidate (optionally one of their applications), or a vendor. */
export interface MergeRecord {
	candidateId?: string
	applicationId?: string
	vendorId?: string
}

/** "Ava" and "Jackson" of "Ava Jackson"; a one-word name is a first name. */
export function nameParts(name: string): { first: string; last: string } {
	const words = name.trim().split(/\s+/).filter(Boolean)
	return { first: words[0] ?? '', last: words.length > 1 ? words[words.length - 1]! : '' }
}

export async function mergeValues(deps: AppDeps, actor: Actor, record: MergeRecord): Promise<MergeValues> {
	const [ws, me, signature] = await Promise.all([
		workspacesById(deps.db, [actor.workspaceId]).then((m) => m.get(actor.workspaceId)),
		actor.userId ? listPeople(deps.db, actor.workspaceId).then((people) => people.find((p) => p.userId === actor.userId)) : undefined,
		actor.userId ? signatureOf(deps.db, actor.workspaceId, actor.userId) : '',
	])
	const values: MergeValues = {
		'recruiter.name': me?.name ?? actor.name,
		'recruiter.email': me?.email,
		'recruiter.signature': signature,
		'firm.name': ws?.name,
	}
	let candidateId = record.candidateId
	if (record.applicationId) {
		const application = await reachableApplication(deps, actor, { applicationId: record.applicationId })
		if (!application || (candidateId && application.candidateId !== candidateId)) throw new AppError('NOT_FOUND', 'No application with this id')
		candidateId = application.candidateId
		const job = (await jobRefs(deps, actor.workspaceId, [application.jobId])).get(application.jobId)
		if (job) {
			values['job.title'] = job.title
			values['job.url'] = job.status === 'Open' && ws ? jobUrl(deps.config.baseUrl, ws.slug, job.slug) : null
		}
	}
	if (candidateId) {
		const name = textOf((await requireCandidate(deps, actor, candidateId)).name)
		const { first, last } = nameParts(name)
		Object.assign(values, { 'candidate.name': name, 'candidate.firstName': first, 'candidate.lastName': last })
	}
	if (record.vendorId) {
		const vendor = await getVendor(deps, actor, record.vendorId)
		Object.assign(values, { 'vendor.name': vendor.name, 'vendor.contactName': vendor.contact.name })
	}
	return values
}
