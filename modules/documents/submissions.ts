/**
 * Submitting a candidate to the job's vendor.
 *
 * Rules:
 * - The job must belong to a vendor that takes submissions by e-mail (a portal-only vendor is
 *   submitted to on its portal; we say where).
 * - The vendor's document rules decide what is needed: its `always` kinds plus those for the
 *   candidate's work authorization. `check_vendor_submission` lists what is missing;
 *   `submit_to_vendor` refuses with that same list, refuses chosen kinds that are not on file,
 *   and refuses leaving out a kind the vendor needs.
 * - The e-mail carries the newest file of each chosen kind, the résumé (copied at submission, so a
 *   later résumé change does not alter what was sent) and the note. Candidate contact details are
 *   not sent. One submission per application: a second is refused, even when two race (unique index).
 */
import { and, eq, inArray } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { personAuthor, untrustedLine, type UntrustedText } from '../../core/untrusted.ts'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { Db } from '../../db/client.ts'
import { AppError, invalid } from '../../core/errors.ts'
import { fileStore } from '../../core/files.ts'
import { recordActivity } from '../activity/index.ts'
import { recordEvent } from '../events/index.ts'
import { submissionCreated } from './events.ts'
import { findWorkspace } from '../auth/index.ts'
import { deliveryOutcome, deliveryStates, enqueueMail, type OutboxAttachment } from '../outbox/index.ts'
import {
	DOCUMENT_KINDS,
	DOCUMENT_LABELS,
	isDocumentKind,
	requiredDocuments,
	submissionTarget,
	vendorNames,
	type DocumentKind,
	type SubmissionTarget,
} from '../vendors/index.ts'
import { attachmentName } from './content.ts'
import { inQuotes, plainText } from './requests.ts'
import { currentByKind, documentsOf } from './service.ts'
import { loadApplication, loadCandidate, type ApplicationRef, type Candidate } from './subjects.ts'
import type { VendorSubmissionStatus } from '../candidates/index.ts'
import { applicationOwnResume } from '../candidates/index.ts'
import { vendorSubmissions } from './table.ts'

const labelled = (kinds: DocumentKind[]) => kinds.map((k) => `${k} (${DOCUMENT_LABELS[k]})`).join(', ')

interface Situation {
	app: ApplicationRef
	candidate: Candidate
	vendor: SubmissionTarget
	required: DocumentKind[]
	onFile: DocumentKind[]
	missing: DocumentKind[]
	current: Awaited<ReturnType<typeof currentByKind>>
	existing: typeof vendorSubmissions.$inferSelect | null
}

async function situation(deps: AppDeps, actor: Actor, applicationId: string): Promise<Situation> {
	const app = await loadApplication(deps, actor, applicationId)
	// The résumé sent is the one the application came with, when it came with its own (the candidate was on file with another).
	const own = await applicationOwnResume(deps, actor.workspaceId, app.id)
	const candidate = { ...(await loadCandidate(deps, actor, app.candidateId)), ...own }
	// Messages a model reads are in our words only: names and titles are others' text (core/untrusted.ts).
	if (!app.vendorId) throw new AppError('CONFLICT', 'The application’s job has no vendor: vendor submissions are for jobs a vendor published')
	const vendor = await submissionTarget(deps, actor.workspaceId, app.vendorId)
	if (!vendor) throw new AppError('CONFLICT', 'The application’s job has no vendor')
	const current = currentByKind(await documentsOf(deps, actor.workspaceId, candidate.id))
	const required = requiredDocuments(vendor.rules, candidate.workAuthorization)
	const [existing] = await deps.db
		.select()
		.from(vendorSubmissions)
		.where(and(eq(vendorSubmissions.applicationId, app.id), eq(vendorSubmissions.workspaceId, actor.workspaceId)))
	return {
		app,
		candidate,
		vendor,
		required,
		current,
		onFile: DOCUMENT_KINDS.filter((k) => current.has(k)),
		missing: required.filter((k) => !current.has(k)),
		existing: existing ?? null,
	}
}

const hasResume = (c: Candidate) => Boolean(c.resumePath || c.resumeText)

export interface SubmissionCheck {
	applicationId: string
	candidate: { id: string; name: UntrustedText; workAuthorization: UntrustedText | null }
	job: { id: string; title: UntrustedText }
	vendor: { id: string; name: UntrustedText; submissionMethod: 'email' | 'portal' | null; portalUrl: UntrustedText | null }
	required: DocumentKind[]
	onFile: DocumentKind[]
	missing: DocumentKind[]
	resumeOnFile: boolean
	alreadySubmitted: { submissionId: string; submittedAt: string; documents: DocumentKind[] } | null
	ready: boolean
	/** Plain sentences in our words saying what stands in the way (empty when ready). */
	problems: string[]
}

const vendorLine = (text: string, max = 200) => untrustedLine(text, 'vendor', max)

export async function checkVendorSubmission(deps: AppDeps, actor: Actor, applicationId: string): Promise<SubmissionCheck> {
	const s = await situation(deps, actor, applicationId)
	const problems: string[] = []
	if (s.existing) problems.push(`Already submitted to this vendor on ${s.existing.submittedAt.toISOString().slice(0, 10)}.`)
	if (s.missing.length) problems.push(`Missing documents the vendor needs: ${labelled(s.missing)}. Ask the candidate with request_candidate_documents.`)
	if (!hasResume(s.candidate)) problems.push('No résumé on file.')
	if (s.vendor.method === 'portal') problems.push('The vendor takes submissions on its own portal (vendor.portalUrl), not by e-mail.')
	if (!s.vendor.method) problems.push('The vendor has no submission address yet (an operator sets it with "vendor set-submission").')
	return {
		applicationId: s.app.id,
		candidate: {
			id: s.candidate.id,
			name: untrustedLine(s.candidate.name, 'candidate', 120),
			workAuthorization: untrustedLine(s.candidate.workAuthorization, 'candidate', 60),
		},
		job: { id: s.app.jobId, title: untrustedLine(s.app.jobTitle, s.app.vendorId ? 'vendor' : 'colleague', 200) },
		vendor: {
			id: s.vendor.id,
			name: vendorLine(s.vendor.name),
			submissionMethod: s.vendor.method,
			portalUrl: untrustedLine(s.vendor.portalUrl, 'vendor', 2000),
		},
		required: s.required,
		onFile: s.onFile,
		missing: s.missing,
		resumeOnFile: hasResume(s.candidate),
		alreadySubmitted: s.existing
			? { submissionId: s.existing.id, submittedAt: s.existing.submittedAt.toISOString(), documents: s.existing.documents.filter(isDocumentKind) }
			: null,
		ready: problems.length === 0,
		problems,
	}
}

export interface SubmissionResult {
	id: string
	applicationId: string
	vendor: { id: string; name: UntrustedText }
	/** The vendor's submission address. */
	to: UntrustedText
	documents: DocumentKind[]
	/** File names of the attachments: made from the candidate's name. */
	attachments: UntrustedText[]
	note: string | null
	submittedAt: string
	delivery: 'queued'
}

/** The résumé as an attachment, copied into the submission's own folder. */
async function resumeAttachment(deps: AppDeps, c: Candidate, folder: string): Promise<OutboxAttachment | null> {
	const store = fileStore(deps.config)
	const stored = c.resumePath ? await store.get(c.resumePath).catch(() => null) : null
	if (stored) {
		const ext = (c.resumeFileName?.match(/\.([A-Za-z0-9]{1,5})$/)?.[1] ?? 'pdf').toLowerCase()
		const key = `${folder}/resume.${ext}`
		await store.put(key, stored, c.resumeMime ?? 'application/octet-stream')
		return { filename: attachmentName(c.name, 'Resume', ext), contentType: c.resumeMime ?? 'application/octet-stream', path: key }
	}
	if (c.resumeText) {
		const key = `${folder}/resume.txt`
		await store.put(key, new TextEncoder().encode(c.resumeText), 'text/plain; charset=utf-8')
		return { filename: attachmentName(c.name, 'Resume', 'txt'), contentType: 'text/plain; charset=utf-8', path: key }
	}
	return null
}

/** Longest note to the vendor, in characters (code points): the tool's limit, for every door. */
export const NOTE_MAX = 1000

type SubmissionInput = { applicationId: string; documents: DocumentKind[]; note?: string }

/** The rules a submission must pass, in order; the documents to attach when it does (else an AppError saying why). */
function decideSubmission(s: Situation, input: SubmissionInput): DocumentKind[] {
	const { vendor } = s
	if (input.note && [...input.note].length > NOTE_MAX)
		throw invalid([{ field: 'note', message: `must be at most ${NOTE_MAX.toLocaleString('en-US')} characters` }], 'The note is too long')
	if (s.existing)
		throw new AppError(
			'CONFLICT',
			`The candidate was already submitted to this vendor for this application on ${s.existing.submittedAt.toISOString().slice(0, 10)}; a second submission is not sent`,
		)
	if (s.missing.length)
		throw new AppError(
			'CONFLICT',
			`The candidate is missing documents the vendor needs: ${labelled(s.missing)}. Ask for them with request_candidate_documents, then submit again`,
			{ fields: [{ field: 'documents', message: `missing: ${s.missing.join(', ')}` }] },
		)
	const chosen = DOCUMENT_KINDS.filter((k) => input.documents.includes(k))
	const notOnFile = chosen.filter((k) => !s.current.has(k))
	if (notOnFile.length) throw invalid([{ field: 'documents', message: `not on file: ${labelled(notOnFile)}` }], 'Some chosen documents are not on file')
	const left = s.required.filter((k) => !chosen.includes(k))
	if (left.length)
		throw invalid([{ field: 'documents', message: `the vendor needs these too: ${labelled(left)}` }], 'The vendor needs more documents than were chosen')
	if (vendor.method === 'portal')
		throw new AppError(
			'CONFLICT',
			'The vendor takes submissions on its own portal (its address is in the vendor’s details and in the submission check), not by e-mail',
		)
	if (!vendor.email) throw new AppError('CONFLICT', 'The vendor has no submission address yet; an operator sets it with "vendor set-submission"')
	return chosen
}

/**
 * What a submission would send, to whom, for the person to confirm first (`ToolDef.confirm`):
 * the same rules as the submission itself, and nothing written. Null when it would be refused.
 */
export async function submissionSummary(deps: AppDeps, actor: Actor, input: SubmissionInput): Promise<string | null> {
	const s = await situation(deps, actor, input.applicationId)
	let chosen: DocumentKind[]
	try {
		chosen = decideSubmission(s, input)
	} catch {
		return null
	}
	const documents = chosen.length ? ` and ${chosen.map((k) => DOCUMENT_LABELS[k]).join(', ')}` : ''
	const note = input.note ? ` Your note: “${plainText(input.note)}”` : ''
	return `Send the résumé${documents} of ${inQuotes(s.candidate.name)} for ${inQuotes(s.app.jobTitle)} to ${inQuotes(s.vendor.name)} at ${s.vendor.email}?${note}`
}

/** The résumé (copied into the submission's folder) and the newest file of each chosen kind, as attachments. */
async function submissionAttachments(deps: AppDeps, s: Situation, chosen: DocumentKind[], folder: string) {
	const resume = await resumeAttachment(deps, s.candidate, folder)
	if (!resume) throw new AppError('CONFLICT', 'The candidate has no résumé on file; add one before submitting')
	const docs = chosen.map((k) => s.current.get(k)!)
	const attachments: OutboxAttachment[] = [
		resume,
		...docs.map((d) => ({
			filename: attachmentName(s.candidate.name, DOCUMENT_LABELS[d.kind], d.storageKey.split('.').pop() ?? 'pdf'),
			contentType: d.contentType,
			path: d.storageKey,
		})),
	]
	return { resume, documentIds: docs.map((d) => d.id), attachments }
}

/** The e-mail to the vendor: no contact details of the candidate, the note when there is one. */
function submissionMail(actor: Actor, s: Situation, chosen: DocumentKind[], note: string, firm: string) {
	const { vendor, candidate, app } = s
	const reference = app.vendorJobId ? ` (your reference ${app.vendorJobId})` : ''
	const text = [
		`Hello ${vendor.contactName ?? `${vendor.name} team`},`,
		'',
		`Please find attached our submission of ${candidate.name} for ${app.jobTitle}${reference}.`,
		...(note ? ['', note] : []),
		'',
		`Work authorization: ${candidate.workAuthorization ?? 'not stated'}`,
		`Attached: ${['Résumé', ...chosen.map((k) => DOCUMENT_LABELS[k])].join(', ')}`,
		'',
		`— ${actor.name}, ${firm}`,
	].join('\n')
	return { subject: `Candidate submission: ${candidate.name} for ${app.jobTitle}${app.vendorJobId ? ` [${app.vendorJobId}]` : ''}`, text }
}

interface SubmissionWrite {
	id: string
	chosen: DocumentKind[]
	note: string
	documentIds: string[]
	attachments: OutboxAttachment[]
	mail: { subject: string; text: string }
}

/**
 * Write and notify, in one transaction: the mail to the vendor, the submission (unique per
 * application), the activity line and the event. Lost a race with another submission of the same
 * application: nothing is kept, the mail included.
 */
async function writeSubmission(tx: Db, deps: AppDeps, actor: Actor, s: Situation, w: SubmissionWrite) {
	const { vendor, candidate, app } = s
	const mail = await enqueueMail(
		tx,
		{
			workspaceId: actor.workspaceId,
			to: vendor.email!,
			...w.mail,
			attachments: w.attachments,
			related: { type: 'application', id: app.id },
			recipient: { type: 'vendor', id: vendor.id },
			sentBy: actor.userId,
		},
		deps,
	)
	const [row] = await tx
		.insert(vendorSubmissions)
		.values({
			id: w.id,
			workspaceId: actor.workspaceId,
			applicationId: app.id,
			candidateId: candidate.id,
			jobId: app.jobId,
			vendorId: vendor.id,
			documents: w.chosen,
			documentIds: w.documentIds,
			note: w.note || null,
			toAddress: vendor.email!,
			outboxId: mail.id,
			submittedByUserId: actor.userId,
			submittedByName: actor.name,
			submittedAt: deps.now(),
		})
		.onConflictDoNothing()
		.returning({ submittedAt: vendorSubmissions.submittedAt })
	if (!row) throw new AppError('CONFLICT', 'The candidate was already submitted to this vendor for this application; a second submission is not sent')
	await recordActivity(tx, actor, {
		action: 'application.submitted_to_vendor',
		targetType: 'application',
		targetId: app.id,
		detail: { submissionId: w.id, vendorId: vendor.id, to: vendor.email, documents: w.chosen },
	})
	await recordEvent(tx, submissionCreated, actor, {
		submissionId: w.id,
		applicationId: app.id,
		candidateId: candidate.id,
		jobId: app.jobId,
		vendorId: vendor.id,
		documents: w.chosen,
	})
	return row
}

/** The workflow: read the situation, decide (`decideSubmission`), gather the attachments, then write and notify. */
export async function submitToVendor(deps: AppDeps, actor: Actor, input: SubmissionInput): Promise<SubmissionResult> {
	const s = await situation(deps, actor, input.applicationId)
	const chosen = decideSubmission(s, input)
	const id = newId('sub')
	const { resume, documentIds, attachments } = await submissionAttachments(deps, s, chosen, `submissions/${actor.workspaceId}/${id}`)
	const note = input.note ? plainText(input.note) : ''
	const firm = (await findWorkspace(deps.db, actor.workspaceSlug))?.name ?? actor.workspaceSlug
	const mail = submissionMail(actor, s, chosen, note, firm)
	let result: { submittedAt: Date }
	try {
		result = await deps.db.transaction((tx) => writeSubmission(tx, deps, actor, s, { id, chosen, note, documentIds, attachments, mail }))
	} catch (error) {
		await fileStore(deps.config)
			.delete(resume.path)
			.catch(() => {})
		throw error
	}
	return {
		id,
		applicationId: s.app.id,
		vendor: { id: s.vendor.id, name: vendorLine(s.vendor.name) },
		to: vendorLine(s.vendor.email!, 254),
		documents: chosen,
		attachments: attachments.map((a) => untrustedLine(a.filename, 'candidate', 200)),
		note: note || null,
		submittedAt: result.submittedAt.toISOString(),
		delivery: 'queued',
	}
}

/** The `applicationDetails` contribution: `vendorSubmission` for every application asked about (null when not submitted). */
export async function submissionDetails(
	deps: AppDeps,
	actor: Actor,
	applicationIds: string[],
): Promise<Map<string, { vendorSubmission: VendorSubmissionStatus | null }>> {
	const out = new Map<string, { vendorSubmission: VendorSubmissionStatus | null }>(applicationIds.map((id) => [id, { vendorSubmission: null }]))
	if (!applicationIds.length) return out
	const rows = await deps.db
		.select()
		.from(vendorSubmissions)
		.where(and(eq(vendorSubmissions.workspaceId, actor.workspaceId), inArray(vendorSubmissions.applicationId, [...new Set(applicationIds)])))
	if (!rows.length) return out
	const [states, names] = await Promise.all([
		deliveryStates(
			deps.db,
			rows.flatMap((r) => (r.outboxId ? [r.outboxId] : [])),
		),
		vendorNames(
			deps,
			rows.map((r) => r.vendorId),
		),
	])
	const seesDocuments = deps.permissions.can(actor, 'documents:read')
	for (const r of rows) {
		const state = r.outboxId ? states.get(r.outboxId)?.status : undefined
		const status: VendorSubmissionStatus = {
			status: 'submitted',
			delivery: deliveryOutcome(state),
			submittedAt: r.submittedAt.toISOString(),
			// The name the person had when they submitted (a snapshot): another person's words.
			submittedBy: untrustedLine(r.submittedByName, personAuthor(r.submittedByUserId, actor), 120),
			vendor: { id: r.vendorId, name: names.get(r.vendorId) ?? vendorLine('') },
		}
		if (seesDocuments) status.documents = r.documents
		out.set(r.applicationId, { vendorSubmission: status })
	}
	return out
}
