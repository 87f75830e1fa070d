/**
 * A person's request for their data or its erasure, from the workspace's public privacy page.
 *
 * Rules:
 * - Anyone may ask, without an account, for any address: the answer is the same whether or not a
 *   candidate has that address (no one learns who applied), and the confirmation e-mail goes to
 *   the address either way, so only its owner can confirm. The address is kept in its normal form
 *   (core/email.ts), and the candidates it matches are those with that address in any spelling
 *   (`ann@Bücher.example` finds `ann@xn--bcher-kva.example`, and the reverse; a request stored
 *   before in a Unicode spelling too). Malformed input and the limits are judged on what was typed:
 *   5 requests a minute per client address, 3 per e-mail address.
 * - The confirmation link (`bl_prq_…`) is random, stored only as its SHA-256, works for
 *   `CONFIRM_HOURS` and once; it is sealed in the outbox (only the recipient sees it, never revealable:
 *   whoever confirms a request for an address decides what an owner is asked to do with its data).
 * - Opening the link only asks; confirming makes the request open, due `DUE_DAYS` (45) days later:
 *   the CCPA/CPRA limit to answer (Cal. Civ. Code 1798.130(a)(2)).
 * - A request is about the address: owners see the candidates with it and what else the workspace
 *   keeps under it alone (job alerts, the `privacy:address-data` port), and answer it
 *   (`request-actions.ts`).
 * - Unconfirmed requests whose link expired are deleted by the daily sweep (nothing was asked), and
 *   answered ones once kept 24 months (the record of how a request was answered that the CCPA
 *   regulations ask for, 11 CCR 7101).
 */
import { and, asc, eq, gt, isNotNull, isNull, lte, or, sql } from 'drizzle-orm'
import { credentialType, hashSecret, newCredential, newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { emailProblem, normalEmail } from '../../core/email.ts'
import { AppError, type FieldError, invalid } from '../../core/errors.ts'
import { cutText, fileText } from '../../core/untrusted.ts'
import { monthsBefore } from '../../core/time.ts'
import type { Db } from '../../db/client.ts'
import type { Workspace } from '../auth/index.ts'
import { candidatesByAddress } from '../candidates/index.ts'
import { enqueueMail } from '../outbox/index.ts'
import { type AddressHolding, addressHoldings } from './address-data.ts'
import { privacyRequests } from './table.ts'
import { navCount } from '../../core/nav-count.ts'

export const CONFIRM_HOURS = 24
/** Days to answer a confirmed request: 45 under the CCPA/CPRA. */
export const DUE_DAYS = 45
export const MAX_NOTE = 1000
const PER_CLIENT_PER_MINUTE = 5
const PER_EMAIL_PER_MINUTE = 3
const DAY_MS = 86_400_000

export type RequestKind = 'access' | 'erasure'
export const REQUEST_KINDS: Record<RequestKind, string> = { access: 'Send me my data', erasure: 'Erase my data' }

/** The public page of a workspace: `/careers/<slug>/privacy`, beside its careers site. */
export const privacyPagePath = (workspaceSlug: string) => `/careers/${workspaceSlug}/privacy`
export const confirmPath = (workspaceSlug: string, token: string) => `${privacyPagePath(workspaceSlug)}/confirm/${token}`

export const LINK_DEAD = `This confirmation link has expired or has already been used. Links work for ${CONFIRM_HOURS} hours, once: ask again if you need to.`

export interface RequestInput {
	email: string
	kind: string
	note: string
	/** The client's address (for the limit). */
	address: string
}

function readInput(input: RequestInput): { email: string; kind: RequestKind; note: string | null } {
	const errors: FieldError[] = []
	const email = normalEmail(input.email)
	const emailWrong = emailProblem(email, 'Enter your e-mail address, like name@example.com')
	if (emailWrong) errors.push({ field: 'email', message: emailWrong })
	if (input.kind !== 'access' && input.kind !== 'erasure') errors.push({ field: 'kind', message: 'Choose what you are asking for' })
	// Without what is no text (a NUL the database refuses, direction overrides, noncharacters): the note is shown to owners and kept with the request.
	const typed = fileText(input.note).trim()
	if ([...typed].length > MAX_NOTE) errors.push({ field: 'note', message: `Write at most ${MAX_NOTE} characters` })
	if (errors.length) throw invalid(errors)
	const note = cutText(typed, MAX_NOTE)
	return { email, kind: input.kind as RequestKind, note: note || null }
}

const tooMany = (seconds: number) => new AppError('RATE_LIMITED', `Too many requests. Wait ${seconds} seconds, then try again.`, { retryAfter: seconds })

/**
 * Takes a request from the public page and e-mails its confirmation link. The same work is done
 * for every well-formed address (no look-up of candidates here), so the answer says nothing.
 */
export async function submitPrivacyRequest(deps: AppDeps, ws: Workspace, input: RequestInput): Promise<void> {
	const { email, kind, note } = readInput(input)
	const byClient = await deps.limiter.hit(`privacy-request:address:${input.address}`, PER_CLIENT_PER_MINUTE)
	if (!byClient.allowed) throw tooMany(byClient.resetSeconds)
	// Keyed by the address typed, hashed: no e-mail address in the limiter's keys.
	const byEmail = await deps.limiter.hit(`privacy-request:email:${hashSecret(email)}`, PER_EMAIL_PER_MINUTE)
	if (!byEmail.allowed) throw tooMany(byEmail.resetSeconds)
	const token = newCredential('prq')
	const link = `${deps.config.baseUrl}${confirmPath(ws.slug, token)}`
	const now = deps.now()
	const id = newId('prq')
	await deps.db.transaction(async (tx) => {
		await tx.insert(privacyRequests).values({
			id,
			workspaceId: ws.id,
			kind,
			email,
			note,
			tokenHash: hashSecret(token),
			createdAt: now,
			expiresAt: new Date(now.getTime() + CONFIRM_HOURS * 3_600_000),
		})
		await enqueueMail(
			tx,
			{
				workspaceId: ws.id,
				to: email,
				subject: `Confirm your request to ${ws.name}`,
				text: [
					'Hello,',
					'',
					`Someone, probably you, asked ${ws.name} to ${kind === 'access' ? 'send a copy of the personal data it holds about' : 'erase the personal data it holds about'} ${email}.`,
					`Confirm the request here (the link works for ${CONFIRM_HOURS} hours, once):`,
					'',
					link,
					'',
					`Once you confirm, ${ws.name} answers within ${DUE_DAYS} days. If you did not ask, ignore this e-mail: nothing happens.`,
				].join('\n'),
				related: { type: 'privacy_request', id },
				recipientOnly: { value: link, serverSecret: deps.secret },
			},
			deps,
		)
	})
}

async function liveRequest(db: Db, ws: Workspace, token: string, now: Date) {
	if (credentialType(token) !== 'prq') return null
	const [row] = await db
		.select({ id: privacyRequests.id, kind: privacyRequests.kind, email: privacyRequests.email })
		.from(privacyRequests)
		.where(
			and(
				eq(privacyRequests.tokenHash, hashSecret(token)),
				eq(privacyRequests.workspaceId, ws.id),
				isNull(privacyRequests.confirmedAt),
				gt(privacyRequests.expiresAt, now),
			),
		)
	return row ?? null
}

/** What a live confirmation link asks (the page shows it before the person confirms); NOT_FOUND when dead. */
export async function requestToConfirm(deps: AppDeps, ws: Workspace, token: string): Promise<{ kind: RequestKind; email: string }> {
	const row = await liveRequest(deps.db, ws, token, deps.now())
	if (!row) throw new AppError('NOT_FOUND', LINK_DEAD)
	return { kind: row.kind as RequestKind, email: row.email }
}

/** Confirms a request with its link, once (two confirmations at the same time: one wins); it is then due in 45 days. */
export async function confirmPrivacyRequest(deps: AppDeps, ws: Workspace, token: string): Promise<{ id: string; dueAt: Date }> {
	if (credentialType(token) !== 'prq') throw new AppError('NOT_FOUND', LINK_DEAD)
	const now = deps.now()
	const dueAt = new Date(now.getTime() + DUE_DAYS * DAY_MS)
	const [row] = await deps.db
		.update(privacyRequests)
		.set({ confirmedAt: now, dueAt, status: 'open' })
		.where(
			and(
				eq(privacyRequests.tokenHash, hashSecret(token)),
				eq(privacyRequests.workspaceId, ws.id),
				isNull(privacyRequests.confirmedAt),
				gt(privacyRequests.expiresAt, now),
			),
		)
		.returning({ id: privacyRequests.id })
	if (!row) throw new AppError('NOT_FOUND', LINK_DEAD)
	return { id: row.id, dueAt }
}

export interface PrivacyRequestRow {
	id: string
	kind: RequestKind
	email: string
	note: string | null
	confirmedAt: Date
	dueAt: Date
	status: 'open' | 'completed' | 'declined'
	resolvedAt: Date | null
	resolvedBy: string | null
	declineReason: string | null
	/** Candidates of the workspace with the request's e-mail address, now. */
	matches: { id: string; name: string }[]
	/** What else the workspace keeps under the address alone, now (job alerts: `address-data.ts`). */
	held: AddressHolding[]
	/** Whole days left to answer (negative: overdue), for an open request. */
	daysLeft: number
}

/**
 * Days left to answer, counting a started day as a whole one: just confirmed, 45; with an hour
 * left, 1. Past the deadline by any time, negative: -1 is overdue by (up to) a day.
 */
export function daysLeft(due: Date, now: Date): number {
	const ms = due.getTime() - now.getTime()
	return ms >= 0 ? Math.ceil(ms / DAY_MS) : -Math.ceil(-ms / DAY_MS)
}

const shownColumns = {
	id: privacyRequests.id,
	kind: privacyRequests.kind,
	email: privacyRequests.email,
	note: privacyRequests.note,
	confirmedAt: privacyRequests.confirmedAt,
	dueAt: privacyRequests.dueAt,
	status: privacyRequests.status,
	resolvedAt: privacyRequests.resolvedAt,
	resolvedBy: privacyRequests.resolvedBy,
	declineReason: privacyRequests.declineReason,
}

type ShownRow = Omit<PrivacyRequestRow, 'matches' | 'held' | 'daysLeft' | 'kind' | 'status' | 'confirmedAt' | 'dueAt'> & {
	kind: string
	status: string
	confirmedAt: Date | null
	dueAt: Date | null
}

/** The rows with what the workspace keeps under their address now (candidates, job alerts), and the days left. */
async function withMatches(deps: AppDeps, workspaceId: string, rows: ShownRow[]): Promise<PrivacyRequestRow[]> {
	const emails = rows.map((r) => r.email)
	const found = await candidatesByAddress(deps, workspaceId, emails)
	const held = await addressHoldings(deps, workspaceId, emails)
	const now = deps.now()
	return rows.map((r) => ({
		...r,
		kind: r.kind as RequestKind,
		status: r.status as PrivacyRequestRow['status'],
		// Confirmed rows only reach here: both dates are set.
		confirmedAt: r.confirmedAt!,
		dueAt: r.dueAt!,
		matches: (found.get(r.email) ?? []).map((c) => ({ id: c.id, name: c.name })),
		held: held.get(normalEmail(r.email)) ?? [],
		daysLeft: daysLeft(r.dueAt!, now),
	}))
}

/**
 * The workspace's confirmed requests: open ones first, the soonest due first; then the answered
 * ones, the latest answered first (at most `limit` of those).
 */
export async function listPrivacyRequests(deps: AppDeps, workspaceId: string, limit = 100): Promise<PrivacyRequestRow[]> {
	const open = await deps.db
		.select(shownColumns)
		.from(privacyRequests)
		.where(and(eq(privacyRequests.workspaceId, workspaceId), eq(privacyRequests.status, 'open')))
		.orderBy(asc(privacyRequests.dueAt), asc(privacyRequests.id))
	const answered = await deps.db
		.select(shownColumns)
		.from(privacyRequests)
		.where(and(eq(privacyRequests.workspaceId, workspaceId), sql`${privacyRequests.status} in ('completed', 'declined')`))
		.orderBy(sql`${privacyRequests.resolvedAt} desc`, asc(privacyRequests.id))
		.limit(limit)
	return withMatches(deps, workspaceId, [...open, ...answered])
}

/** One confirmed request of the workspace; another workspace's, an unconfirmed or an absent one is NOT_FOUND alike. */
export async function getPrivacyRequest(deps: AppDeps, workspaceId: string, id: string, db: Db = deps.db): Promise<PrivacyRequestRow> {
	const [row] = await db
		.select(shownColumns)
		.from(privacyRequests)
		.where(and(eq(privacyRequests.workspaceId, workspaceId), eq(privacyRequests.id, id), sql`${privacyRequests.status} <> 'unconfirmed'`))
	if (!row) throw new AppError('NOT_FOUND', 'No such privacy request')
	return (await withMatches(deps, workspaceId, [row]))[0]!
}

/** Open requests of the workspace (the navigation's counter). */
export async function openRequestCount(deps: AppDeps, workspaceId: string): Promise<number> {
	return navCount(deps.database, sql`select 1 from privacy_requests where workspace_id = ${workspaceId} and status = 'open'`)
}

/** How long an answered request is kept, as the record of how it was answered (11 CCR 7101: 24 months). */
export const KEEP_ANSWERED_MONTHS = 24

/**
 * The daily sweep: deletes unconfirmed requests whose link has expired (nothing was asked) and
 * answered ones older than `KEEP_ANSWERED_MONTHS`; returns how many.
 */
export async function forgetOldRequests(deps: AppDeps): Promise<number> {
	const now = deps.now()
	const kept = monthsBefore(now, KEEP_ANSWERED_MONTHS)
	const gone = await deps.db
		.delete(privacyRequests)
		.where(
			or(
				and(isNull(privacyRequests.confirmedAt), lte(privacyRequests.expiresAt, now)),
				and(isNotNull(privacyRequests.resolvedAt), lte(privacyRequests.resolvedAt, kept)),
			),
		)
		.returning({ id: privacyRequests.id })
	return gone.length
}
