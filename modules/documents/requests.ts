/**
 * Asking a candidate for documents, and the secure upload link that answers it.
 *
 * Rules:
 * - A request names 1 to 4 kinds and goes out by e-mail and by messaging app, both carrying the
 *   same upload link (a `bl_ul_…` credential, stored only as its SHA-256), valid 7 days and usable
 *   any number of times until then. The link only uploads: it never shows a stored file.
 * - `applicationId` defaults to the candidate's newest application; `includeJobLink` adds the
 *   job's careers address when the job is open. `message` is plain text.
 * - No phone number, or no messaging provider: the message is recorded as not sent, with why.
 */
import type { Actor } from '../../core/actor.ts'
import { hashSecret, newCredential, newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { invalid } from '../../core/errors.ts'
import { recordActivity } from '../activity/index.ts'
import { findWorkspace } from '../auth/index.ts'
import { enqueueMail, enqueueMessage, MAX_MESSAGE_LENGTH, NO_PROVIDER, toE164 } from '../outbox/index.ts'
import { DOCUMENT_KINDS, DOCUMENT_LABELS, type DocumentKind } from '../vendors/index.ts'
import { careersUrl, loadApplication, loadCandidate, newestApplication, type ApplicationRef } from './subjects.ts'
import { documentRequests } from './table.ts'
import { and, eq, gt, isNull } from 'drizzle-orm'

export const LINK_VALID_DAYS = 7
const DAY_MS = 86_400_000

export interface RequestDocumentsInput {
	candidateId: string
	items: DocumentKind[]
	applicationId?: string
	message?: string
	includeJobLink?: boolean
}

export interface DocumentRequestResult {
	id: string
	candidateId: string
	applicationId: string | null
	items: DocumentKind[]
	expiresAt: string
	jobLink: string | null
	email: { to: string; status: 'queued' }
	message: { to: string | null; status: 'queued' | 'not_sent'; reason: string | null }
	/** True when this repeats a request made moments ago (a client's retry): nothing was sent again. */
	repeated: boolean
}

/** A retried call (same person, candidate, application, kinds and message within this window) sends nothing twice. */
const REPEAT_WINDOW_MS = 2 * 60_000

/** Plain text: no control characters besides line breaks and tabs; CRLF made LF. */
export const plainText = (s: string) => s.replace(/\r\n?/g, '\n').replace(/[\0-\x08\x0b-\x1f\x7f]/g, '').trim()

export const uploadUrl = (deps: AppDeps, token: string) => `${deps.config.baseUrl}/upload/${token}`

const listOf = (items: DocumentKind[]) => items.map((k) => DOCUMENT_LABELS[k]).join(', ')
const dateOf = (d: Date) => d.toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' })

export async function requestCandidateDocuments(deps: AppDeps, actor: Actor, input: RequestDocumentsInput): Promise<DocumentRequestResult> {
	const candidate = await loadCandidate(deps, actor, input.candidateId)
	const items = DOCUMENT_KINDS.filter((k) => input.items.includes(k))
	if (!items.length) throw invalid([{ field: 'items', message: `must name 1 to 4 document kinds (${DOCUMENT_KINDS.join(', ')})` }])
	let application: ApplicationRef | null
	if (input.applicationId) {
		application = await loadApplication(deps, actor, input.applicationId)
		if (application.candidateId !== candidate.id) throw invalid([{ field: 'applicationId', message: 'is not an application of this candidate' }])
	} else application = await newestApplication(deps, actor, candidate.id)
	const message = input.message ? plainText(input.message) : ''
	const jobLink = application && (input.includeJobLink ?? true) ? careersUrl(deps, actor, application) : null
	const workspace = await findWorkspace(deps.db, actor.workspaceSlug)
	const firm = workspace?.name ?? actor.workspaceSlug

	const token = newCredential('ul')
	const link = uploadUrl(deps, token)
	const expiresAt = new Date(deps.now().getTime() + LINK_VALID_DAYS * DAY_MS)
	const first = candidate.name.split(/\s+/)[0] || candidate.name
	const about = application ? ` for the ${application.jobTitle} position` : ''

	const mailText = [
		`Hello ${first},`,
		'',
		...(message ? [message, ''] : []),
		`${actor.name} at ${firm} asks you to upload the following documents${about}:`,
		...items.map((k) => `  - ${DOCUMENT_LABELS[k]}`),
		'',
		'Upload them securely here (PDF, JPEG or PNG, up to 10 MB each):',
		link,
		'',
		`The link works until ${dateOf(expiresAt)} and can be used more than once. Please do not forward it.`,
		...(jobLink ? ['', `The job: ${jobLink}`] : []),
		'',
		`— ${actor.name}, ${firm}`,
	].join('\n')
	const shortText = [`Hi ${first}, ${actor.name} at ${firm} needs your ${listOf(items)}${about}. Upload securely (link valid ${LINK_VALID_DAYS} days): ${link}`, jobLink ? `Job: ${jobLink}` : '', message].filter(Boolean).join('\n\n').slice(0, MAX_MESSAGE_LENGTH)

	const phone = candidate.phone ? toE164(candidate.phone) : null
	const notSent = !deps.config.messaging ? NO_PROVIDER : !candidate.phone ? 'The candidate has no phone number on file' : !phone ? `The candidate’s phone number “${candidate.phone}” is not a number a message can go to` : undefined

	const since = new Date(deps.now().getTime() - REPEAT_WINDOW_MS)
	const [earlier] = await deps.db
		.select({ id: documentRequests.id, expiresAt: documentRequests.expiresAt })
		.from(documentRequests)
		.where(
			and(
				eq(documentRequests.workspaceId, actor.workspaceId),
				eq(documentRequests.candidateId, candidate.id),
				application ? eq(documentRequests.applicationId, application.id) : isNull(documentRequests.applicationId),
				actor.userId ? eq(documentRequests.requestedByUserId, actor.userId) : isNull(documentRequests.requestedByUserId),
				eq(documentRequests.items, items),
				message ? eq(documentRequests.message, message) : isNull(documentRequests.message),
				gt(documentRequests.createdAt, since),
			),
		)
		.limit(1)
	if (earlier) {
		return { id: earlier.id, candidateId: candidate.id, applicationId: application?.id ?? null, items, expiresAt: earlier.expiresAt.toISOString(), jobLink, email: { to: candidate.email, status: 'queued' }, message: { to: phone ?? candidate.phone, status: notSent ? 'not_sent' : 'queued', reason: notSent ?? null }, repeated: true }
	}

	const id = newId('dreq')
	const outcome = await deps.db.transaction(async (tx) => {
		await tx.insert(documentRequests).values({ id, workspaceId: actor.workspaceId, candidateId: candidate.id, applicationId: application?.id ?? null, items, message: message || null, tokenHash: hashSecret(token), expiresAt, requestedByUserId: actor.userId, requestedByName: actor.name })
		const related = { type: 'document_request', id }
		await enqueueMail(tx, { workspaceId: actor.workspaceId, to: candidate.email, subject: `Documents needed${about}: ${listOf(items)}`, text: mailText, related }, new URL(deps.config.baseUrl).hostname)
		const sent = await enqueueMessage(tx, { workspaceId: actor.workspaceId, to: phone ?? candidate.phone ?? '', text: shortText, related, notSent })
		await recordActivity(tx, actor, { action: 'documents.requested', targetType: 'candidate', targetId: candidate.id, detail: { requestId: id, items, applicationId: application?.id ?? null, message: sent.status } })
		return sent
	})
	return {
		id,
		candidateId: candidate.id,
		applicationId: application?.id ?? null,
		items,
		expiresAt: expiresAt.toISOString(),
		jobLink,
		email: { to: candidate.email, status: 'queued' },
		message: { to: phone ?? candidate.phone, status: outcome.status === 'pending' ? 'queued' : 'not_sent', reason: notSent ?? null },
		repeated: false,
	}
}

