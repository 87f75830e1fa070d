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
import { AppError } from '../../core/errors.ts'
import { verifiedWebhookBody } from '../../core/http/signed-webhook.ts'
import { checkValue } from '../../core/schema-check.ts'
import { recordActivity } from '../activity/index.ts'
import { recordEvent } from '../events/index.ts'
import { interviewCompleted } from './events.ts'
import { operatorActor } from '../auth/index.ts'
import { candidateCards } from '../candidates/index.ts'
import { jobLabels } from '../jobs/index.ts'
import { createTodo } from '../todos/index.ts'
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

export async function handleInterviewCallback(deps: AppDeps, request: Request): Promise<CallbackResult> {
	const body = await verifiedWebhookBody(request, {
		prefix: 'x-interview',
		secret: deps.config.settings.of(interviewSettings).webhookSecret,
		secretName: 'INTERVIEW_WEBHOOK_SECRET',
		maxBytes: MAX_CALLBACK_BYTES,
		now: deps.now(),
	})
	const event = parseEvent(body)
	// Names for the review to-do, read before the transaction (the embedded database has one connection).
	const [known] = await deps.db
		.select({ workspaceId: interviews.workspaceId, candidateId: interviews.candidateId, jobId: interviews.jobId })
		.from(interviews)
		.where(eq(interviews.id, event.interviewId))
	if (!known) throw new AppError('NOT_FOUND', `No interview with the id ${event.interviewId}`)
	const system = operatorActor({ id: known.workspaceId, slug: '' })
	const [cards, titles] = await Promise.all([candidateCards(deps, system, [known.candidateId]), jobLabels(deps, known.workspaceId, [known.jobId])])
	return deps.db.transaction(async (tx) => {
		const [interview] = await tx.select().from(interviews).where(eq(interviews.id, event.interviewId)).for('update')
		if (!interview) throw new AppError('NOT_FOUND', `No interview with the id ${event.interviewId}`)
		const fresh = await tx
			.insert(interviewEvents)
			.values({ eventId: event.id, interviewId: interview.id, type: event.type, receivedAt: deps.now() })
			.onConflictDoNothing()
			.returning({ id: interviewEvents.eventId })
		const result = (status: CallbackResult['status'], interviewStatus = interview.status): CallbackResult => ({
			status,
			interviewId: interview.id,
			interviewStatus,
		})
		if (!fresh.length) return result('duplicate')
		const actor = {
			...operatorActor({ id: interview.workspaceId, slug: '' }),
			name: 'Interview provider',
			credential: { kind: 'cli' as const, id: '', name: 'interview provider callback' },
		}

		if (event.type === 'interview.started') {
			if (interview.status === 'started' || interview.status === 'completed') return result('ignored')
			if (interview.status === 'expired') throw new AppError('CONFLICT', 'The interview expired at its deadline; it cannot start now')
			await tx.update(interviews).set({ status: 'started', startedAt: event.at }).where(eq(interviews.id, interview.id))
			await recordActivity(tx, actor, { action: 'interview.started', targetType: 'interview', targetId: interview.id, detail: { eventId: event.id } })
			return result('applied', 'started')
		}

		if (interview.status === 'completed') throw new AppError('CONFLICT', 'The interview is already completed')
		if (interview.status === 'expired' && event.at > interview.deadlineAt)
			throw new AppError('CONFLICT', `The interview expired at its deadline (${interview.deadlineAt.toISOString()}) before this result`)
		const questions = await tx.select({ id: interviewQuestions.id }).from(interviewQuestions).where(eq(interviewQuestions.interviewId, interview.id))
		const known = new Set(questions.map((q) => q.id))
		const answers = event.result!.answers
		const unknown = answers.map((a, i) => ({ a, i })).filter(({ a }) => !known.has(a.questionId))
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
		for (const a of answers)
			await tx
				.update(interviewQuestions)
				.set({ transcript: a.transcript, score: a.score, durationSeconds: a.durationSeconds ?? null })
				.where(and(eq(interviewQuestions.id, a.questionId), eq(interviewQuestions.interviewId, interview.id)))
		const r = event.result!
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
		if (interview.ownerUserId) {
			await createTodo(tx, {
				workspaceId: interview.workspaceId,
				assigneeUserId: interview.ownerUserId,
				title: `Review ${cards.get(interview.candidateId)?.name.text ?? 'the candidate'}’s AI interview for ${titles.get(interview.jobId)?.text ?? 'the job'} (score ${r.overallScore})`,
				candidateId: interview.candidateId,
				applicationId: interview.applicationId,
				jobId: interview.jobId,
				dueAt: new Date(deps.now().getTime() + 24 * 3_600_000),
				source: 'interview',
				sourceRef: interview.id,
			})
		}
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
		return result('applied', 'completed')
	})
}
