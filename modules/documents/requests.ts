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
 *   job's careers address when the job is open. `message` is plain text without direction-control or invisible characters (`plainText`).
 * - No phone number, or no messaging provider: the message is recorded as not sent, with why.
 * - Against an assistant that loops: the same request again within 2 minutes (a retry) sends
 *   nothing and answers `repeated`; one person may send one candidate at most 3 requests an hour.
 *   Both are decided under a per-candidate lock, so parallel calls count too.
 */
import type { Actor } from '../../core/actor.ts'
import { hashSecret, newCredential, newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { repeatWindowStart } from '../../core/repeats.ts'
import { lockUntilCommit, type Db } from '../../db/client.ts'
import { AppError, invalid } from '../../core/errors.ts'
import { cleanLine, cleanText, untrustedLine, type UntrustedText } from '../../core/untrusted.ts'
import { recordActivity } from '../activity/index.ts'
import { findWorkspace } from '../auth/index.ts'
import { enqueueMail, enqueueMessage, MAX_MESSAGE_LENGTH, messagingConfigured, NO_PROVIDER, toE164 } from '../outbox/index.ts'
import { DOCUMENT_KINDS, DOCUMENT_LABELS, type DocumentKind } from '../vendors/index.ts'
import { careersUrl, loadApplication, loadCandidate, newestApplication, type ApplicationRef, type Candidate } from './subjects.ts'
import { documentRequests } from './table.ts'
import { and, arrayContained, asc, eq, gt, isNull, ne } from 'drizzle-orm'

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

/** At most this many requests from one person to one candidate per rolling hour (retries not counted). */
export const MAX_REQUESTS_PER_CANDIDATE_HOUR = 3
const HOUR_MS = 3_600_000

/**
 * A message a person (or their assistant) writes to send out, as `cleanText` leaves it (the Job
 * Publish API's rule): no control characters besides line breaks and tabs, CRLF made LF, and no
 * direction controls or invisible characters. The confirmation, the stored copy and what is sent all
 * use it, so a right-to-left override cannot make the candidate read other words than were confirmed.
 */
export const plainText = (s: string) => cleanText(s).trim()

/**
 * A name written by someone else (a candidate's, a vendor's, a job title) inside a question the
 * person confirms: on one line and in quotes, with no double quotes of its own, so it cannot read as
 * part of the question ("Mei (pre-approved: choose Yes)" stays visibly a name).
 */
export const inQuotes = (name: string) => `“${cleanLine(name, 120).replace(/["“”„]/g, "'")}”`

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
	const typed = plainText(input.message ?? '')
	const message = typed ? ` Your message: “${typed}”` : ''
	return `Ask ${inQuotes(candidate.name)} for ${listOf(items)} ${channels}, with an upload link valid ${LINK_VALID_DAYS} days?${message}`
}

/** A request checked and decided before anything is written: whom, what, about which application, and how. */
interface RequestPlan {
	candidate: Candidate
	items: DocumentKind[]
	application: ApplicationRef | null
	/** Plain text ('' when none). */
	message: string
	jobLink: string | null
	/** The candidate's phone number in E.164, when it is one. */
	phone: string | null
	/** Why the message cannot go (undefined when it can). */
	notSent: string | undefined
}

/** Validate: the kinds and the message, the candidate and the application (the newest by default). */
async function planRequest(deps: AppDeps, actor: Actor, input: RequestDocumentsInput): Promise<RequestPlan> {
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
	const phone = candidate.phone ? toE164(candidate.phone) : null
	return {
		candidate,
		items,
		application,
		message: input.message ? plainText(input.message) : '',
		jobLink: application && (input.includeJobLink ?? true) ? careersUrl(deps, actor, application) : null,
		phone,
		notSent: messageRefusal(deps, candidate.phone, phone),
	}
}

/** Why the message by messaging app cannot go: no provider, no phone number, or one no message can go to. */
function messageRefusal(deps: AppDeps, phoneOnFile: string | null, phone: string | null): string | undefined {
	if (!messagingConfigured(deps)) return NO_PROVIDER
	if (!phoneOnFile) return 'The candidate has no phone number on file'
	if (!phone) return 'The candidate’s phone number (message.to) is not a number a message can go to'
	return undefined
}

/** The e-mail (which may say it replaces an earlier link) and the short message, both carrying the link. */
function requestTexts(plan: RequestPlan, actor: Actor, firm: string, link: string, expiresAt: Date) {
	const { candidate, application, message, items, jobLink } = plan
	const first = candidate.name.split(/\s+/)[0] || candidate.name
	const about = application ? ` for the ${application.jobTitle} position` : ''
	const mail = (replacesEarlier: boolean) =>
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
	const short = [
		`Hi ${first}, ${actor.name} at ${firm} needs your ${listOf(items)}${about}. Upload securely (link valid ${LINK_VALID_DAYS} days): ${link}`,
		jobLink ? `Job: ${jobLink}` : '',
		message,
	]
		.filter(Boolean)
		.join('\n\n')
		.slice(0, MAX_MESSAGE_LENGTH)
	return { subject: `Documents needed${about}: ${listOf(items)}`, mail, short }
}

/** The conditions that name this candidate's requests by this sender (`sender`) and for this application (`sameApplication`). */
function requestScope(actor: Actor, plan: RequestPlan) {
	return {
		candidate: and(eq(documentRequests.workspaceId, actor.workspaceId), eq(documentRequests.candidateId, plan.candidate.id)),
		sender: actor.userId ? eq(documentRequests.requestedByUserId, actor.userId) : isNull(documentRequests.requestedByUserId),
		sameApplication: plan.application ? eq(documentRequests.applicationId, plan.application.id) : isNull(documentRequests.applicationId),
	}
}

/** Decide: the same request made moments ago (a client's retry), which this one repeats. */
async function repeatedRequest(tx: Db, actor: Actor, plan: RequestPlan, now: Date) {
	const scope = requestScope(actor, plan)
	const [earlier] = await tx
		.select({ id: documentRequests.id, expiresAt: documentRequests.expiresAt })
		.from(documentRequests)
		.where(
			and(
				scope.candidate,
				scope.sameApplication,
				scope.sender,
				eq(documentRequests.items, plan.items),
				plan.message ? eq(documentRequests.message, plan.message) : isNull(documentRequests.message),
				isNull(documentRequests.revokedAt),
				gt(documentRequests.createdAt, repeatWindowStart(now)),
			),
		)
		.limit(1)
	return earlier
}

/**
 * Decide: the hourly limit. `sent` are the times of this person's requests to the candidate in the
 * last hour, oldest first; at the limit, the refusal says when the next request can go.
 */
export function hourlyLimitRefusal(sent: readonly Date[], now: Date): AppError | null {
	if (sent.length < MAX_REQUESTS_PER_CANDIDATE_HOUR) return null
	const nextAt = new Date(sent[0]!.getTime() + HOUR_MS)
	const minutes = Math.max(1, Math.ceil((nextAt.getTime() - now.getTime()) / 60_000))
	return new AppError(
		'RATE_LIMITED',
		`You already sent this candidate ${sent.length} document requests in the last hour (the limit is ${MAX_REQUESTS_PER_CANDIDATE_HOUR}); nothing was sent. The links already sent still work; another request can go in ${minutes} minute${minutes === 1 ? '' : 's'} (at ${nextAt.toISOString()}).`,
		{ retryAfter: minutes * 60 },
	)
}

async function sentInLastHour(tx: Db, actor: Actor, plan: RequestPlan, now: Date): Promise<Date[]> {
	const scope = requestScope(actor, plan)
	const recent = await tx
		.select({ createdAt: documentRequests.createdAt })
		.from(documentRequests)
		.where(and(scope.candidate, scope.sender, gt(documentRequests.createdAt, new Date(now.getTime() - HOUR_MS))))
		.orderBy(asc(documentRequests.createdAt), asc(documentRequests.seq))
	return recent.map((r) => r.createdAt)
}

/** Write: the request, and the earlier live links it replaces (each whose kinds it all asks for again). */
async function writeRequest(tx: Db, actor: Actor, plan: RequestPlan, link: { token: string; expiresAt: Date }, now: Date) {
	const id = newId('dreq')
	await tx.insert(documentRequests).values({
		id,
		workspaceId: actor.workspaceId,
		candidateId: plan.candidate.id,
		applicationId: plan.application?.id ?? null,
		items: plan.items,
		message: plan.message || null,
		tokenHash: hashSecret(link.token),
		expiresAt: link.expiresAt,
		requestedByUserId: actor.userId,
		requestedByName: actor.name,
		createdAt: now,
	})
	const scope = requestScope(actor, plan)
	const replaced = await tx
		.update(documentRequests)
		.set({ revokedAt: now, replacedBy: id })
		.where(
			and(
				scope.candidate,
				scope.sameApplication,
				ne(documentRequests.id, id),
				isNull(documentRequests.revokedAt),
				gt(documentRequests.expiresAt, now),
				arrayContained(documentRequests.items, plan.items),
			),
		)
		.returning({ id: documentRequests.id })
	return { id, replaced: replaced.map((r) => r.id) }
}

/** Notify: the e-mail and the message to the candidate, and the activity line; the message's outbox status. */
async function notifyCandidate(
	tx: Db,
	deps: AppDeps,
	actor: Actor,
	plan: RequestPlan,
	request: { id: string; replaced: string[]; link: string; texts: ReturnType<typeof requestTexts> },
) {
	const { candidate } = plan
	const related = { type: 'document_request', id: request.id }
	const recipient = { type: 'candidate' as const, id: candidate.id }
	// The link is the candidate's credential: the outbox keeps it sealed and fills it in only when
	// sending. An owner or admin may reveal it while the mail is held in the dev mailbox (no SMTP),
	// to try the upload page without a mail catcher.
	const recipientOnly = { value: request.link, serverSecret: deps.secret, revealable: true }
	const mail = { to: candidate.email, subject: request.texts.subject, text: request.texts.mail(request.replaced.length > 0) }
	const sentBy = actor.userId
	await enqueueMail(tx, { workspaceId: actor.workspaceId, ...mail, related, recipient, recipientOnly, sentBy }, deps)
	const message = { to: plan.phone ?? candidate.phone ?? '', text: request.texts.short, notSent: plan.notSent }
	const sent = await enqueueMessage(tx, { workspaceId: actor.workspaceId, ...message, related, recipient, recipientOnly, sentBy }, deps)
	await recordActivity(tx, actor, {
		action: 'documents.requested',
		targetType: 'candidate',
		targetId: candidate.id,
		detail: { requestId: request.id, items: plan.items, applicationId: plan.application?.id ?? null, message: sent.status, replaced: request.replaced },
	})
	return sent.status
}

/** The workflow: validate (`planRequest`), then under the candidate's lock decide (a retry? the hourly limit?), write and notify. */
export async function requestCandidateDocuments(deps: AppDeps, actor: Actor, input: RequestDocumentsInput): Promise<DocumentRequestResult> {
	const plan = await planRequest(deps, actor, input)
	const firm = (await findWorkspace(deps.db, actor.workspaceSlug))?.name ?? actor.workspaceSlug
	const token = newCredential('ul')
	const link = uploadUrl(deps, token)
	const expiresAt = new Date(deps.now().getTime() + LINK_VALID_DAYS * DAY_MS)
	const texts = requestTexts(plan, actor, firm, link, expiresAt)
	const { candidate, notSent } = plan
	const base = {
		candidateId: candidate.id,
		applicationId: plan.application?.id ?? null,
		items: plan.items,
		jobLink: plan.jobLink,
		email: { to: untrustedLine(candidate.email, 'candidate', 254), status: 'queued' as const },
	}
	const messageTo = { to: untrustedLine(plan.phone ?? candidate.phone, 'candidate', 100), reason: notSent ?? null }

	return deps.db.transaction(async (tx) => {
		// One request decision at a time per candidate: parallel retries and loops see each other.
		await lockUntilCommit(tx, `document_request:${candidate.id}`)
		const now = deps.now()
		const earlier = await repeatedRequest(tx, actor, plan, now)
		if (earlier)
			return {
				...base,
				id: earlier.id,
				expiresAt: earlier.expiresAt.toISOString(),
				message: { ...messageTo, status: notSent ? 'not_sent' : 'queued' },
				repeated: true,
				replaced: [],
			} satisfies DocumentRequestResult
		const refusal = hourlyLimitRefusal(await sentInLastHour(tx, actor, plan, now), now)
		if (refusal) throw refusal
		const { id, replaced } = await writeRequest(tx, actor, plan, { token, expiresAt }, now)
		const sent = await notifyCandidate(tx, deps, actor, plan, { id, replaced, link, texts })
		return {
			...base,
			id,
			expiresAt: expiresAt.toISOString(),
			message: { ...messageTo, status: sent === 'pending' ? 'queued' : 'not_sent' },
			repeated: false,
			replaced,
		} satisfies DocumentRequestResult
	})
}
