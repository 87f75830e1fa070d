/**
 * Applications: the list (keyset-paged on created_at, id, newest first), one application in full,
 * and a job's applicants or leads ranked by the résumé check. Other modules add to an application
 * through the `applicationDetails` port (port.ts) (messages, interviews, vendor submission status).
 */
import { sql, type SQL } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { contributionsTo } from '../../core/registry.ts'
import { AppError, invalid } from '../../core/errors.ts'
import { idKey, integerKey, keysetPage, newestFirst } from '../../core/paging.ts'
import { personAuthor, untrusted, untrustedLine, type TextAuthor, type UntrustedText } from '../../core/untrusted.ts'
import { isoInstant } from '../../core/time.ts'
import { personRef, userNames } from '../auth/index.ts'
import { jobAuthor, jobRequirements, jobLabels } from '../jobs/index.ts'
import { contactOf, requireJob, sourceOf, visibleNotes } from './candidate-service.ts'
import { applicationReach, colleagueWords, reachOf, redactContacts, seesContact } from './reach.ts'
import { refreshChecks } from './recheck.ts'
import type { ResumeCheck } from './resume-check.ts'
import { APPLICATION_COLUMNS, applicationBrief, candidateFacts, candidateRef, ratingOf, unique, type ApplicationRow, type CandidateRow } from './rows.ts'
import type { ApplicationInterview, ApplicationMessage, ApplicationScorecard, VendorSubmissionStatus } from './model.ts'
import { applicationDetails } from './port.ts'
import { IN_ITS_STAGE, inState, type ApplicationState } from './progress.ts'
import { stageLabel, stagesOf, type Stage } from './stages.ts'

const applicationNotFound = () => new AppError('NOT_FOUND', 'No application with this id')

/** What other modules contribute to applications (merged in module order), e.g. `vendorSubmission`. */
export async function contributions(deps: AppDeps, actor: Actor, ids: string[]): Promise<Map<string, Record<string, unknown>>> {
	const merged = new Map<string, Record<string, unknown>>()
	if (!ids.length) return merged
	for (const details of contributionsTo(deps.registry, applicationDetails))
		for (const [id, extra] of await details(deps, actor, ids)) merged.set(id, { ...merged.get(id), ...extra })
	return merged
}

export interface ListApplicationsInput {
	jobId?: string
	stageKey?: string
	includeArchived?: boolean
	/** Only applications in this state (see `progress.ts`); replaces `includeArchived`. The job page's pipeline lists use it. */
	state?: ApplicationState
	limit: number
	cursor?: string
}

export type Joined = ApplicationRow & Pick<CandidateRow, 'name' | 'headline' | 'location'>

/** One row of list_applications (also a card of the job page's pipeline). */
export function applicationSummary(a: Joined, titles: Map<string, UntrustedText>, stages: Stage[]) {
	return {
		...applicationBrief(a, titles, stages),
		candidate: candidateRef({ id: a.candidateId, name: a.name, headline: a.headline, location: a.location }),
		source: a.source === null ? null : sourceOf(a.source),
		stageChangedAt: isoInstant(a.stageChangedAt),
	}
}

export async function listApplications(deps: AppDeps, actor: Actor, input: ListApplicationsInput) {
	const reach = await reachOf(deps, actor)
	const stages = await stagesOf(deps, actor.workspaceId)
	if (input.stageKey !== undefined && !stages.some((s) => s.key === input.stageKey))
		throw invalid([{ field: 'stageKey', message: `is not a stage of this workspace; use one of: ${stages.map((s) => s.key).join(', ')}` }])
	if (input.jobId) await requireJob(deps, reach, input.jobId)
	const includeArchived = input.includeArchived ?? false
	const scope = `list_applications:${actor.userId}:${input.jobId ?? ''}:${input.stageKey ?? ''}:${input.state ?? includeArchived}`
	const conditions: SQL[] = [applicationReach(reach)]
	if (input.jobId) conditions.push(sql`a.job_id = ${input.jobId}`)
	// A stage holds the applications that stand in it (progress.ts): a rejected one moved into Hired is
	// not listed as hired. Asked for with a state, a stage's list is that state's at the stage (the job
	// page's list of the ones closed at screening).
	if (input.stageKey) conditions.push(input.state ? sql`a.stage_key = ${input.stageKey}` : sql`a.stage_key = ${input.stageKey} and ${IN_ITS_STAGE}`)
	if (input.state) conditions.push(inState(input.state))
	else if (!includeArchived) conditions.push(sql`a.archived = false`)
	const { rows: page, nextCursor } = await keysetPage(deps, {
		scope,
		cursor: input.cursor,
		limit: input.limit,
		order: newestFirst<Joined>(sql`a.created_at`, sql`a.id`, (a) => a.createdAt),
		from: sql`select ${APPLICATION_COLUMNS}, c.name, c.headline, c.location from applications a join candidates c on c.id = a.candidate_id`,
		where: conditions,
	})
	const titles = await jobLabels(deps, actor, unique(page.map((a) => a.jobId)))
	return { applications: page.map((a) => applicationSummary(a, titles, stages)), nextCursor }
}

/**
 * The stored check as tools and pages show it. Requirements are the job's must-haves (its vendor's or
 * a colleague's words); evidence lines are résumé text, so people who may not see contact details get
 * them with e-mail addresses and phone numbers blanked, as the résumé itself.
 */
function checkView(check: ResumeCheck | null, jobBy: TextAuthor, contact: boolean) {
	if (!check) return null
	const evidence = (line: string) => untrusted(contact ? line : redactContacts(line), 'candidate', 300)
	return {
		score: check.score,
		met: check.met,
		total: check.total,
		mustHaves: check.mustHaves.map((m) => untrustedLine(m, jobBy, 300)),
		items: check.items.map((i) => ({
			requirement: untrustedLine(i.requirement, jobBy, 300),
			status: i.status,
			evidence: i.evidence ? evidence(i.evidence) : null,
			note: i.note,
		})),
		checkedAt: check.checkedAt,
	}
}

type FullRow = ApplicationRow & CandidateRow & { candidateId: string; resumeCheck: ResumeCheck | null }

export async function getApplication(deps: AppDeps, actor: Actor, applicationId: string) {
	const reach = await reachOf(deps, actor)
	const load = () =>
		deps.database.rows<FullRow>(
			sql`select ${APPLICATION_COLUMNS}, a.resume_check as "resumeCheck", c.name, c.email, c.phone, c.headline, c.location, c.skills, c.work_authorization as "workAuthorization", c.years_experience as "yearsExperience"
			from applications a join candidates c on c.id = a.candidate_id where a.id = ${applicationId} and ${applicationReach(reach)}`,
		)
	let [a] = await load()
	if (!a) throw applicationNotFound()
	if (await refreshChecks(deps, actor.workspaceId, { applicationIds: [a.id] })) [a] = await load()
	a = a!
	const [jobs, stages, answers, ratings, notes, extra] = await Promise.all([
		jobRequirements(deps, actor.workspaceId, [a.jobId]),
		stagesOf(deps, actor.workspaceId),
		deps.database.rows<{ questionId: string; prompt: string; answer: string }>(
			sql`select aa.question_id as "questionId", q.prompt, aa.answer from application_answers aa join job_questions q on q.id = aa.question_id where aa.application_id = ${a.id} order by q.position`,
		),
		deps.database.rows<{ userId: string; score: number; comment: string | null; createdAt: Date | string }>(
			sql`select r.user_id as "userId", r.score, r.comment, r.created_at as "createdAt" from ratings r where r.application_id = ${a.id} order by r.created_at, r.seq`,
		),
		visibleNotes(deps, reach, a.candidateId, a.id),
		contributions(deps, actor, [a.id]),
	])
	const names = await userNames(
		deps.db,
		ratings.map((r) => r.userId),
		actor,
	)
	const contact = seesContact(deps, actor)
	const words = colleagueWords(deps, actor)
	const job = jobs.get(a.jobId)
	const jobBy = jobAuthor({ vendorId: job?.vendorId ?? null, createdByUserId: job?.createdByUserId ?? null }, actor)
	const stage = stages.find((s) => s.key === a!.stageKey)
	return {
		id: a.id,
		candidate: {
			...candidateRef({ id: a.candidateId, name: a.name, headline: a.headline, location: a.location }),
			...candidateFacts(a),
			...contactOf(deps, actor, a),
		},
		job: { id: a.jobId, title: untrustedLine(job?.title ?? '', jobBy, 200), status: job?.status ?? '' },
		stage: { key: a.stageKey, label: stageLabel(stages, a.stageKey), position: stage?.position ?? 0 },
		outcome: a.outcome,
		archived: a.archived,
		kind: a.kind,
		shortlist: a.shortlist,
		source: a.source === null ? null : sourceOf(a.source),
		resumeCheck: checkView(a.resumeCheck, jobBy, contact),
		// Answers are the candidate's own words: contact details in them are blanked like the résumé's.
		answers: answers.map((x) => ({
			questionId: x.questionId,
			prompt: untrustedLine(x.prompt, 'colleague', 500),
			answer: untrusted(contact ? x.answer : redactContacts(x.answer), 'candidate', 2000),
		})),
		ratings: ratings.map((r) => ({
			by: personRef(names, r.userId),
			score: r.score,
			comment: r.comment ? untrusted(words(r.comment, r.userId), personAuthor(r.userId, actor), 2000) : null,
			createdAt: isoInstant(r.createdAt),
		})),
		averageRating: ratingOf(a.averageRating),
		notes,
		interviews: [] as ApplicationInterview[],
		messages: [] as ApplicationMessage[],
		vendorSubmission: null as VendorSubmissionStatus | null,
		createdAt: isoInstant(a.createdAt),
		stageChangedAt: isoInstant(a.stageChangedAt),
		scorecards: [] as ApplicationScorecard[],
		...extra.get(a.id),
	}
}

export interface JobApplicantsInput {
	jobId: string
	list: 'applicants' | 'leads'
	limit: number
	cursor?: string
}

type RankedRow = ApplicationRow &
	Pick<CandidateRow, 'name' | 'headline' | 'location'> & { items: ResumeCheck['items'] | null; met: number | null; total: number | null }

/** Best résumé score first (unchecked last), then the earliest id. */
const BY_SCORE = { keys: [integerKey<RankedRow>(sql`coalesce(a.resume_score, -1)`, (a) => a.resumeScore ?? -1, { desc: true }), idKey<RankedRow>(sql`a.id`)] }

/**
 * A job's applicants (or leads), not archived, ranked by résumé score (unchecked last), then by
 * who applied first. Checks are brought up to date before ranking. The cursor carries the last
 * row's score, id and rank.
 */
export async function getJobApplicants(deps: AppDeps, actor: Actor, input: JobApplicantsInput) {
	const reach = await reachOf(deps, actor)
	const title = await requireJob(deps, reach, input.jobId)
	const jobBy = title.writtenBy // the job's must-haves have the same author as its title
	await refreshChecks(deps, actor.workspaceId, { jobId: input.jobId })
	const scope = `get_job_applicants:${actor.userId}:${input.jobId}:${input.list}`
	const conditions: SQL[] = [
		applicationReach(reach),
		sql`a.job_id = ${input.jobId}`,
		sql`a.kind = ${input.list === 'leads' ? 'lead' : 'applicant'}`,
		sql`a.archived = false`,
	]
	const {
		rows: page,
		nextCursor,
		before: rank,
	} = await keysetPage(deps, {
		scope,
		cursor: input.cursor,
		limit: input.limit,
		order: BY_SCORE,
		from: sql`select ${APPLICATION_COLUMNS}, c.name, c.headline, c.location, a.resume_check->'items' as items, (a.resume_check->>'met')::int as met, (a.resume_check->>'total')::int as total
		from applications a join candidates c on c.id = a.candidate_id`,
		where: conditions,
		counted: true,
	})
	const [stages, extra] = await Promise.all([
		stagesOf(deps, actor.workspaceId),
		contributions(
			deps,
			actor,
			page.map((a) => a.id),
		),
	])
	return {
		job: { id: input.jobId, title },
		list: input.list,
		applicants: page.map((a, i) => ({
			applicationId: a.id,
			rank: rank + i + 1,
			candidate: candidateRef({ id: a.candidateId, name: a.name, headline: a.headline, location: a.location }),
			stageKey: a.stageKey,
			stageLabel: stageLabel(stages, a.stageKey),
			resumeScore: a.resumeScore,
			mustHavesMet: a.met ?? 0,
			mustHavesTotal: a.total ?? 0,
			missing: (a.items ?? []).filter((x) => x.status !== 'met').map((x) => untrustedLine(x.requirement, jobBy, 300)),
			shortlist: a.shortlist,
			// Only the submission of what other modules add: a ranked list stays lean (no messages or interviews).
			vendorSubmission: (extra.get(a.id)?.vendorSubmission as VendorSubmissionStatus | null | undefined) ?? null,
			createdAt: isoInstant(a.createdAt),
		})),
		nextCursor,
	}
}
