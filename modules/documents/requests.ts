/**
 * Asking a candidate for documents, and the secure upload link that answers it.
 *
 * Rules:
 * - A request names 1 to 4 kinds and goes out by e-mail and by messaging app, both carrying the
 *   same upload link (a `bl_ul_…` credential, stored only as its SHA-256), valid 7 days and usable
 *   any number of times until then. The link only uploads: it never shows a stored file. The outbox
 *   keeps the link only sealed, until the e-mail or message is sent (`outbox/private.ts`).
 * - The newest link is the one that works, as with a password-reset e-mail: a new request for the
 *   same candidate and application replaces each earlier live link whose kinds it all asks for
 *   again. Kinds only an earlier link asks for keep that link working. (An operator can also revoke
 *   a link at once: `revokeUploadLink`.)
 * - `applicationId` defaults to the candidate's newest application; `includeJobLink` adds the
 *   job's careers address when the job is open. `message` is plain text.
 * - No phone number, or no messaging provider: the message is recorded as not sent, with why.
 * - Against an assistant that loops: the same request again within 2 minutes (a retry) sends
 *   nothing and answers `repeated`; one person may send one candidate at most 3 requests an hour.
 *   Both are decided under a per-candidate lock, so parallel calls count too.
 */
import type { Actor } from '../../core/actor.ts'
import { hashSecret, newCredential, newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, invalid } from '../../core/errors.ts'
import { untrustedLine, type UntrustedText } from '../../core/untrusted.ts'
import { recordActivity } from '../activity/index.ts'
import { findWorkspace } from '../auth/index.ts'
import { enqueueMail, enqueueMessage, MAX_MESSAGE_LENGTH, messagingConfigured, NO_PROVIDER, toE164 } from '../outbox/index.ts'
import { DOCUMENT_KINDS, DOCUMENT_LABELS, type DocumentKind } from '../vendors/index.ts'
import { careersUrl, loadApplication, loadCandidate, newestApplication, type ApplicationRef } from './subjects.ts'
import { documentRequests } from './table.ts'
import { and, arrayContained, asc, eq, gt, isNull, ne, sql } from 'drizzle-orm'

export const LINK_VALID_DAYS = 7
/** The longest message a request may carry (code points), on every door. */
export const MAX_REQUEST_MESSAGE = 2000
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
	/** The candidate's address and phone number: their words, labelled. */
	email: { to: UntrustedText; status: 'queued' }
	message: { to: UntrustedText | null; status: 'queued' | 'not_sent'; reason: string | null }
	/** True when this repeats a request made moments ago (a client's retry): nothing was sent again. */
	repeated: boolean
	/** Earlier requests whose links this one replaced: those links no longer work. */
	replaced: string[]
}

/** A retried call (same person, candidate, application, kinds and message within this window) sends nothing twice. */
const REPEAT_WINDOW_MS = 2 * 60_000
/** At most this many requests from one person to one candidate per rolling hour (retries not counted). */
export const MAX_REQUESTS_PER_CANDIDATE_HOUR = 3
const HOUR_MS = 3_600_000

/** Plain text: no control characters besides line breaks and tabs; CRLF made LF. */
export const plainText = (s: string) =>
	s
		.replace(/\r\n?/g, '\n')
		.replace(/[\0-\x08\x0b-\x1f\x7f]/g, '')
		.trim()

export const uploadUrl = (deps: AppDeps, token: string) => `${deps.config.baseUrl}/upload/${token}`

const listOf = (items: DocumentKind[]) => items.map((k) => DOCUMENT_LABELS[k]).join(', ')
const dateOf = (d: Date) => d.toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' })

/**
 * What a request would send, to whom and how, for the person to confirm first (`ToolDef.confirm`);
 * nothing is written. Null when the request would be refused (its own error then says why).
 */
export async function documentRequestSummary(deps: AppDeps, actor: Actor, input: RequestDocumentsInput): Promise<string | null> {
	const candidate = await loadCandidate(deps, actor, input.candidateId)
	const items = DOCUMENT_KINDS.filter((k) => input.items.includes(k))
	if (!items.length || (input.message && [...input.message].length > MAX_REQUEST_MESSAGE)) return null
	const phone = candidate.phone ? toE164(candidate.phone) : null
	const channels = messagingConfigured(deps) && phone ? `by e-mail to ${candidate.email} and by message to ${phone}` : `by e-mail to ${candidate.email}`
	const message = input.message ? ` Your message: “${plainText(input.message)}”` : ''
	return `Ask ${plainText(candidate.name)} for ${listOf(items)} ${channels}, with an upload link valid ${LINK_VALID_DAYS} days?${message}`
}

export async function requestCandidateDocuments(deps: AppDeps, actor: Actor, input: RequestDocumentsInput): Promise<DocumentRequestResult> {
	const candidate = await loadCandidate(deps, actor, input.candidateId)
	const items = DOCUMENT_KINDS.filter((k) => input.items.includes(k))
	const problems = []
	if (!items.length) problems.push({ field: 'items', message: `must name 1 to 4 document kinds (${DOCUMENT_KINDS.join(', ')})` })
	if (input.message && [...input.message].length > MAX_REQUEST_MESSAGE)
		problems.push({ field: 'message', message: `must be at most ${MAX_REQUEST_MESSAGE.toLocaleString('en-US')} characters` })
	if (problems.length) throw invalid(problems)
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

	const mailText = (replacesEarlier: boolean) =>
		[
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
			...(replacesEarlier ? ['It replaces the link we sent you earlier for these documents, which no longer works.'] : []),
			...(jobLink ? ['', `The job: ${jobLink}`] : []),
			'',
			`— ${actor.name}, ${firm}`,
		].join('\n')
	const shortText = [
		`Hi ${first}, ${actor.name} at ${firm} needs your ${listOf(items)}${about}. Upload securely (link valid ${LINK_VALID_DAYS} days): ${link}`,
		jobLink ? `Job: ${jobLink}` : '',
		message,
	]
		.filter(Boolean)
		.join('\n\n')
		.slice(0, MAX_MESSAGE_LENGTH)

	const phone = candidate.phone ? toE164(candidate.phone) : null
	const notSent = !messagingConfigured(deps)
		? NO_PROVIDER
		: !candidate.phone
			? 'The candidate has no phone number on file'
			: !phone
				? 'The candidate’s phone number (message.to) is not a number a message can go to'
				: undefined

	const sender = actor.userId ? eq(documentRequests.requestedByUserId, actor.userId) : isNull(documentRequests.requestedByUserId)
	const sameApplication = application ? eq(documentRequests.applicationId, application.id) : isNull(documentRequests.applicationId)
	const base = {
		candidateId: candidate.id,
		applicationId: application?.id ?? null,
		items,
		jobLink,
		email: { to: untrustedLine(candidate.email, 'candidate', 254), status: 'queued' as const },
	}
	const messageTo = { to: untrustedLine(phone ?? candidate.phone, 'candidate', 100), reason: notSent ?? null }

	return deps.db.transaction(async (tx) => {
		// One request decision at a time per candidate: parallel retries and loops see each other.
		await deps.database.rows(sql`select pg_advisory_xact_lock(hashtextextended(${`document_request:${candidate.id}`}, 0))`, tx)
		const now = deps.now()
		const [earlier] = await tx
			.select({ id: documentRequests.id, expiresAt: documentRequests.expiresAt })
			.from(documentRequests)
			.where(
				and(
					eq(documentRequests.workspaceId, actor.workspaceId),
					eq(documentRequests.candidateId, candidate.id),
					sameApplication,
					sender,
					eq(documentRequests.items, items),
					message ? eq(documentRequests.message, message) : isNull(documentRequests.message),
					isNull(documentRequests.revokedAt),
					gt(documentRequests.createdAt, new Date(now.getTime() - REPEAT_WINDOW_MS)),
				),
			)
			.limit(1)
		if (earlier)
			return {
				...base,
				id: earlier.id,
				expiresAt: earlier.expiresAt.toISOString(),
				message: { ...messageTo, status: notSent ? 'not_sent' : 'queued' },
				repeated: true,
				replaced: [],
			} satisfies DocumentRequestResult

		const recent = await tx
			.select({ createdAt: documentRequests.createdAt })
			.from(documentRequests)
			.where(
				and(
					eq(documentRequests.workspaceId, actor.workspaceId),
					eq(documentRequests.candidateId, candidate.id),
					sender,
					gt(documentRequests.createdAt, new Date(now.getTime() - HOUR_MS)),
				),
			)
			.orderBy(asc(documentRequests.createdAt), asc(documentRequests.seq))
		if (recent.length >= MAX_REQUESTS_PER_CANDIDATE_HOUR) {
			const nextAt = new Date(recent[0]!.createdAt.getTime() + HOUR_MS)
			const minutes = Math.max(1, Math.ceil((nextAt.getTime() - now.getTime()) / 60_000))
			throw new AppError(
				'RATE_LIMITED',
				`You already sent this candidate ${recent.length} document requests in the last hour (the limit is ${MAX_REQUESTS_PER_CANDIDATE_HOUR}); nothing was sent. The links already sent still work; another request can go in ${minutes} minute${minutes === 1 ? '' : 's'} (at ${nextAt.toISOString()}).`,
				{ retryAfter: minutes * 60 },
			)
		}

		const id = newId('dreq')
		await tx.insert(documentRequests).values({
			id,
			workspaceId: actor.workspaceId,
			candidateId: candidate.id,
			applicationId: application?.id ?? null,
			items,
			message: message || null,
			tokenHash: hashSecret(token),
			expiresAt,
			requestedByUserId: actor.userId,
			requestedByName: actor.name,
			createdAt: now,
		})
		const replaced = (
			await tx
				.update(documentRequests)
				.set({ revokedAt: now, replacedBy: id })
				.where(
					and(
						eq(documentRequests.workspaceId, actor.workspaceId),
						eq(documentRequests.candidateId, candidate.id),
						sameApplication,
						ne(documentRequests.id, id),
						isNull(documentRequests.revokedAt),
						gt(documentRequests.expiresAt, now),
						arrayContained(documentRequests.items, items),
					),
				)
				.returning({ id: documentRequests.id })
		).map((r) => r.id)
		const related = { type: 'document_request', id }
		const recipient = { type: 'candidate' as const, id: candidate.id }
		// The link is the candidate's credential: the outbox keeps it sealed and fills it in only when
		// sending. An owner or admin may reveal it while the mail is held in the dev mailbox (no SMTP),
		// to try the upload page without a mail catcher.
		const recipientOnly = { value: link, serverSecret: deps.secret, revealable: true }
		await enqueueMail(
			tx,
			{
				workspaceId: actor.workspaceId,
				to: candidate.email,
				subject: `Documents needed${about}: ${listOf(items)}`,
				text: mailText(replaced.length > 0),
				related,
				recipient,
				recipientOnly,
			},
			deps,
		)
		const sent = await enqueueMessage(
			tx,
			{
				workspaceId: actor.workspaceId,
				to: phone ?? candidate.phone ?? '',
				text: shortText,
				related,
				recipient,
				notSent,
				recipientOnly,
			},
			deps,
		)
		await recordActivity(tx, actor, {
			action: 'documents.requested',
			targetType: 'candidate',
			targetId: candidate.id,
			detail: { requestId: id, items, applicationId: application?.id ?? null, message: sent.status, replaced },
		})
		return {
			...base,
			id,
			expiresAt: expiresAt.toISOString(),
			message: { ...messageTo, status: sent.status === 'pending' ? 'queued' : 'not_sent' },
			repeated: false,
			replaced,
		} satisfies DocumentRequestResult
	})
}
