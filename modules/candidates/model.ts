/** Shapes of the candidate and application tools' results. */
import { Type as t } from '@sinclair/typebox'
import { nullable } from '../../core/mcp/params.ts'
import { UntrustedText } from '../../core/untrusted.ts'

const date = t.String({ format: 'date-time' })
const contact = { email: t.Optional(t.String({ description: 'Only for owners, admins and recruiters' })), phone: t.Optional(nullable(t.String({ description: 'Only for owners, admins and recruiters' }))) }

export const CandidateRef = t.Object({ id: t.String(), name: t.String(), headline: nullable(t.String()), location: nullable(t.String()) })
export const JobRef = t.Object({ id: t.String(), title: t.String() })
export const PersonRef = t.Object({ userId: t.String(), name: t.String() })

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
	name: t.String(),
	headline: nullable(t.String()),
	location: nullable(t.String()),
	skills: t.Array(t.String()),
	workAuthorization: nullable(t.String()),
	yearsExperience: nullable(t.Integer()),
	source: t.String(),
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
			fileName: nullable(t.String()),
			fileType: nullable(t.String()),
			text: nullable(UntrustedText),
		}),
	),
	applications: t.Array(ApplicationBrief),
	notes: t.Array(Note),
	createdAt: date,
	updatedAt: date,
})

export const CheckItemView = t.Object({
	requirement: t.String(),
	status: t.Union([t.Literal('met'), t.Literal('not_found')]),
	evidence: nullable(UntrustedText),
	note: nullable(t.String()),
})

export const ResumeCheckView = t.Object({
	score: nullable(t.Integer()),
	met: t.Integer(),
	total: t.Integer(),
	mustHaves: t.Array(t.String(), { description: 'The must-haves the check was made against (the job’s current ones)' }),
	items: t.Array(CheckItemView),
	checkedAt: date,
})

export const ApplicationSummary = t.Composite([ApplicationBrief, t.Object({ candidate: CandidateRef, source: nullable(t.String()), stageChangedAt: date })])

export const ApplicationDetail = t.Object(
	{
		id: t.String(),
		candidate: t.Object({ ...CandidateRef.properties, skills: t.Array(t.String()), workAuthorization: nullable(t.String()), yearsExperience: nullable(t.Integer()), ...contact }),
		job: t.Object({ id: t.String(), title: t.String(), status: t.String() }),
		stage: t.Object({ key: t.String(), label: t.String(), position: t.Integer() }),
		outcome: nullable(t.String()),
		archived: t.Boolean(),
		kind: t.String(),
		shortlist: t.String(),
		source: nullable(t.String()),
		resumeCheck: nullable(ResumeCheckView),
		answers: t.Array(t.Object({ questionId: t.String(), prompt: t.String(), answer: UntrustedText })),
		ratings: t.Array(t.Object({ by: PersonRef, score: t.Integer(), comment: nullable(UntrustedText), createdAt: date })),
		averageRating: nullable(t.Number()),
		notes: t.Array(Note),
		interviews: t.Array(t.Unknown(), { description: 'AI video interviews for this application (contributed by the interviews module)' }),
		messages: t.Array(t.Unknown(), { description: 'Messages with the candidate about this application (contributed by the inbox)' }),
		vendorSubmission: t.Union([t.Null(), t.Unknown()], { description: 'Submission to the job’s vendor, if any (contributed by the vendors module)' }),
		createdAt: date,
		stageChangedAt: date,
	},
	{ description: 'Other modules may add fields (e.g. messages, interviews, vendorSubmission)' },
)

export const JobApplicant = t.Object({
	applicationId: t.String(),
	rank: t.Integer({ description: '1 = best résumé check on this list' }),
	candidate: CandidateRef,
	stageKey: t.String(),
	stageLabel: t.String(),
	resumeScore: nullable(t.Integer()),
	mustHavesMet: t.Integer(),
	mustHavesTotal: t.Integer(),
	missing: t.Array(t.String(), { description: 'Must-haves the résumé check did not find' }),
	shortlist: t.String(),
	vendorSubmission: t.Union([t.Null(), t.Unknown()], { description: 'Status of the submission to the job’s vendor (null when not submitted)' }),
	createdAt: date,
})
