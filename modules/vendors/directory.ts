/**
 * Vendors as recruiters see them: contact, how they take submissions, which documents a
 * submission needs, and counts of open jobs and submissions.
 *
 * Rules:
 * - A vendor takes submissions by e-mail (`submissionEmail`) or on its own portal
 *   (`submissionPortalUrl`); e-mail wins when both are set, since only e-mail can carry documents.
 * - Document rules: the kinds in `always`, plus those listed for the candidate's work
 *   authorization (keys compared without case or punctuation: H-1B = H1B).
 * - Counts of jobs and submissions come from the modules that keep them (the `vendorFacts` port, port.ts):
 *   those modules require this one, so this one cannot ask them, nor read their tables.
 */
import { and, eq, sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { emailProblem, normalEmail } from '../../core/email.ts'
import { isoInstant } from '../../core/time.ts'
import { keysetPage } from '../../core/paging.ts'
import { contributionsTo } from '../../core/registry.ts'
import { typedLine, untrustedLine } from '../../core/untrusted.ts'
import { AppError, invalid, type FieldError } from '../../core/errors.ts'
import { recordActivity } from '../activity/index.ts'
import { vendorFacts, type VendorFacts } from './port.ts'
import { authorizationKey, DOCUMENT_KINDS, isDocumentKind, type DocumentKind } from './model.ts'
import { vendors, type DocumentRules } from './table.ts'

export type SubmissionMethod = 'email' | 'portal'

export interface VendorSummary {
	id: string
	name: string
	apiAccess: boolean
	submissionMethod: SubmissionMethod | null
	openJobCount: number
	submissionCount: number
	createdAt: string
}

export interface VendorDetail extends VendorSummary {
	jobCount: number
	contact: { name: string | null; email: string | null; phone: string | null }
	submission: { method: SubmissionMethod | null; email: string | null; portalUrl: string | null }
	documentRules: KnownDocumentRules
	lastSubmittedAt: string | null
}

/** Stored rules as they are read back: only the kinds Benchline knows (see `cleanRules`). */
export interface KnownDocumentRules {
	always: DocumentKind[]
	byWorkAuthorization: Record<string, DocumentKind[]>
}

interface VendorRow {
	id: string
	name: string
	apiAccess: boolean
	contactName: string | null
	contactEmail: string | null
	contactPhone: string | null
	submissionEmail: string | null
	submissionPortalUrl: string | null
	documentRules: DocumentRules
	createdAt: Date | string
}

type FactsRow = VendorRow & VendorFacts

/** The rows with every module's facts about them merged in. */
async function withFacts(deps: AppDeps, actor: Actor, rows: VendorRow[]): Promise<FactsRow[]> {
	if (!rows.length) return rows
	const ids = rows.map((r) => r.id)
	const contributed = await Promise.all(contributionsTo(deps.registry, vendorFacts).map((facts) => facts(deps, actor, ids)))
	return rows.map((r) => Object.assign({ ...r }, ...contributed.map((facts) => facts.get(r.id) ?? {})) as FactsRow)
}

export const submissionMethodOf = (v: { submissionEmail: string | null; submissionPortalUrl: string | null }): SubmissionMethod | null =>
	v.submissionEmail ? 'email' : v.submissionPortalUrl ? 'portal' : null

const SELECT = sql`select v.id, v.name, v.api_access as "apiAccess", v.contact_name as "contactName", v.contact_email as "contactEmail", v.contact_phone as "contactPhone",
	v.submission_email as "submissionEmail", v.submission_portal_url as "submissionPortalUrl", v.document_rules as "documentRules", v.created_at as "createdAt"
	from ${vendors} v`

function summary(r: FactsRow): VendorSummary {
	return {
		id: r.id,
		name: r.name,
		apiAccess: r.apiAccess,
		submissionMethod: submissionMethodOf(r),
		openJobCount: Number(r.openJobCount ?? 0),
		submissionCount: Number(r.submissionCount ?? 0),
		createdAt: isoInstant(r.createdAt),
	}
}

function detail(r: FactsRow): VendorDetail {
	return {
		...summary(r),
		jobCount: Number(r.jobCount ?? 0),
		contact: { name: r.contactName, email: r.contactEmail, phone: r.contactPhone },
		submission: { method: submissionMethodOf(r), email: r.submissionEmail, portalUrl: r.submissionPortalUrl },
		documentRules: cleanRules(r.documentRules),
		lastSubmittedAt: r.lastSubmittedAt ? isoInstant(r.lastSubmittedAt) : null,
	}
}

/**
 * A vendor as a model sees it: its name, contact and portal address labelled as the vendor's own
 * words (core/untrusted.ts). The directory itself stays plain: the operator CLI prints it.
 */
export function labelledSummary(v: VendorSummary) {
	return { ...v, name: untrustedLine(v.name, 'vendor', 200) }
}

export function labelledDetail(v: VendorDetail) {
	const line = (text: string | null, max: number) => untrustedLine(text, 'vendor', max)
	return {
		...labelledSummary(v),
		jobCount: v.jobCount,
		contact: { name: line(v.contact.name, 120), email: line(v.contact.email, 254), phone: line(v.contact.phone, 40) },
		submission: { method: v.submission.method, email: line(v.submission.email, 254), portalUrl: line(v.submission.portalUrl, 2000) },
		documentRules: v.documentRules,
		lastSubmittedAt: v.lastSubmittedAt,
	}
}

const BY_NAME = {
	keys: [{ expr: sql`lower(v.name)` }, { expr: sql`v.id` }],
	lookup: (id: string) => sql`select lower(x.name), x.id from ${vendors} x where x.id = ${id}`,
}

/** Vendors by name (A to Z), keyset-paged on the last vendor seen. */
export async function listVendors(
	deps: AppDeps,
	actor: Actor,
	input: { limit: number; cursor?: string },
): Promise<{ vendors: VendorSummary[]; nextCursor: string | null }> {
	const scope = `list_vendors:${actor.userId}`
	const { rows, nextCursor } = await keysetPage<VendorRow>(deps, {
		scope,
		cursor: input.cursor,
		limit: input.limit,
		order: BY_NAME,
		from: SELECT,
		where: [sql`v.workspace_id = ${actor.workspaceId}`],
	})
	return { vendors: (await withFacts(deps, actor, rows)).map(summary), nextCursor }
}

export async function getVendor(deps: AppDeps, actor: Actor, vendorId: string): Promise<VendorDetail> {
	const [row] = await deps.database.rows<VendorRow>(sql`${SELECT} where v.id = ${vendorId} and v.workspace_id = ${actor.workspaceId}`)
	if (!row) throw new AppError('NOT_FOUND', 'No vendor with this id')
	return detail((await withFacts(deps, actor, [row]))[0]!)
}

/** What a submission to the vendor needs (other modules check and submit with it). */
export interface SubmissionTarget {
	id: string
	name: string
	method: SubmissionMethod | null
	email: string | null
	portalUrl: string | null
	contactName: string | null
	rules: DocumentRules
}

export async function submissionTarget(deps: AppDeps, workspaceId: string, vendorId: string): Promise<SubmissionTarget | null> {
	const [v] = await deps.db
		.select()
		.from(vendors)
		.where(and(eq(vendors.id, vendorId), eq(vendors.workspaceId, workspaceId)))
	if (!v) return null
	return {
		id: v.id,
		name: v.name,
		method: submissionMethodOf(v),
		email: v.submissionEmail,
		portalUrl: v.submissionPortalUrl,
		contactName: v.contactName,
		rules: cleanRules(v.documentRules),
	}
}

/** The document kinds a submission needs for a candidate with this work authorization, in the spec's order. */
export function requiredDocuments(rules: DocumentRules, workAuthorization: string | null): DocumentKind[] {
	const needed = new Set<string>(rules.always)
	if (workAuthorization) {
		const key = authorizationKey(workAuthorization)
		for (const [k, kinds] of Object.entries(rules.byWorkAuthorization)) if (authorizationKey(k) === key) for (const kind of kinds) needed.add(kind)
	}
	return DOCUMENT_KINDS.filter((k) => needed.has(k))
}

/** Stored rules, with anything unknown dropped (rules are data, kept valid on the way out too). */
function cleanRules(rules: DocumentRules | null | undefined): KnownDocumentRules {
	const kinds = (list: unknown) => DOCUMENT_KINDS.filter((k) => Array.isArray(list) && list.includes(k))
	const by: Record<string, DocumentKind[]> = {}
	for (const [k, v] of Object.entries(rules?.byWorkAuthorization ?? {})) by[authorizationKey(k)] = kinds(v)
	return { always: kinds(rules?.always), byWorkAuthorization: by }
}

/** Parses rules given by an operator; names every problem. */
export function parseRules(value: unknown): DocumentRules {
	const problems: FieldError[] = []
	const kinds = (list: unknown, field: string): DocumentKind[] => {
		if (!Array.isArray(list)) {
			problems.push({ field, message: 'must be a list of document kinds' })
			return []
		}
		for (const k of list) if (!isDocumentKind(k)) problems.push({ field, message: `"${String(k)}" is not a document kind (${DOCUMENT_KINDS.join(', ')})` })
		return DOCUMENT_KINDS.filter((k) => list.includes(k))
	}
	const v = value as { always?: unknown; byWorkAuthorization?: unknown } | null
	if (typeof v !== 'object' || v === null || Array.isArray(v))
		throw invalid([{ field: 'rules', message: 'must be an object {"always": [...], "byWorkAuthorization": {"H1B": [...]}}' }])
	const always = kinds(v.always ?? [], 'rules.always')
	const by: Record<string, string[]> = {}
	const raw = v.byWorkAuthorization ?? {}
	if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
		problems.push({ field: 'rules.byWorkAuthorization', message: 'must be an object keyed by work authorization' })
	else
		for (const [k, list] of Object.entries(raw)) {
			if (!authorizationKey(k) || k.length > 40) problems.push({ field: 'rules.byWorkAuthorization', message: `"${k}" is not a work authorization` })
			else by[authorizationKey(k)] = kinds(list, `rules.byWorkAuthorization.${k}`)
		}
	if (problems.length) throw invalid(problems)
	return { always, byWorkAuthorization: by }
}

export interface VendorProfilePatch {
	contactName?: string | null
	contactEmail?: string | null
	contactPhone?: string | null
	submissionEmail?: string | null
	submissionPortalUrl?: string | null
	documentRules?: DocumentRules
}

const EMAIL_FIELDS = ['contactEmail', 'submissionEmail'] as const

/** The fields an operator types as one line, with their longest length (`typedLine`). */
const LINE_FIELDS: Readonly<Record<string, number>> = { contactName: 120, contactPhone: 40 }

/** A patch's value as stored: one line cleaned (null when empty), an address in its normal form (core/email.ts). */
const storedValue = (field: string, v: unknown) =>
	typeof v !== 'string'
		? v
		: (EMAIL_FIELDS as readonly string[]).includes(field)
			? normalEmail(v) || null
			: Object.hasOwn(LINE_FIELDS, field)
				? typedLine(v, LINE_FIELDS[field]!, { optional: true }).line || null
				: v.trim() || null

/** Sets a vendor's contact, submission method and document rules (operators, through the CLI). */
export async function updateVendorProfile(deps: AppDeps, actor: Actor, vendorId: string, patch: VendorProfilePatch): Promise<VendorDetail> {
	const problems: FieldError[] = []
	for (const [field, max] of Object.entries(LINE_FIELDS)) {
		const v = patch[field as keyof VendorProfilePatch]
		const problem = typeof v === 'string' ? typedLine(v, max, { optional: true }).problem : null
		if (problem) problems.push({ field, message: problem })
	}
	for (const field of EMAIL_FIELDS) {
		const v = patch[field]
		const problem = typeof v === 'string' && v ? emailProblem(normalEmail(v)) : null
		if (problem) problems.push({ field, message: problem })
	}
	if (typeof patch.submissionPortalUrl === 'string' && patch.submissionPortalUrl) {
		try {
			const u = new URL(patch.submissionPortalUrl)
			if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error()
		} catch {
			problems.push({ field: 'submissionPortalUrl', message: 'must be an http:// or https:// address' })
		}
	}
	if (problems.length) throw invalid(problems)
	const values = Object.fromEntries(
		Object.entries(patch)
			.filter(([, v]) => v !== undefined)
			.map(([k, v]) => [k, storedValue(k, v)]),
	)
	await deps.db.transaction(async (tx) => {
		const updated = await tx
			.update(vendors)
			.set(values)
			.where(and(eq(vendors.id, vendorId), eq(vendors.workspaceId, actor.workspaceId)))
			.returning({ id: vendors.id })
		if (!updated.length) throw new AppError('NOT_FOUND', 'No vendor with this id')
		await recordActivity(tx, actor, { action: 'vendor.profile_updated', targetType: 'vendor', targetId: vendorId, detail: { fields: Object.keys(values) } })
	})
	return getVendor(deps, actor, vendorId)
}
