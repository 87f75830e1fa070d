/**
 * Applying on the careers site.
 *
 * Rules:
 * - Name, e-mail, phone and a résumé are required; the résumé is a PDF or a Word (.docx) file of at
 *   most 10 MB, recognised by its content; required screening questions need an answer, yes/no
 *   questions take yes or no. Every problem is reported at once, by field (`VALIDATION`).
 * - One candidate per e-mail address per workspace, the address in its normal form (core/email.ts:
 *   `ann@Bücher.example` and `ann@xn--bcher-kva.example` are one address; a domain with no ASCII form
 *   is refused). Anyone can type an address, so applying with one already on file changes nothing the
 *   firm holds: the name, the phone and the résumé on file stay (a missing phone or résumé is filled
 *   in), and a résumé sent with it is kept with the application (checked against the job, shown on
 *   the application's page) rather than on the candidate.
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
import { emailProblem, normalEmail } from '../../core/email.ts'
import type { AddressColumn } from '../../core/stored-addresses.ts'
import { AppError, invalid, type FieldError } from '../../core/errors.ts'
import type { WorkspaceRef } from '../../core/module.ts'
import { cleanFileName } from '../../core/file-name.ts'
import { cleanLine, fileText, isBlank } from '../../core/untrusted.ts'
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
	type ResumeType,
	storeResume,
	UnreadableResume,
} from './resume-file.ts'
import { ensureStages } from './stages.ts'
import { candidates } from './table.ts'

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

/**
 * Candidates' addresses: one stored before addresses had a normal form (`ann@bücher.example`) is
 * rewritten in it at start (core/stored-addresses.ts), so applying again in either spelling finds it.
 */
export const candidateAddresses: AddressColumn = { table: candidates, id: candidates.id, address: candidates.email }

const PHONE = /^[0-9+()\-. ]{7,30}$/
const MAX_ANSWER = 2000
/** When every résumé reader is busy: a reading takes seconds, so half a minute lets the queue clear. */
const READERS_BUSY_RETRY_SECONDS = 30

function validate(input: ApplyInput, questions: JobQuestion[]): FieldError[] {
	const errors: FieldError[] = []
	const name = cleanLine(input.name, 500)
	if (!name || isBlank(name)) errors.push({ field: 'name', message: 'Enter your name' })
	else if ([...name].length > 120) errors.push({ field: 'name', message: 'Your name must be at most 120 characters' })
	const emailWrong = emailProblem(normalEmail(input.email), 'Enter an e-mail address like name@example.com')
	if (emailWrong) errors.push({ field: 'email', message: emailWrong })
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

/** An application checked: the applicant's details cleaned, the résumé's bytes and type. */
interface Applicant {
	name: string
	email: string
	phone: string
	bytes: Uint8Array
	type: ResumeType
	fileName: string
	source: string
	/** Cleaned answers by question id. */
	answers: Record<string, string>
}

/**
 * Validate: every problem at once, by field. What is no text is cleaned, not refused, from every text
 * stored (`fileText`: control and invisible characters, NUL included, and noncharacters such as
 * U+FFFE, which the CSV exports, the ZIP of a person's data and XML readers refuse or show as garbage);
 * the résumé's name is made a file name (`cleanFileName`).
 */
function checkApplicant(input: ApplyInput, questions: JobQuestion[]): Applicant {
	const cleaned = {
		...input,
		name: fileText(input.name),
		phone: cleanLine(fileText(input.phone), 100),
		answers: Object.fromEntries(Object.entries(input.answers).map(([k, v]) => [k, fileText(v)])),
	}
	const errors = validate(cleaned, questions)
	if (errors.length) throw invalid(errors, 'Some answers need your attention')
	const bytes = cleaned.resume!.bytes
	const type = detectResumeType(bytes)!
	return {
		name: cleanLine(cleaned.name, 120),
		email: normalEmail(cleaned.email),
		phone: cleaned.phone.trim(),
		bytes,
		type,
		fileName: cleanFileName(cleaned.resume!.fileName, `resume.${type}`, 160),
		source: cleanLine(fileText(cleaned.source ?? ''), 80) || 'careers',
		answers: cleaned.answers,
	}
}

/** The résumé's text, read in a bounded child process; its failures said in the applicant's words. */
async function readResume(deps: AppDeps, applicant: Applicant): Promise<string> {
	try {
		return await extractResumeText(deps, applicant.bytes, applicant.type)
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
}

interface NewApplication {
	id: string
	resumeKey: string
	text: string
	check: ReturnType<typeof checkResume>
}

/**
 * Write: the candidate (one per e-mail address: one on file keeps what is on file), the application in
 * the pipeline's first stage (a second one for the same job is a `Duplicate`), the answers, and
 * what is written alongside (`ApplyInput.alongside`).
 */
async function writeApplication(tx: Db, deps: AppDeps, input: ApplyInput, applicant: Applicant, questions: JobQuestion[], app: NewApplication) {
	const ws = input.workspace
	await ensureStages(tx, ws.id)
	const [first] = await deps.database.rows<{ key: string }>(sql`select key from pipeline_stages where workspace_id = ${ws.id} order by position limit 1`, tx)
	// An address already on file keeps what is on file (anyone can type it): only what is missing is
	// filled in. The résumé goes on the candidate when they had none, else with the application.
	const noResume = sql.raw('candidates.resume_path is null and candidates.resume_text is null')
	const [candidate] = await deps.database.rows<{ id: string; name: string; inserted: boolean; resumeOnProfile: boolean }>(
		sql`insert into candidates (id, workspace_id, name, email, phone, resume_file_name, resume_mime, resume_path, resume_text, source)
				values (${newId('cand')}, ${ws.id}, ${applicant.name}, ${applicant.email}, ${applicant.phone}, ${applicant.fileName}, ${RESUME_MIME[applicant.type]}, ${app.resumeKey}, ${app.text}, 'careers')
				on conflict (workspace_id, email) do update set phone = coalesce(nullif(candidates.phone, ''), excluded.phone),
					resume_file_name = case when ${noResume} then excluded.resume_file_name else candidates.resume_file_name end,
					resume_mime = case when ${noResume} then excluded.resume_mime else candidates.resume_mime end,
					resume_text = case when ${noResume} then excluded.resume_text else candidates.resume_text end,
					resume_path = case when ${noResume} then excluded.resume_path else candidates.resume_path end, updated_at = now()
				returning id, name, (xmax = 0) as inserted, resume_path = ${app.resumeKey} as "resumeOnProfile"`,
		tx,
	)
	const own = candidate!.resumeOnProfile
		? { fileName: null, mime: null, path: null, text: null }
		: { fileName: applicant.fileName, mime: RESUME_MIME[applicant.type], path: app.resumeKey, text: app.text }
	const inserted = await deps.database.rows<{ id: string }>(
		sql`insert into applications (id, workspace_id, candidate_id, job_id, stage_key, kind, source, resume_check, resume_score, resume_file_name, resume_mime, resume_path, resume_text)
				values (${app.id}, ${ws.id}, ${candidate!.id}, ${input.job.id}, ${first!.key}, 'applicant', ${applicant.source}, ${JSON.stringify(app.check)}::jsonb, ${app.check.score},
					${own.fileName}, ${own.mime}, ${own.path}, ${own.text})
				on conflict (candidate_id, job_id) do nothing returning id`,
		tx,
	)
	if (!inserted.length) throw new Duplicate()
	for (const q of questions) {
		const answer = (applicant.answers[q.id] ?? '').trim()
		if (answer) await tx.execute(sql`insert into application_answers (application_id, question_id, answer) values (${app.id}, ${q.id}, ${answer})`)
	}
	await input.alongside?.(tx, { workspaceId: ws.id, applicationId: app.id, candidateId: candidate!.id, jobId: input.job.id })
	return {
		candidateId: candidate!.id,
		/** The name on file: the one typed, for a new candidate. */
		name: candidate!.name,
		newCandidate: Boolean(candidate!.inserted),
		stage: first!.key,
		/** A candidate on file who had no résumé got this one: their other applications are checked again. */
		resumeFilledIn: Boolean(candidate!.resumeOnProfile) && !candidate!.inserted,
	}
}

/** Notify, in the same transaction: the activity line, the events, and the confirmation e-mail to the applicant. */
async function notifyApplication(
	tx: Db,
	deps: AppDeps,
	input: ApplyInput,
	applicant: Applicant,
	written: { applicationId: string; candidateId: string; name: string; newCandidate: boolean; stage: string },
) {
	const ws = input.workspace
	const { applicationId, candidateId } = written
	const actor = careersActor(ws, applicant.name)
	await recordActivity(tx, actor, {
		action: 'application.received',
		targetType: 'application',
		targetId: applicationId,
		detail: { jobId: input.job.id, candidateId, source: applicant.source },
	})
	if (written.newCandidate) await recordEvent(tx, candidateCreated, actor, { candidateId })
	await recordEvent(tx, applicationCreated, actor, { applicationId, candidateId, jobId: input.job.id, stage: written.stage })
	const title = cleanLine(input.job.title, 150)
	const firm = cleanLine(ws.name, 120)
	await enqueueMail(
		tx,
		{
			workspaceId: ws.id,
			to: applicant.email,
			subject: `We received your application: ${title}`,
			// The address's owner is greeted by the name on file (the form's is anyone's to type).
			text: `Hello ${written.name},\n\nThank you for applying for ${title} at ${firm}. We have your résumé and will be in touch if your profile matches what the client needs.\n\n${firm} recruiting team\n`,
			related: { type: 'application', id: applicationId },
			recipient: { type: 'candidate', id: candidateId },
		},
		deps,
	)
}

/** The candidate's résumé was filled in: their other applications are re-checked against it. */
async function recheckOtherApplications(deps: AppDeps, workspaceId: string, candidateId: string, applicationId: string) {
	const others = await deps.database.rows<{ id: string }>(sql`select id from applications where candidate_id = ${candidateId} and id <> ${applicationId}`)
	await refreshChecks(deps, workspaceId, { applicationIds: others.map((o) => o.id) })
}

/** The workflow: validate, read the résumé, write and notify in one transaction, then re-check the candidate's other applications. */
export async function applyToJob(deps: AppDeps, input: ApplyInput): Promise<ApplicationEvent> {
	if (input.job.status !== 'Open') throw new AppError('CONFLICT', 'This job is no longer open.')
	const questions = await jobQuestionsOf(deps, input.job.id)
	const applicant = checkApplicant(input, questions)
	const ws = input.workspace
	const [existing] = await deps.database.rows<{ id: string }>(
		sql`select a.id from applications a join candidates c on c.id = a.candidate_id where c.workspace_id = ${ws.id} and c.email = ${applicant.email} and a.job_id = ${input.job.id}`,
	)
	if (existing) throw new AppError('CONFLICT', 'You have already applied for this job.')
	const text = await readResume(deps, applicant)
	const resumeKey = await storeResume(deps, ws.id, applicant.bytes, applicant.type)
	const now = deps.now()
	const app: NewApplication = { id: newId('app'), resumeKey, text, check: checkResume(text, input.job.mustHave ?? [], now) }
	try {
		const result = await deps.db.transaction(async (tx) => {
			const written = await writeApplication(tx, deps, input, applicant, questions, app)
			await notifyApplication(tx, deps, input, applicant, { applicationId: app.id, ...written })
			return written
		})
		if (result.resumeFilledIn) await recheckOtherApplications(deps, ws.id, result.candidateId, app.id)
		return {
			type: 'application',
			workspaceId: ws.id,
			jobId: input.job.id,
			applicationId: app.id,
			candidateId: result.candidateId,
			newCandidate: result.newCandidate,
			source: applicant.source,
			at: now.toISOString(),
		}
	} catch (error) {
		await deleteResume(deps, resumeKey)
		if (error instanceof Duplicate) throw new AppError('CONFLICT', 'You have already applied for this job.')
		throw error
	}
}
