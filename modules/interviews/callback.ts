/**
 * Results from the interview provider, on a signed callback (see `core/http/signed-webhook.ts`).
 *
 * Rules:
 * - The same event id twice has one effect: the second answers `duplicate` and changes nothing.
 * - `interview.started` moves an invited interview to started; for one already started or
 *   completed it changes nothing (`ignored`: events may arrive out of order); an expired one is a
 *   conflict.
 * - `interview.completed` carries the result (overall score, verdict, summary, an answer per
 *   question with its transcript and score) and completes an invited or started interview. One
 *   that expired is completed all the same when the provider says it finished before the deadline
 *   (the sweep may have run first); otherwise, and for one already completed, it is a conflict.
 * - Completing gives the person who invited a to-do to review the result.
 * - A body that is not JSON, or not an event of this shape, is refused (400) with what is wrong.
 */
import { and, eq, sql } from 'drizzle-orm'
import { Type as t } from '@sinclair/typebox'
import type { AppDeps } from '../../core/deps.ts'
import type { Db } from '../../db/client.ts'
import { AppError } from '../../core/errors.ts'
import { signedWebhook } from '../../core/http/signed-webhook.ts'
import { checkValue } from '../../core/schema-check.ts'
import { recordActivity } from '../activity/index.ts'
import { recordEvent } from '../events/index.ts'
import { interviewCompleted } from './events.ts'
import { operatorActor } from '../auth/index.ts'
import { createTodo, flowAssignee } from '../todos/index.ts'
import { VERDICTS, type Verdict } from './questions.ts'
import { interviewSettings } from './settings.ts'
import { interviewEvents, interviewQuestions, interviews } from './table.ts'

export const MAX_CALLBACK_BYTES = 512 * 1024

const Answer = t.Object({
	questionId: t.String({ minLength: 1, maxLength: 160 }),
	transcript: t.String({ maxLength: 20000 }),
	score: t.Integer({ minimum: 0, maximum: 100 }),
	durationSeconds: t.Optional(t.Integer({ minimum: 0, maximum: 36000 })),
})

export const CallbackEvent = t.Object({
	id: t.String({ minLength: 1, maxLength: 200, description: 'The provider’s event id (idempotency key)' }),
	type: t.Union([t.Literal('interview.started'), t.Literal('interview.completed')]),
	interviewId: t.String({ minLength: 1, maxLength: 160 }),
	occurredAt: t.String({ minLength: 1, maxLength: 40 }),
	result: t.Optional(
		t.Object({
			overallScore: t.Integer({ minimum: 0, maximum: 100 }),
			verdict: t.Union(VERDICTS.map((v) => t.Literal(v))),
			summary: t.Optional(t.String({ maxLength: 4000 })),
			answers: t.Array(Answer, { maxItems: 50 }),
		}),
	),
})

type Event = {
	id: string
	type: 'interview.started' | 'interview.completed'
	interviewId: string
	occurredAt: string
	result?: {
		overallScore: number
		verdict: string
		summary?: string
		answers: { questionId: string; transcript: string; score: number; durationSeconds?: number }[]
	}
}

export interface CallbackResult {
	status: 'applied' | 'duplicate' | 'ignored'
	interviewId: string
	interviewStatus: string
}

const malformed = (message: string, fields?: { field: string; message: string }[]) => new AppError('INVALID_BODY', message, { fields })

function parseEvent(body: string): Event & { at: Date } {
	let value: unknown
	try {
		value = JSON.parse(body)
	} catch {
		throw malformed(body.trim() ? 'The body is not valid JSON' : 'The body is empty; send the event as a JSON object')
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value)) throw malformed('The body must be a JSON object (an interview event)')
	const checked = checkValue<Event>(CallbackEvent, value, { unknown: 'ignore' })
	if (checked.errors.length) throw malformed(`The event is not valid: ${checked.errors.map((e) => `${e.field} ${e.message}`).join('; ')}`, checked.errors)
	const event = checked.value
	const at = new Date(event.occurredAt)
	if (!/^\d{4}-\d\d-\d\dT/.test(event.occurredAt) || Number.isNaN(at.getTime()))
		throw malformed('The event is not valid: occurredAt must be an ISO 8601 date-time', [{ field: 'occurredAt', message: 'must be an ISO 8601 date-time' }])
	if (event.type === 'interview.completed' && !event.result)
		throw malformed('The event is not valid: an interview.completed event needs its result', [
			{ field: 'result', message: 'is required for interview.completed' },
		])
	return { ...event, at }
}

type Interview = typeof interviews.$inferSelect
type Completed = Event & { at: Date; result: NonNullable<Event['result']> }

/** The provider, as the activity log names it. */
const providerActor = (workspaceId: string) => ({
	...operatorActor({ id: workspaceId, slug: '' }),
	name: 'Interview provider',
	credential: { kind: 'cli' as const, id: '', name: 'interview provider callback' },
})

/**
 * Who gets the review to-do: the person who invited while they may act on it, else an owner
 * (`flowAssignee`); read before the transaction (the embedded database has one connection).
 */
async function reviewer(deps: AppDeps, interviewId: string): Promise<string | null> {
	const [known] = await deps.db
		.select({
			workspaceId: interviews.workspaceId,
			ownerUserId: interviews.ownerUserId,
			candidateId: interviews.candidateId,
			applicationId: interviews.applicationId,
			jobId: interviews.jobId,
		})
		.from(interviews)
		.where(eq(interviews.id, interviewId))
	if (!known) throw new AppError('NOT_FOUND', `No interview with the id ${interviewId}`)
	if (!known.ownerUserId) return null
	return flowAssignee(deps, { ...known, userId: known.ownerUserId, source: 'interview' })
}

/** Decide: the answers name this interview's questions, each once (else the event is refused, by field). */
function checkAnswers(questionIds: ReadonlySet<string>, answers: Completed['result']['answers']) {
	const unknown = answers.map((a, i) => ({ a, i })).filter(({ a }) => !questionIds.has(a.questionId))
	if (unknown.length)
		throw malformed(
			`The event is not valid: ${unknown.length} answer(s) name a question this interview does not have`,
			unknown.map(({ i }) => ({ field: `result.answers.${i}.questionId`, message: 'is not a question of this interview' })),
		)
	const seen = new Set<string>()
	for (const [i, a] of answers.entries()) {
		if (seen.has(a.questionId))
			throw malformed('The event is not valid: a question is answered twice', [{ field: `result.answers.${i}.questionId`, message: 'is answered twice' }])
		seen.add(a.questionId)
	}
}

/** `interview.started`: an invited interview starts; one already started or completed is left as it is. */
async function startInterview(tx: Db, interview: Interview, event: Event & { at: Date }): Promise<CallbackResult['status']> {
	if (interview.status === 'started' || interview.status === 'completed') return 'ignored'
	if (interview.status === 'expired') throw new AppError('CONFLICT', 'The interview expired at its deadline; it cannot start now')
	await tx.update(interviews).set({ status: 'started', startedAt: event.at }).where(eq(interviews.id, interview.id))
	await recordActivity(tx, providerActor(interview.workspaceId), {
		action: 'interview.started',
		targetType: 'interview',
		targetId: interview.id,
		detail: { eventId: event.id },
	})
	return 'applied'
}

/** `interview.completed`, write: the answers and the result (late when the sweep expired it first, but it finished in time). */
async function completeInterview(tx: Db, interview: Interview, event: Completed) {
	if (interview.status === 'completed') throw new AppError('CONFLICT', 'The interview is already completed')
	if (interview.status === 'expired' && event.at > interview.deadlineAt)
		throw new AppError('CONFLICT', `The interview expired at its deadline (${interview.deadlineAt.toISOString()}) before this result`)
	const questions = await tx.select({ id: interviewQuestions.id }).from(interviewQuestions).where(eq(interviewQuestions.interviewId, interview.id))
	const r = event.result
	checkAnswers(new Set(questions.map((q) => q.id)), r.answers)
	for (const a of r.answers)
		await tx
			.update(interviewQuestions)
			.set({ transcript: a.transcript, score: a.score, durationSeconds: a.durationSeconds ?? null })
			.where(and(eq(interviewQuestions.id, a.questionId), eq(interviewQuestions.interviewId, interview.id)))
	await tx
		.update(interviews)
		.set({
			status: 'completed',
			completedAt: event.at,
			startedAt: sql`coalesce(${interviews.startedAt}, ${event.at.toISOString()}::timestamptz)`,
			expiredAt: null,
			overallScore: r.overallScore,
			verdict: r.verdict,
			summary: r.summary ?? null,
		})
		.where(eq(interviews.id, interview.id))
}

/** `interview.completed`, notify: the review to-do for the person who invited, the activity line and the event. */
async function notifyCompleted(tx: Db, deps: AppDeps, interview: Interview, event: Completed, assignee: string | null) {
	const r = event.result
	const actor = providerActor(interview.workspaceId)
	// No names in the title: the candidate and the job are shown beside it, as the reader may see them.
	if (assignee)
		await createTodo(tx, {
			workspaceId: interview.workspaceId,
			assigneeUserId: assignee,
			title: `Review the AI interview (score ${r.overallScore})`,
			candidateId: interview.candidateId,
			applicationId: interview.applicationId,
			jobId: interview.jobId,
			dueAt: new Date(deps.now().getTime() + 24 * 3_600_000),
			source: 'interview',
			sourceRef: interview.id,
		})
	await recordActivity(tx, actor, {
		action: 'interview.completed',
		targetType: 'interview',
		targetId: interview.id,
		detail: { eventId: event.id, overallScore: r.overallScore, verdict: r.verdict, late: interview.status === 'expired' },
	})
	await recordEvent(tx, interviewCompleted, actor, {
		interviewId: interview.id,
		applicationId: interview.applicationId,
		candidateId: interview.candidateId,
		jobId: interview.jobId,
		overallScore: r.overallScore,
		// Checked against VERDICTS when the callback was read.
		verdict: r.verdict as Verdict,
	})
}

/** The workflow: verify the signature (`signedWebhook`), read the event (`parseEvent`), then apply it once. */
export const handleInterviewCallback = signedWebhook<CallbackResult>(
	{
		prefix: 'x-interview',
		secretName: 'INTERVIEW_WEBHOOK_SECRET',
		maxBytes: MAX_CALLBACK_BYTES,
		secret: (deps) => deps.config.settings.of(interviewSettings).webhookSecret,
	},
	(deps, body) => applyEvent(deps, parseEvent(body)),
)

/** Applies an event once, under the interview's lock. */
async function applyEvent(deps: AppDeps, event: Event & { at: Date }): Promise<CallbackResult> {
	const assignee = await reviewer(deps, event.interviewId)
	return deps.db.transaction(async (tx) => {
		const [interview] = await tx.select().from(interviews).where(eq(interviews.id, event.interviewId)).for('update')
		if (!interview) throw new AppError('NOT_FOUND', `No interview with the id ${event.interviewId}`)
		const result = (status: CallbackResult['status'], interviewStatus = interview.status): CallbackResult => ({
			status,
			interviewId: interview.id,
			interviewStatus,
		})
		// The same event id twice has one effect.
		const fresh = await tx
			.insert(interviewEvents)
			.values({ eventId: event.id, interviewId: interview.id, type: event.type, receivedAt: deps.now() })
			.onConflictDoNothing()
			.returning({ id: interviewEvents.eventId })
		if (!fresh.length) return result('duplicate')
		if (event.type === 'interview.started') {
			const status = await startInterview(tx, interview, event)
			return status === 'applied' ? result(status, 'started') : result(status)
		}
		const completed = event as Completed
		await completeInterview(tx, interview, completed)
		await notifyCompleted(tx, deps, interview, completed, assignee)
		return result('applied', 'completed')
	})
}
