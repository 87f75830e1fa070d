/**
 * An owner's answer to a confirmed privacy request (`requests.ts`).
 *
 * Rules:
 * - A request is answered once: **Send data** (access), **Erase** (erasure) or **Decline** with a
 *   reason; two owners answering at the same time: one wins, the other is told it was answered.
 * - Send data and Erase act on what the workspace keeps under the request's e-mail address at that
 *   moment: its candidates, and what modules keep under the address alone (job alerts,
 *   `address-data.ts`). With nothing, there is nothing to send or erase: the owner declines (e.g.
 *   "no matching record").
 * - Send data e-mails a download link (`bl_prq_…`, stored as its SHA-256, sealed in the outbox),
 *   working for `DOWNLOAD_DAYS`: the ZIP is the candidate export (`exportCandidate`) and what is kept
 *   under the address (`email-address.json`), made when the link is opened, so no copy of the data is
 *   stored or sits in mail servers, a record erased meanwhile is not in it, and each candidate's
 *   download is an audit trail line.
 * - Erase is the candidate erasure (`eraseCandidate`), legal hold included, then the erasure of what
 *   is kept under the address (`eraseAddress`: job alerts, and the address's mail in the outbox); the
 *   answer tells the person when an anonymous applicant-flow record is kept.
 * - Every answer is an activity log line and an e-mail to the requester.
 */
import { strToU8, zipSync } from 'fflate'
import { and, eq, gt } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { credentialType, hashSecret, newCredential } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, invalid } from '../../core/errors.ts'
import { plural } from '../../core/ui.ts'
import { cleanText, cutText, isBlank } from '../../core/untrusted.ts'
import type { Db } from '../../db/client.ts'
import { recordActivity } from '../activity/index.ts'
import { operatorActor, type Workspace } from '../auth/index.ts'
import { ACCOUNT_MAIL, enqueueMail } from '../outbox/index.ts'
import { eraseAddress, exportAddress } from './address-data.ts'
import { getPrivacyRequest, type PrivacyRequestRow, privacyPagePath } from './requests.ts'
import { eraseCandidate, exportCandidate } from './service.ts'
import { privacyRequests } from './table.ts'

export const DOWNLOAD_DAYS = 7
export const MAX_REASON = 1000
const DAY_MS = 86_400_000

export const downloadPath = (workspaceSlug: string, token: string) => `${privacyPagePath(workspaceSlug)}/download/${token}`
export const DOWNLOAD_DEAD = `This download link has expired. Links work for ${DOWNLOAD_DAYS} days: ask again on the privacy page if you need to.`

const NO_MATCH =
	'Nothing in this workspace is kept under this e-mail address (no candidate, no job alert): there is nothing to send or erase. Decline the request with the reason instead.'
const answered = () => new AppError('CONFLICT', 'This request was already answered.')

/** The request, open, and what it is about; refuses an answered request and one about nothing kept. */
async function openWithMatches(deps: AppDeps, actor: Actor, id: string): Promise<PrivacyRequestRow> {
	const request = await getPrivacyRequest(deps, actor.workspaceId, id)
	if (request.status !== 'open') throw answered()
	if (!request.matches.length && !request.held.length) throw new AppError('CONFLICT', NO_MATCH)
	return request
}

/** Marks the request answered (only while open), logs it and e-mails the requester: all or nothing. */
async function close(
	deps: AppDeps,
	tx: Db,
	actor: Actor,
	request: PrivacyRequestRow,
	o: {
		status: 'completed' | 'declined'
		action: string
		candidateIds?: string[]
		reason?: string
		download?: string
		subject: string
		text: string
		/** Work done in the same transaction, before the answer is queued (the erasure of what the address alone holds). */
		first?: (tx: Db) => Promise<void>
	},
) {
	const now = deps.now()
	const [row] = await tx
		.update(privacyRequests)
		.set({
			status: o.status,
			resolvedAt: now,
			resolvedBy: actor.name,
			declineReason: o.reason ?? null,
			candidateIds: o.candidateIds ?? [],
			...(o.download ? { downloadHash: hashSecret(o.download), downloadExpiresAt: new Date(now.getTime() + DOWNLOAD_DAYS * DAY_MS) } : {}),
		})
		.where(and(eq(privacyRequests.workspaceId, actor.workspaceId), eq(privacyRequests.id, request.id), eq(privacyRequests.status, 'open')))
		.returning({ id: privacyRequests.id })
	if (!row) throw answered()
	await o.first?.(tx)
	await recordActivity(tx, actor, {
		action: o.action,
		targetType: 'privacy_request',
		targetId: request.id,
		detail: { kind: request.kind, candidates: o.candidateIds?.length ?? 0, ...Object.fromEntries(request.held.map((h) => [h.key, h.count])) },
	})
	const link = o.download ? `${deps.config.baseUrl}${downloadPath(actor.workspaceSlug, o.download)}` : null
	await enqueueMail(
		tx,
		{
			workspaceId: actor.workspaceId,
			to: request.email,
			subject: o.subject,
			text: link ? o.text.replace('{link}', link) : o.text,
			// The requester's own mail: not a conversation of the workspace (the inbox does not copy it).
			related: { type: ACCOUNT_MAIL, id: request.id },
			...(link ? { recipientOnly: { value: link, serverSecret: deps.secret } } : {}),
		},
		deps,
	)
}

/** Send data: e-mails the requester a link to download their data (see the rules above). */
export async function sendRequestedData(deps: AppDeps, actor: Actor, id: string): Promise<void> {
	const request = await openWithMatches(deps, actor, id)
	const token = newCredential('prq')
	await deps.db.transaction((tx) =>
		close(deps, tx, actor, request, {
			status: 'completed',
			action: 'privacy_request.data_sent',
			candidateIds: request.matches.map((m) => m.id),
			download: token,
			subject: 'Your data',
			text: [
				'Hello,',
				'',
				`As you asked, here is a copy of the personal data we hold about ${request.email}: one ZIP file with ${sentWords(request)}.`,
				`Download it here (the link works for ${DOWNLOAD_DAYS} days):`,
				'',
				'{link}',
			].join('\n'),
		}),
	)
}

/**
 * Erase: erases every candidate with the request's address (legal hold included), then, with the
 * answer, what is kept under the address alone; then answers the requester.
 */
export async function eraseRequested(deps: AppDeps, actor: Actor, id: string, address: string): Promise<void> {
	const request = await openWithMatches(deps, actor, id)
	let heldUntil: Date | null = null
	for (const match of request.matches) {
		try {
			const erased = await eraseCandidate(deps, actor, match.id, address)
			if (erased.heldUntil && (!heldUntil || erased.heldUntil > heldUntil)) heldUntil = erased.heldUntil
		} catch (error) {
			// Erased meanwhile (another owner's answer, the retention rule): what was asked is done.
			if (!(error instanceof AppError && error.code === 'NOT_FOUND')) throw error
		}
	}
	const hold = heldUntil
		? `\n\nThe law requires us, as a federal contractor, to keep an anonymous record of your applications (the job, dates and outcome; no name or contact) until ${heldUntil.toISOString().slice(0, 10)}; it is then deleted.`
		: ''
	await deps.db.transaction((tx) =>
		close(deps, tx, actor, request, {
			status: 'completed',
			action: 'privacy_request.erased',
			candidateIds: request.matches.map((m) => m.id),
			subject: 'Your data was erased',
			text: `Hello,\n\nAs you asked, the personal data we held about ${request.email} was erased: ${erasedWords(request)}.${hold}`,
			first: (tx) => eraseAddress(deps, tx, actor.workspaceId, request.email),
		}),
	)
}

/** What the ZIP holds, in the answer's words: what candidates hold, and what the address alone holds (2 job alerts). */
function sentWords(request: PrivacyRequestRow): string {
	const kept = request.held.map((h) => plural(h.count, h.noun))
	return [
		...(request.matches.length ? ['the details you gave, your applications and what was recorded about them, messages, documents and interviews'] : []),
		...kept,
	].join('; ')
}

/** What was erased, in the answer's words: what candidates hold, and what the address alone held (2 job alerts). */
function erasedWords(request: PrivacyRequestRow): string {
	const kept = request.held.map((h) => plural(h.count, h.noun))
	return [...(request.matches.length ? ['your details, applications, documents, messages and interviews'] : []), ...kept].join('; ')
}

/** Decline: answers the requester with the reason (e.g. no matching record). */
export async function declineRequest(deps: AppDeps, actor: Actor, id: string, reasonTyped: string): Promise<void> {
	// Sent to the person as typed, without direction-control or invisible characters (`cleanText`).
	const reason = cutText(cleanText(reasonTyped).trim(), MAX_REASON)
	if (isBlank(reason)) throw invalid([{ field: `reason-${id}`, message: 'Write the reason: it is sent to the person' }])
	const request = await getPrivacyRequest(deps, actor.workspaceId, id)
	if (request.status !== 'open') throw answered()
	await deps.db.transaction((tx) =>
		close(deps, tx, actor, request, {
			status: 'declined',
			action: 'privacy_request.declined',
			reason,
			subject: 'Your request about your data',
			text: `Hello,\n\nWe could not act on your request ${request.kind === 'access' ? 'for a copy of' : 'to erase'} the personal data we hold about ${request.email}:\n\n${reason}`,
		}),
	)
}

/** Who the audit trail names for a download through a request's link. */
const requesterActor = (ws: Workspace, requestId: string): Actor => ({
	...operatorActor(ws),
	name: 'Privacy request',
	credential: { kind: 'careers_form', id: requestId, name: 'privacy request download link' },
})

/**
 * The ZIP a live download link gives: the export of each candidate the request was answered for, and
 * what is kept under the request's address alone (`email-address.json`), each as it is now. One
 * candidate and nothing else: its own ZIP; otherwise a ZIP of them. NOT_FOUND when the link is dead
 * or everything was erased since.
 */
export async function downloadRequested(deps: AppDeps, ws: Workspace, token: string, address: string): Promise<{ fileName: string; bytes: Uint8Array }> {
	if (credentialType(token) !== 'prq') throw new AppError('NOT_FOUND', DOWNLOAD_DEAD)
	const [row] = await deps.db
		.select({ id: privacyRequests.id, email: privacyRequests.email, candidateIds: privacyRequests.candidateIds })
		.from(privacyRequests)
		.where(and(eq(privacyRequests.downloadHash, hashSecret(token)), eq(privacyRequests.workspaceId, ws.id), gt(privacyRequests.downloadExpiresAt, deps.now())))
	if (!row) throw new AppError('NOT_FOUND', DOWNLOAD_DEAD)
	const exports = []
	for (const candidateId of row.candidateIds) {
		try {
			exports.push(await exportCandidate(deps, requesterActor(ws, row.id), candidateId, address))
		} catch (error) {
			if (!(error instanceof AppError && error.code === 'NOT_FOUND')) throw error
		}
	}
	const kept = await exportAddress(deps, ws.id, row.email)
	if (!exports.length && !kept) throw new AppError('NOT_FOUND', 'There is no data to download any more: it was erased.')
	if (exports.length === 1 && !kept) return exports[0]!
	const entries = Object.fromEntries(exports.map((e) => [e.fileName, e.bytes]))
	if (kept)
		entries['email-address.json'] = strToU8(JSON.stringify({ exportedAt: deps.now().toISOString(), workspace: ws.slug, email: row.email, ...kept }, null, 2))
	entries['README.txt'] = strToU8(
		[
			...(exports.length ? ['Each ZIP file holds the data of one record with your e-mail address.'] : []),
			...(kept ? ['email-address.json holds what is kept under your e-mail address alone (job alerts).'] : []),
		].join('\n') + '\n',
	)
	return { fileName: 'your-data.zip', bytes: zipSync(entries, { level: 0 }) }
}
