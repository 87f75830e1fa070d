/**
 * AI video interviews as people see them, and invitations.
 *
 * Rules:
 * - Owners, admins and recruiters see every interview of the workspace; hiring managers only those
 *   for jobs on whose hiring team they are. One out of reach is answered like an absent one.
 * - An invitation is for an application the person can reach that has no open (invited or
 *   started) interview; it is scheduled (the calendar shows it from then) and expires at its
 *   deadline. The candidate is e-mailed through the outbox, in the same transaction.
 * - Opening a completed interview's result takes it off that person's review queue.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, invalid } from '../../core/errors.ts'
import { keysetPage, newestWrittenFirst } from '../../core/paging.ts'
import { untrusted, untrustedLine } from '../../core/untrusted.ts'
import { recordActivity } from '../activity/index.ts'
import { personRef, userNames } from '../auth/index.ts'
import { applicationParties, candidateCards, type ApplicationInterview } from '../candidates/index.ts'
import { jobRequirements, jobLabels, reachableJobIds } from '../jobs/index.ts'
import { enqueueMail } from '../outbox/index.ts'
import { questionsFor, type Verdict } from './questions.ts'
import { interviewQuestions, interviews, interviewViews } from './table.ts'
import { inList } from '../../core/sql-list.ts'
import { isoInstant, isoInstantOrNull } from '../../core/time.ts'

export const STATUSES = ['invited', 'started', 'completed', 'expired'] as const
export type InterviewStatus = (typeof STATUSES)[number]

const notFound = () => new AppError('NOT_FOUND', 'No interview with this id')

/** SQL condition: the interview (aliased `i`) is within the actor's reach. */
export async function interviewReach(deps: AppDeps, actor: Actor): Promise<SQL> {
	const base = sql`i.workspace_id = ${actor.workspaceId}`
	const jobs = await reachableJobIds(deps, actor)
	return jobs === 'all' ? base : sql`${base} and i.job_id in ${inList(jobs)}`
}

interface Row {
	id: string
	candidateId: string
	jobId: string
	applicationId: string | null
	ownerUserId: string | null
	status: InterviewStatus
	scheduledAt: Date | string
	durationMinutes: number
	deadlineAt: Date | string
	invitedAt: Date | string
	startedAt: Date | string | null
	completedAt: Date | string | null
	expiredAt: Date | string | null
	overallScore: number | null
	verdict: Verdict | null
	summary: string | null
	createdAt: Date | string
	seq: number
	questionCount: number
	answeredCount: number
}

const COLUMNS = sql`i.id, i.candidate_id as "candidateId", i.job_id as "jobId", i.application_id as "applicationId", i.owner_user_id as "ownerUserId", i.status, i.scheduled_at as "scheduledAt", i.duration_minutes as "durationMinutes", i.deadline_at as "deadlineAt", i.invited_at as "invitedAt", i.started_at as "startedAt", i.completed_at as "completedAt", i.expired_at as "expiredAt", i.overall_score as "overallScore", i.verdict, i.summary, i.created_at as "createdAt", i.seq,
(select count(*)::int from ${interviewQuestions} q where q.interview_id = i.id) as "questionCount",
(select count(*)::int from ${interviewQuestions} q where q.interview_id = i.id and q.transcript is not null) as "answeredCount"`

async function summaries(deps: AppDeps, actor: Actor, rows: Row[]) {
	const [cards, titles, owners] = await Promise.all([
		candidateCards(deps, actor, [...new Set(rows.map((r) => r.candidateId))]),
		jobLabels(deps, actor, [...new Set(rows.map((r) => r.jobId))]),
		userNames(
			deps.db,
			rows.map((r) => r.ownerUserId).filter((x): x is string => Boolean(x)),
			actor,
		),
	])
	return rows.map((r) => ({
		id: r.id,
		status: r.status,
		candidate: { id: r.candidateId, name: cards.get(r.candidateId)?.name ?? untrustedLine('', 'candidate') },
		job: { id: r.jobId, title: titles.get(r.jobId) ?? untrustedLine('', 'colleague') },
		applicationId: r.applicationId,
		invitedBy: r.ownerUserId ? personRef(owners, r.ownerUserId) : null,
		overallScore: r.overallScore,
		verdict: r.verdict,
		questionCount: r.questionCount,
		answeredCount: r.answeredCount,
		invitedAt: isoInstant(r.invitedAt),
		scheduledAt: isoInstant(r.scheduledAt),
		deadlineAt: isoInstant(r.deadlineAt),
		startedAt: isoInstantOrNull(r.startedAt),
		completedAt: isoInstantOrNull(r.completedAt),
		expiredAt: isoInstantOrNull(r.expiredAt),
	}))
}

export type InterviewSummary = Awaited<ReturnType<typeof summaries>>[number]

/**
 * Interviews newest first (of the same millisecond, the one created last first: `seq`), keyset-paged;
 * the cursor is bound to the person and the status filter.
 */
export async function listInterviews(deps: AppDeps, actor: Actor, input: { status?: InterviewStatus; limit: number; cursor?: string }) {
	const scope = `list_interview_results:${actor.userId}:${input.status ?? ''}`
	const conditions = [await interviewReach(deps, actor)]
	if (input.status) conditions.push(sql`i.status = ${input.status}`)
	const { rows, nextCursor } = await keysetPage(deps, {
		scope,
		cursor: input.cursor,
		limit: input.limit,
		order: newestWrittenFirst<Row>(sql`i.created_at`, sql`i.seq`, (r) => r.createdAt),
		from: sql`select ${COLUMNS} from ${interviews} i`,
		where: conditions,
	})
	return { interviews: await summaries(deps, actor, rows), nextCursor }
}

/** One interview with its questions, answers (transcripts, as candidate-written data) and scores. */
export async function getInterview(deps: AppDeps, actor: Actor, interviewId: string) {
	const [row] = await deps.database.rows<Row>(sql`select ${COLUMNS} from ${interviews} i where i.id = ${interviewId} and ${await interviewReach(deps, actor)}`)
	if (!row) throw notFound()
	const questions = await deps.db.select().from(interviewQuestions).where(eq(interviewQuestions.interviewId, interviewId)).orderBy(interviewQuestions.position)
	if (row.status === 'completed' && actor.userId)
		await deps.db.insert(interviewViews).values({ interviewId, userId: actor.userId, seenAt: deps.now() }).onConflictDoNothing()
	const [summary] = await summaries(deps, actor, [row])
	// Questions are made from the job's title and must-haves when the interview is sent: its author's words.
	const jobBy = summary!.job.title.writtenBy
	return {
		...summary!,
		durationMinutes: row.durationMinutes,
		summary: row.summary ? untrusted(row.summary, 'vendor', 4000) : null,
		questions: questions.map((q) => ({
			id: q.id,
			position: q.position,
			prompt: untrustedLine(q.prompt, jobBy, 1000),
			competency: untrustedLine(q.competency, jobBy, 300),
			answer: q.transcript !== null ? untrusted(q.transcript, 'candidate', 8000) : null,
			score: q.score,
			durationSeconds: q.durationSeconds,
		})),
	}
}

export interface InviteInput {
	applicationId: string
	scheduledAt?: Date
	deadlineAt?: Date
}

const HOUR = 3_600_000

/** Invites the candidate of an application to an AI video interview. */
export async function inviteToInterview(deps: AppDeps, actor: Actor, input: InviteInput): Promise<{ id: string }> {
	const app = (await applicationParties(deps, actor.workspaceId, [input.applicationId])).get(input.applicationId)
	const reach = await reachableJobIds(deps, actor)
	if (!app || (reach !== 'all' && !reach.includes(app.jobId))) throw new AppError('NOT_FOUND', 'No application with this id')
	const now = deps.now()
	const scheduledAt = input.scheduledAt ?? new Date(Math.ceil((now.getTime() + 24 * HOUR) / HOUR) * HOUR)
	const deadlineAt = input.deadlineAt ?? new Date(scheduledAt.getTime() + 72 * HOUR)
	if (deadlineAt <= scheduledAt) throw invalid([{ field: 'deadlineAt', message: 'must be after the scheduled time' }])
	if (deadlineAt <= now) throw invalid([{ field: 'deadlineAt', message: 'must be in the future' }])
	const job = (await jobRequirements(deps, actor.workspaceId, [app.jobId])).get(app.jobId)!
	const id = newId('int')
	await deps.db.transaction(async (tx) => {
		const open = await tx
			.select({ id: interviews.id })
			.from(interviews)
			.where(and(eq(interviews.applicationId, app.id), inArray(interviews.status, ['invited', 'started'])))
			.for('update')
		if (open.length) throw new AppError('CONFLICT', 'This application already has an AI interview in progress')
		await tx.insert(interviews).values({
			id,
			workspaceId: actor.workspaceId,
			candidateId: app.candidateId,
			jobId: app.jobId,
			applicationId: app.id,
			ownerUserId: actor.userId,
			status: 'invited',
			scheduledAt,
			deadlineAt,
			invitedAt: now,
			createdAt: now,
		})
		await tx
			.insert(interviewQuestions)
			.values(questionsFor(job).map((q, i) => ({ id: newId('iq'), interviewId: id, position: i + 1, prompt: q.prompt, competency: q.competency })))
		const first = app.candidate.name.split(' ')[0]
		await enqueueMail(
			tx,
			{
				workspaceId: actor.workspaceId,
				to: app.candidate.email,
				subject: `Your video interview for ${job.title}`,
				text: `Hello ${first},\n\nThank you for applying for ${job.title}. The next step is a short video interview you can record at a time that suits you: please take it on ${scheduledAt.toUTCString()} or at the latest by ${deadlineAt.toUTCString()}.\n\nOur interview partner will e-mail you your personal link. You can reply to this e-mail with any question.\n\nBest regards,\n${actor.name}`,
				related: { type: 'interview', id },
				recipient: { type: 'candidate', id: app.candidateId },
				sentBy: actor.userId,
			},
			deps,
		)
		await recordActivity(tx, actor, {
			action: 'interview.invited',
			targetType: 'interview',
			targetId: id,
			detail: { applicationId: app.id, scheduledAt: scheduledAt.toISOString(), deadlineAt: deadlineAt.toISOString() },
		})
	})
	return { id }
}

/** Interviews of applications, for `get_application` (callers pass only applications the actor can reach). */
export async function interviewsOfApplications(
	deps: AppDeps,
	actor: Actor,
	applicationIds: string[],
): Promise<Map<string, { interviews: ApplicationInterview[] }>> {
	const out = new Map<string, { interviews: ApplicationInterview[] }>()
	if (!applicationIds.length || !deps.permissions.can(actor, 'interviews:read')) return out
	const rows = await deps.database.rows<Row>(
		sql`select ${COLUMNS} from ${interviews} i where ${await interviewReach(deps, actor)} and i.application_id in ${inList(applicationIds)} order by i.created_at desc, i.seq desc`,
	)
	for (const id of applicationIds) out.set(id, { interviews: [] })
	for (const r of rows)
		out.get(r.applicationId!)!.interviews.push({
			id: r.id,
			status: r.status,
			overallScore: r.overallScore,
			verdict: r.verdict,
			scheduledAt: isoInstant(r.scheduledAt),
			deadlineAt: isoInstant(r.deadlineAt),
			completedAt: isoInstantOrNull(r.completedAt),
		})
	return out
}
