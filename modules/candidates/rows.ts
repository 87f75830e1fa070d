/** Raw rows of the candidate tables and how they become tool results. */
import { sql } from 'drizzle-orm'
import { untrustedLine, type UntrustedText } from '../../core/untrusted.ts'
import { isoInstant } from '../../core/time.ts'
import { stageLabel, type Stage } from './stages.ts'

export interface CandidateRow {
	id: string
	name: string
	email: string
	phone: string | null
	location: string | null
	headline: string | null
	skills: string[] | null
	workAuthorization: string | null
	yearsExperience: number | null
	source: string
	ownerUserId: string | null
	resumeFileName: string | null
	resumeMime: string | null
	resumeText: string | null
	createdAt: Date | string
	updatedAt: Date | string
}

/** Columns of a candidate row (aliased `c`), without the résumé text unless asked for. */
export const candidateColumns = (withText = false) =>
	sql.raw(
		`c.id, c.name, c.email, c.phone, c.location, c.headline, c.skills, c.work_authorization as "workAuthorization", c.years_experience as "yearsExperience", c.source, c.owner_user_id as "ownerUserId", c.resume_file_name as "resumeFileName", c.resume_mime as "resumeMime", c.created_at as "createdAt", c.updated_at as "updatedAt"${withText ? ', c.resume_text as "resumeText"' : ''}`,
	)

export interface ApplicationRow {
	id: string
	candidateId: string
	jobId: string
	stageKey: string
	outcome: string | null
	archived: boolean
	kind: string
	shortlist: string
	resumeScore: number | null
	source: string | null
	averageRating: number | string | null
	createdAt: Date | string
	stageChangedAt: Date | string
}

/** Columns of an application row (aliased `a`), with its average rating. */
export const APPLICATION_COLUMNS = sql.raw(
	`a.id, a.candidate_id as "candidateId", a.job_id as "jobId", a.stage_key as "stageKey", a.outcome, a.archived, a.kind, a.shortlist, a.resume_score as "resumeScore", a.source, a.created_at as "createdAt", a.stage_changed_at as "stageChangedAt", (select round(avg(r.score), 2) from ratings r where r.application_id = a.id) as "averageRating"`,
)

export const ratingOf = (v: number | string | null) => (v === null || v === undefined ? null : Number(v))

/**
 * Short candidate-supplied fields on their way to a tool result: one line labelled as written by
 * the candidate, cleaned of control and tag characters, Markdown and HTML made inert
 * (core/untrusted.ts), capped.
 */
export function short(v: string, max?: number): UntrustedText
export function short(v: string | null, max?: number): UntrustedText | null
export function short(v: string | null, max = 200): UntrustedText | null {
	return untrustedLine(v, 'candidate', max)
}

export function candidateRef(c: Pick<CandidateRow, 'id' | 'name' | 'headline' | 'location'>) {
	return { id: c.id, name: short(c.name, 120), headline: short(c.headline), location: short(c.location, 120) }
}

/** The profile fields every view of a candidate shows, labelled (contact details are added where the role may see them). */
export function candidateFacts(c: Pick<CandidateRow, 'skills' | 'workAuthorization' | 'yearsExperience'>) {
	return {
		skills: (c.skills ?? []).slice(0, 40).map((s) => short(s, 60)),
		workAuthorization: short(c.workAuthorization, 60),
		yearsExperience: c.yearsExperience,
	}
}

/** A candidate's e-mail address and phone number, labelled (the candidate typed them). */
export const candidateContact = (c: Pick<CandidateRow, 'email' | 'phone'>) => ({ email: short(c.email, 254), phone: short(c.phone, 100) })

/** A job title as `jobLabels()` gives it, or an empty one for a job not found. */
export const titleOf = (titles: Map<string, UntrustedText>, jobId: string) => titles.get(jobId) ?? untrustedLine('', 'colleague')

export function applicationBrief(a: ApplicationRow, jobLabels: Map<string, UntrustedText>, stages: Stage[]) {
	return {
		id: a.id,
		job: { id: a.jobId, title: titleOf(jobLabels, a.jobId) },
		stageKey: a.stageKey,
		stageLabel: stageLabel(stages, a.stageKey),
		outcome: a.outcome,
		archived: a.archived,
		kind: a.kind,
		shortlist: a.shortlist,
		resumeScore: a.resumeScore,
		averageRating: ratingOf(a.averageRating),
		createdAt: isoInstant(a.createdAt),
	}
}

export const unique = <T>(items: T[]) => [...new Set(items)]
