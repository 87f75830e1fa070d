/**
 * Applying on the careers site.
 *
 * Rules:
 * - Name, e-mail, phone and a résumé are required; the résumé is a PDF or a Word (.docx) file of at
 *   most 10 MB, recognised by its content; required screening questions need an answer, yes/no
 *   questions take yes or no. Every problem is reported at once, by field (`VALIDATION`).
 * - One candidate per e-mail address per workspace: applying again updates their name, phone and
 *   résumé (the newest résumé wins) and keeps where they first came from.
 * - One application per candidate and job: a second one is a `CONFLICT` and changes nothing.
 * - The résumé is read in a child process bounded in memory and time (`resume-file.ts`): a file over a
 *   reading limit is a `VALIDATION` error on the résumé naming the limit; a damaged or unreadable file
 *   is one asking for a PDF; when every reader is busy the application is `UNAVAILABLE` (retry).
 * - The application starts in the pipeline's first stage, with the résumé check run at once; the
 *   candidate gets a confirmation e-mail through the outbox, in the same transaction.
 * - The result carries everything the careers analytics event needs.
 */
import type { Db } from '../../db/client.ts'
import { sql } from 'drizzle-orm'
import { operatorActor } from '../auth/index.ts'
import type { Actor } from '../../core/actor.ts'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, invalid, type FieldError } from '../../core/errors.ts'
import type { WorkspaceRef } from '../../core/module.ts'
import { cleanLine, cleanText } from '../../core/untrusted.ts'
import { recordActivity } from '../activity/index.ts'
import { recordEvent } from '../events/index.ts'
import { applicationCreated, candidateCreated } from './events.ts'
import { jobQuestionsOf, type JobQuestion } from '../jobs/index.ts'
import { enqueueMail } from '../outbox/index.ts'
import { refreshChecks } from './recheck.ts'
import { checkResume } from './resume-check.ts'
import {
	deleteResume,
	detectResumeType,
	extractResumeText,
	MAX_RESUME_BYTES,
	RESUME_MIME,
	ResumeOverLimit,
	ResumeReadersBusy,
	storeResume,
	UnreadableResume,
} from './resume-file.ts'
import { ensureStages } from './stages.ts'

export interface ApplyInput {
	workspace: WorkspaceRef & { name: string }
	job: { id: string; title: string; status: string; mustHave: string[] | null }
	name: string
	email: string
	phone: string
	resume: { bytes: Uint8Array; fileName: string } | null
	/** Answers by question id. */
	answers: Record<string, string>
	/** Where the applicant came from (utm_source or referrer host), when known. */
	source?: string
	/**
	 * Written in the application's own transaction once it exists (the careers site's voluntary
	 * self-identification, kept by the eeo module apart from the application).
	 */
	alongside?: (tx: Db, application: { workspaceId: string; applicationId: string; candidateId: string; jobId: string }) => Promise<void>
}

/** What the careers analytics event of an application needs. */
export interface ApplicationEvent {
	type: 'application'
	workspaceId: string
	jobId: string
	applicationId: string
	candidateId: string
	newCandidate: boolean
	source: string
	at: string
}

const EMAIL = /^[^\s@<>()",;:\u0000-\u001f\u007f]+@[^\s@<>()",;:\u0000-\u001f\u007f]+\.[^\s@<>()",;:\u0000-\u001f\u007f]+$/
const PHONE = /^[0-9+()\-. ]{7,30}$/
const MAX_ANSWER = 2000
/** When every résumé reader is busy: a reading takes seconds, so half a minute lets the queue clear. */
const READERS_BUSY_RETRY_SECONDS = 30

function validate(input: ApplyInput, questions: JobQuestion[]): FieldError[] {
	const errors: FieldError[] = []
	const name = cleanLine(input.name, 500)
	if (!name) errors.push({ field: 'name', message: 'Enter your name' })
	else if ([...name].length > 120) errors.push({ field: 'name', message: 'Your name must be at most 120 characters' })
	const email = input.email.trim().toLowerCase()
	if (!EMAIL.test(email) || email.length > 254) errors.push({ field: 'email', message: 'Enter an e-mail address like name@example.com' })
	const phone = input.phone.trim()
	const digits = phone.replace(/\D/g, '').length
	if (!phone) errors.push({ field: 'phone', message: 'Enter a phone number' })
	else if (!PHONE.test(phone) || digits < 7 || digits > 15)
		errors.push({ field: 'phone', message: 'Enter a phone number of 7 to 15 digits, like +1 512 555 0100' })
	if (!input.resume || input.resume.bytes.length === 0) errors.push({ field: 'resume', message: 'Attach your résumé (PDF or Word .docx)' })
	else if (input.resume.bytes.length > MAX_RESUME_BYTES) errors.push({ field: 'resume', message: 'Your résumé must be at most 10 MB' })
	else if (!detectResumeType(input.resume.bytes)) errors.push({ field: 'resume', message: 'Your résumé must be a PDF or a Word (.docx) file' })
	for (const q of questions) {
		const answer = (input.answers[q.id] ?? '').trim()
		if (!answer) {
			if (q.required) errors.push({ field: `answer_${q.id}`, message: `Answer “${q.prompt}”` })
		} else if (q.kind === 'yes_no' && answer !== 'yes' && answer !== 'no')
			errors.push({ field: `answer_${q.id}`, message: `Answer “${q.prompt}” with yes or no` })
		else if ([...answer].length > MAX_ANSWER)
			errors.push({ field: `answer_${q.id}`, message: `Keep your answer to “${q.prompt}” under ${MAX_ANSWER} characters` })
	}
	return errors
}

class Duplicate extends Error {}

/** The actor recorded in the activity log for what applicants do on the careers site. */
function careersActor(ws: WorkspaceRef, name: string): Actor {
	return { ...operatorActor(ws), role: 'viewer', name, credential: { kind: 'careers_form', id: '', name: 'careers apply form' } }
}

export async function applyToJob(deps: AppDeps, input: ApplyInput): Promise<ApplicationEvent> {
	if (input.job.status !== 'Open') throw new AppError('CONFLICT', 'This job is no longer open.')
	const questions = await jobQuestionsOf(deps, input.job.id)
	// Control characters (NUL included) never reach the database: answers are cleaned, not refused.
	input = { ...input, phone: cleanLine(input.phone, 100), answers: Object.fromEntries(Object.entries(input.answers).map(([k, v]) => [k, cleanText(v)])) }
	const errors = validate(input, questions)
	if (errors.length) throw invalid(errors, 'Some answers need your attention')
	const ws = input.workspace
	const name = cleanLine(input.name, 120)
	const email = input.email.trim().toLowerCase()
	const phone = input.phone.trim()
	const bytes = input.resume!.bytes
	const type = detectResumeType(bytes)!

	const [existing] = await deps.database.rows<{ id: string }>(
		sql`select a.id from applications a join candidates c on c.id = a.candidate_id where c.workspace_id = ${ws.id} and c.email = ${email} and a.job_id = ${input.job.id}`,
	)
	if (existing) throw new AppError('CONFLICT', 'You have already applied for this job.')
	let text: string
	try {
		text = await extractResumeText(deps, bytes, type)
	} catch (error) {
		if (error instanceof ResumeOverLimit)
			throw invalid([{ field: 'resume', message: `Your résumé is over our limit: ${error.message}. Save it as a smaller PDF and retry` }])
		if (error instanceof UnreadableResume)
			throw invalid([
				{
					field: 'resume',
					message: error.detail
						? `We could not read your résumé: ${error.detail}. Save it again as a PDF and retry`
						: 'We could not read your résumé; save it again as a PDF and retry',
				},
			])
		if (error instanceof ResumeReadersBusy)
			throw new AppError('UNAVAILABLE', 'We are reading many résumés right now.', { retryAfter: READERS_BUSY_RETRY_SECONDS })
		throw error
	}

	const key = await storeResume(deps, ws.id, bytes, type)
	const source = cleanLine(input.source ?? '', 80) || 'careers'
	const applicationId = newId('app')
	const now = deps.now()
	const check = checkResume(text, input.job.mustHave ?? [], now)
	const fileName = cleanLine(input.resume!.fileName || `resume.${type}`, 160)
	try {
		const result = await deps.db.transaction(async (tx) => {
			await ensureStages(tx, ws.id)
			const [first] = await deps.database.rows<{ key: string }>(
				sql`select key from pipeline_stages where workspace_id = ${ws.id} order by position limit 1`,
				tx,
			)
			const [candidate] = await deps.database.rows<{ id: string; inserted: boolean }>(
				sql`insert into candidates (id, workspace_id, name, email, phone, resume_file_name, resume_mime, resume_path, resume_text, source)
				values (${newId('cand')}, ${ws.id}, ${name}, ${email}, ${phone}, ${fileName}, ${RESUME_MIME[type]}, ${key}, ${text}, 'careers')
				on conflict (workspace_id, email) do update set name = excluded.name, phone = excluded.phone, resume_file_name = excluded.resume_file_name, resume_mime = excluded.resume_mime,
					resume_path = excluded.resume_path, resume_text = excluded.resume_text, updated_at = now()
				returning id, (xmax = 0) as inserted`,
				tx,
			)
			const inserted = await deps.database.rows<{ id: string }>(
				sql`insert into applications (id, workspace_id, candidate_id, job_id, stage_key, kind, source, resume_check, resume_score)
				values (${applicationId}, ${ws.id}, ${candidate!.id}, ${input.job.id}, ${first!.key}, 'applicant', ${source}, ${JSON.stringify(check)}::jsonb, ${check.score})
				on conflict (candidate_id, job_id) do nothing returning id`,
				tx,
			)
			if (!inserted.length) throw new Duplicate()
			for (const q of questions) {
				const answer = (input.answers[q.id] ?? '').trim()
				if (answer) await tx.execute(sql`insert into application_answers (application_id, question_id, answer) values (${applicationId}, ${q.id}, ${answer})`)
			}
			await input.alongside?.(tx, { workspaceId: ws.id, applicationId, candidateId: candidate!.id, jobId: input.job.id })
			const actor = careersActor(ws, name)
			await recordActivity(tx, actor, {
				action: 'application.received',
				targetType: 'application',
				targetId: applicationId,
				detail: { jobId: input.job.id, candidateId: candidate!.id, source },
			})
			if (candidate!.inserted) await recordEvent(tx, candidateCreated, actor, { candidateId: candidate!.id })
			await recordEvent(tx, applicationCreated, actor, { applicationId, candidateId: candidate!.id, jobId: input.job.id, stage: first!.key })
			const title = cleanLine(input.job.title, 150)
			await enqueueMail(
				tx,
				{
					workspaceId: ws.id,
					to: email,
					subject: `We received your application: ${title}`,
					text: `Hello ${name},\n\nThank you for applying for ${title} at ${cleanLine(ws.name, 120)}. We have your résumé and will be in touch if your profile matches what the client needs.\n\n${cleanLine(ws.name, 120)} recruiting team\n`,
					related: { type: 'application', id: applicationId },
					recipient: { type: 'candidate', id: candidate!.id },
				},
				deps,
			)
			return { candidateId: candidate!.id, newCandidate: Boolean(candidate!.inserted) }
		})
		// The résumé changed: the candidate's other applications are re-checked against it.
		if (!result.newCandidate) {
			const others = await deps.database.rows<{ id: string }>(
				sql`select id from applications where candidate_id = ${result.candidateId} and id <> ${applicationId}`,
			)
			await refreshChecks(deps, ws.id, { applicationIds: others.map((o) => o.id) })
		}
		return {
			type: 'application',
			workspaceId: ws.id,
			jobId: input.job.id,
			applicationId,
			candidateId: result.candidateId,
			newCandidate: result.newCandidate,
			source,
			at: now.toISOString(),
		}
	} catch (error) {
		await deleteResume(deps, key)
		if (error instanceof Duplicate) throw new AppError('CONFLICT', 'You have already applied for this job.')
		throw error
	}
}
