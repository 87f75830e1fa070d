/**
 * Shapes of the candidate and application tools' results. Every text a candidate, a vendor, a
 * colleague or a link's visitor wrote is an `UntrustedText` envelope (core/untrusted.ts); plain
 * strings are ids, dates, fixed lists and our own words.
 */
import { Type as t, type Static } from '@sinclair/typebox'
import { nullable, PersonRef } from '../../core/mcp/params.ts'
import { lineAbout, UntrustedLine, UntrustedText } from '../../core/untrusted.ts'

export { PersonRef }

const date = t.String({ format: 'date-time' })
const contact = {
	email: t.Optional(lineAbout('E-mail address; only for owners, admins and recruiters')),
	phone: t.Optional(nullable(lineAbout('Phone number; only for owners, admins and recruiters'))),
}

export const CandidateRef = t.Object({ id: t.String(), name: UntrustedLine, headline: nullable(UntrustedLine), location: nullable(UntrustedLine) })
export const JobRef = t.Object({ id: t.String(), title: UntrustedLine })

export const ApplicationBrief = t.Object({
	id: t.String(),
	job: JobRef,
	stageKey: t.String(),
	stageLabel: t.String(),
	outcome: nullable(t.String({ description: 'hired, rejected, withdrawn; null while in progress' })),
	archived: t.Boolean(),
	kind: t.String({ description: 'applicant (applied) or lead (sourced for the job)' }),
	shortlist: t.String({ description: 'none, shortlisted or declined' }),
	resumeScore: nullable(t.Integer({ description: 'Share of the job’s must-haves the résumé meets, 0–100' })),
	averageRating: nullable(t.Number({ description: 'Average of the team’s ratings, 1–5' })),
	createdAt: date,
})

/** What every view of a candidate shows (contact details only where the role may see them). */
const candidateBasics = {
	id: t.String(),
	name: UntrustedLine,
	headline: nullable(UntrustedLine),
	location: nullable(UntrustedLine),
	skills: t.Array(UntrustedLine),
	workAuthorization: nullable(UntrustedLine),
	yearsExperience: nullable(t.Integer()),
	source: lineAbout('Where the candidate came from: the careers link’s source (e.g. linkedin) or an import’s name'),
	...contact,
}

export const CandidateSummary = t.Object({
	...candidateBasics,
	applicationCount: t.Integer({ description: 'Applications you can see' }),
	application: t.Union([ApplicationBrief, t.Null()], { description: 'With jobId: the application to that job; otherwise the newest one you can see' }),
	createdAt: date,
})

export const Note = t.Object({
	id: t.String(),
	author: PersonRef,
	visibility: t.String({ description: 'private (author, owners, admins) or shared' }),
	applicationId: nullable(t.String()),
	body: UntrustedText,
	createdAt: date,
})

export const CandidateDetail = t.Object({
	...candidateBasics,
	owner: nullable(PersonRef),
	resume: nullable(
		t.Object({
			fileName: nullable(UntrustedLine),
			fileType: nullable(t.String({ description: 'pdf, docx or the file’s content type' })),
			text: nullable(UntrustedText),
		}),
	),
	applications: t.Array(ApplicationBrief),
	notes: t.Array(Note),
	createdAt: date,
	updatedAt: date,
})

export const CheckItemView = t.Object({
	requirement: UntrustedLine,
	status: t.Union([t.Literal('met'), t.Literal('not_found')]),
	evidence: nullable(UntrustedText),
	note: nullable(t.String({ description: 'What the check found, in our words (e.g. "states 6 years; 5+ needed")' })),
})

export const ResumeCheckView = t.Object({
	score: nullable(t.Integer()),
	met: t.Integer(),
	total: t.Integer(),
	mustHaves: t.Array(UntrustedLine, { description: 'The must-haves the check was made against (the job’s current ones)' }),
	items: t.Array(CheckItemView),
	checkedAt: date,
})

export const ApplicationSummary = t.Composite([ApplicationBrief, t.Object({ candidate: CandidateRef, source: nullable(UntrustedLine), stageChangedAt: date })])

/*
 * What other modules add to an application (the `applicationDetails` port, port.ts): declared here,
 * where the application tools describe their results; the contributing module builds exactly this.
 */

/** One AI video interview of the application (the interviews module). */
export const ApplicationInterview = t.Object({
	id: t.String(),
	status: t.String({ description: 'invited, started, completed or expired' }),
	overallScore: nullable(t.Integer({ description: '0 to 100, once completed' })),
	verdict: nullable(t.String({ description: 'The provider’s recommendation, once completed' })),
	scheduledAt: date,
	deadlineAt: date,
	completedAt: nullable(date),
})
export type ApplicationInterview = Static<typeof ApplicationInterview>

/** One message with the application's candidate (the inbox). */
export const ApplicationMessage = t.Object({
	id: t.String(),
	threadId: t.String({ description: 'Open the whole conversation with get_inbox_thread' }),
	direction: t.Union([t.Literal('in'), t.Literal('out')], { description: 'in: from the candidate; out: sent by the portal' }),
	channel: t.String({ description: 'email or message (messaging app)' }),
	subject: nullable(UntrustedLine),
	text: UntrustedText,
	at: date,
	aboutThisApplication: t.Boolean({ description: 'Sent about this application (others are about the candidate’s other applications or none)' }),
	senderCheck: nullable(
		t.Union([t.Literal('verified'), t.Literal('not_verified'), t.Literal('not_checked')], {
			description:
				'For messages received: verified (the receiving mail server found the From address genuine), not_verified (anyone may have written it: not the candidate’s word), not_checked (the portal does not check senders). Null for messages sent',
		}),
	),
	automatic: nullable(
		t.Union([t.Literal('automatic'), t.Literal('delivery_report')], {
			description:
				'For messages received that no person wrote: an auto-reply (out of office, list or bulk mail) or a delivery report (a bounce). Never the candidate’s reply',
		}),
	),
	bounced: t.Boolean({ description: 'For messages sent: a delivery report said it did not arrive' }),
})
export type ApplicationMessage = Static<typeof ApplicationMessage>

/** The submission of the application to the job's vendor (the documents module). */
export const VendorSubmissionStatus = t.Object({
	status: t.Literal('submitted'),
	delivery: t.Union([t.Literal('queued'), t.Literal('sent'), t.Literal('failed')], {
		description: 'Whether the e-mail to the vendor went out: queued (waiting or retrying), sent, or failed',
	}),
	submittedAt: date,
	submittedBy: lineAbout('Name of the person who submitted'),
	vendor: t.Object({ id: t.String(), name: UntrustedLine }),
	documents: t.Optional(t.Array(t.String(), { description: 'Document kinds sent (dl, visa, i94, workAuth); only for people who may see documents' })),
})
export type VendorSubmissionStatus = Static<typeof VendorSubmissionStatus>

/** The overall recommendations of a scorecard, weakest first. */
export const RECOMMENDATIONS = ['strong_no', 'no', 'yes', 'strong_yes'] as const

/** One scorecard of the application (the scorecards module): a person's, or a completed AI video interview's. */
export const ApplicationScorecard = t.Object({
	id: t.String(),
	source: t.Union([t.Literal('person'), t.Literal('ai_interview')], {
		description: 'person: an interviewer’s scorecard; ai_interview: a completed AI video interview, its questions’ scores as ratings',
	}),
	by: nullable(PersonRef, 'The interviewer (null for an AI video interview)'),
	interviewId: nullable(t.String({ description: 'The AI video interview (get_interview_result); null for a person’s scorecard' })),
	ratings: t.Array(
		t.Object({
			attribute: UntrustedLine,
			rating: nullable(
				t.Integer({ minimum: 1, maximum: 5, description: '1 (poor) to 5 (excellent); for an AI interview its 0–100 score in fifths; null when unscored' }),
			),
		}),
	),
	recommendation: nullable(
		t.Union(
			RECOMMENDATIONS.map((r) => t.Literal(r)),
			{ description: 'strong_no, no, yes or strong_yes; for an AI interview its verdict (recommended: yes, not recommended: no, worth considering: null)' },
		),
	),
	overallScore: nullable(t.Integer({ description: 'An AI video interview’s overall score, 0 to 100 (null for a person’s scorecard)' })),
	notes: nullable(UntrustedText),
	createdAt: date,
	updatedAt: date,
})
export type ApplicationScorecard = Static<typeof ApplicationScorecard>

export const ApplicationDetail = t.Object({
	id: t.String(),
	candidate: t.Object({
		...CandidateRef.properties,
		skills: t.Array(UntrustedLine),
		workAuthorization: nullable(UntrustedLine),
		yearsExperience: nullable(t.Integer()),
		...contact,
	}),
	job: t.Object({ id: t.String(), title: UntrustedLine, status: t.String() }),
	stage: t.Object({ key: t.String(), label: t.String(), position: t.Integer() }),
	outcome: nullable(t.String()),
	archived: t.Boolean(),
	kind: t.String(),
	shortlist: t.String(),
	source: nullable(UntrustedLine),
	resumeCheck: nullable(ResumeCheckView),
	answers: t.Array(t.Object({ questionId: t.String(), prompt: UntrustedLine, answer: UntrustedText })),
	ratings: t.Array(t.Object({ by: PersonRef, score: t.Integer(), comment: nullable(UntrustedText), createdAt: date })),
	averageRating: nullable(t.Number()),
	notes: t.Array(Note),
	interviews: t.Array(ApplicationInterview, { description: 'AI video interviews for this application (empty without access to interviews)' }),
	messages: t.Array(ApplicationMessage, { description: 'The latest 20 messages with the candidate (empty without access to the inbox)' }),
	vendorSubmission: nullable(VendorSubmissionStatus, 'Submission to the job’s vendor; null when not submitted'),
	createdAt: date,
	stageChangedAt: date,
	scorecards: t.Array(ApplicationScorecard, {
		description: 'Interviewers’ scorecards, oldest first, then completed AI video interviews as scorecards of their own',
	}),
})

export const JobApplicant = t.Object({
	applicationId: t.String(),
	rank: t.Integer({ description: '1 = best résumé check on this list' }),
	candidate: CandidateRef,
	stageKey: t.String(),
	stageLabel: t.String(),
	resumeScore: nullable(t.Integer()),
	mustHavesMet: t.Integer(),
	mustHavesTotal: t.Integer(),
	missing: t.Array(UntrustedLine, { description: 'Must-haves the résumé check did not find' }),
	shortlist: t.String(),
	vendorSubmission: nullable(VendorSubmissionStatus, 'Status of the submission to the job’s vendor (null when not submitted)'),
	createdAt: date,
})
