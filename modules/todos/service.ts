/**
 * To-dos: what a person has to do, optionally about a candidate.
 *
 * Rules:
 * - People create to-dos for themselves (the to-dos page); flows create them for the person
 *   concerned (a document received, a completed interview) through `createTodo`, at most once per
 *   source record and person.
 * - `list_todos` without a candidate lists the person's own to-dos; with a candidate, every
 *   to-do about that candidate, provided the candidate is within the person's reach.
 * - Order: open first (overdue and soonest due first, then those without a due time, newest
 *   first), then done (most recently done first).
 * - Only the assignee or the creator marks a to-do done or open again.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, invalid } from '../../core/errors.ts'
import { bigintKey, idKey, integerKey, keysetPage } from '../../core/paging.ts'
import { cleanLine, untrusted, untrustedLine, type UntrustedText } from '../../core/untrusted.ts'
import type { Db } from '../../db/client.ts'
import { recordActivity } from '../activity/index.ts'
import { personRef, userNames } from '../auth/index.ts'
import { candidateCards, requireCandidate } from '../candidates/index.ts'
import { todos } from './table.ts'
import { navCount } from '../../core/nav-count.ts'
import { isoInstant, isoInstantOrNull } from '../../core/time.ts'

export interface NewTodo {
	workspaceId: string
	assigneeUserId: string
	title: string
	notes?: string | null
	dueAt?: Date | null
	candidateId?: string | null
	applicationId?: string | null
	jobId?: string | null
	/** `person` for people; the flow's name otherwise (`document`, `interview`, …). */
	source?: string
	/** The record that caused it: with `source`, a flow creates one to-do per record and person. */
	sourceRef?: string | null
	createdByUserId?: string | null
}

/** Creates a to-do inside the caller's transaction; a flow's repeat (same source, record and person) creates nothing. */
export async function createTodo(tx: Db, input: NewTodo): Promise<{ id: string; created: boolean }> {
	const title = cleanLine(input.title, 200)
	if (!title) throw new Error('a to-do needs a title')
	const id = newId('todo')
	const inserted = await tx
		.insert(todos)
		.values({
			id,
			workspaceId: input.workspaceId,
			assigneeUserId: input.assigneeUserId,
			createdByUserId: input.createdByUserId ?? null,
			candidateId: input.candidateId ?? null,
			applicationId: input.applicationId ?? null,
			jobId: input.jobId ?? null,
			title,
			notes: input.notes ?? null,
			dueAt: input.dueAt ?? null,
			source: input.source ?? 'person',
			sourceRef: input.sourceRef ?? null,
		})
		.onConflictDoNothing({ target: [todos.workspaceId, todos.source, todos.sourceRef, todos.assigneeUserId] })
		.returning({ id: todos.id })
	if (inserted.length) return { id, created: true }
	const [existing] = await tx
		.select({ id: todos.id })
		.from(todos)
		.where(
			and(
				eq(todos.workspaceId, input.workspaceId),
				eq(todos.source, input.source ?? 'person'),
				eq(todos.sourceRef, input.sourceRef ?? ''),
				eq(todos.assigneeUserId, input.assigneeUserId),
			),
		)
	return { id: existing!.id, created: false }
}

export interface TodoView {
	id: string
	title: UntrustedText
	notes: UntrustedText | null
	dueAt: string | null
	overdue: boolean
	done: boolean
	doneAt: string | null
	source: string
	candidate: { id: string; name: UntrustedText } | null
	jobId: string | null
	applicationId: string | null
	assignee: { userId: string; name: UntrustedText }
	createdBy: { userId: string; name: UntrustedText } | null
	createdAt: string
}

type Row = typeof todos.$inferSelect & { rank: number; sk: string }

/** Sort key: open first (due soonest, then undated newest first), then done (latest first). */
const RANK = sql<number>`(case when t.done_at is null then 0 else 1 end)`
const SORT_KEY = sql<string>`(case when t.done_at is null then coalesce(floor(extract(epoch from t.due_at) * 1000)::bigint, 9000000000000000 - floor(extract(epoch from t.created_at) * 1000)::bigint) else -floor(extract(epoch from t.done_at) * 1000)::bigint end)`

const ORDER = { keys: [integerKey<Row>(RANK, (r) => r.rank), bigintKey<Row>(SORT_KEY, (r) => r.sk), idKey<Row>(sql`t.id`, { bytewise: true })] }

export async function listTodos(deps: AppDeps, actor: Actor, input: { candidateId?: string; limit: number; cursor?: string }) {
	if (!actor.userId) throw new AppError('FORBIDDEN', 'To-dos belong to a person')
	const conditions: SQL[] = [sql`t.workspace_id = ${actor.workspaceId}`]
	if (input.candidateId) {
		await requireCandidate(deps, actor, input.candidateId)
		conditions.push(sql`t.candidate_id = ${input.candidateId}`)
	} else conditions.push(sql`t.assignee_user_id = ${actor.userId}`)
	const scope = `list_todos:${actor.userId}:${input.candidateId ?? ''}`
	const { rows, nextCursor } = await keysetPage(deps, {
		scope,
		cursor: input.cursor,
		limit: input.limit,
		order: ORDER,
		from: sql`select t.id, t.title, t.notes, t.due_at as "dueAt", t.done_at as "doneAt", t.source, t.candidate_id as "candidateId", t.job_id as "jobId", t.application_id as "applicationId", t.assignee_user_id as "assigneeUserId", t.created_by_user_id as "createdByUserId", t.created_at as "createdAt", ${RANK} as rank, ${SORT_KEY}::text as sk
from ${todos} t`,
		where: conditions,
	})
	return { todos: await views(deps, actor, rows), nextCursor }
}

/**
 * A to-do's title, labelled: a person's own words (`person`), or a flow's sentence that names the
 * candidate and the job (`document`, `interview`), so it carries the candidate's words.
 */
export const todoTitle = (r: { title: string; source: string }) => untrustedLine(r.title, r.source === 'person' ? 'colleague' : 'candidate', 200)

async function views(deps: AppDeps, actor: Actor, rows: Row[]): Promise<TodoView[]> {
	const [cards, names] = await Promise.all([
		candidateCards(deps, actor, [...new Set(rows.map((r) => r.candidateId).filter((x): x is string => Boolean(x)))]),
		userNames(
			deps.db,
			rows.flatMap((r) => [r.assigneeUserId, r.createdByUserId]).filter((x): x is string => Boolean(x)),
		),
	])
	const now = deps.now().getTime()
	return rows.map((r) => {
		const card = r.candidateId ? cards.get(r.candidateId) : undefined
		return {
			id: r.id,
			title: todoTitle(r),
			notes: r.notes ? untrusted(r.notes, 'colleague', 2000) : null,
			dueAt: isoInstantOrNull(r.dueAt),
			overdue: !r.doneAt && r.dueAt !== null && new Date(r.dueAt).getTime() < now,
			done: r.doneAt !== null,
			doneAt: isoInstantOrNull(r.doneAt),
			source: r.source,
			// A candidate out of the person's reach is not named (their own to-do may still mention one).
			candidate: card ? { id: card.id, name: card.name } : null,
			jobId: r.jobId,
			applicationId: r.applicationId,
			assignee: personRef(names, r.assigneeUserId),
			createdBy: r.createdByUserId ? personRef(names, r.createdByUserId) : null,
			createdAt: isoInstant(r.createdAt),
		}
	})
}

export interface AddTodoInput {
	title: string
	notes?: string
	dueAt?: Date | null
	candidateId?: string
}

/** A person's own to-do (the to-dos page). */
export async function addTodo(deps: AppDeps, actor: Actor, input: AddTodoInput): Promise<string> {
	if (!actor.userId) throw new AppError('FORBIDDEN', 'To-dos belong to a person')
	const title = cleanLine(input.title, 400)
	const problems = []
	if (!title || [...title].length > 200) problems.push({ field: 'title', message: 'must be 1 to 200 characters' })
	if (input.notes && [...input.notes].length > 2000) problems.push({ field: 'notes', message: 'must be at most 2,000 characters' })
	if (problems.length) throw invalid(problems)
	if (input.candidateId) await requireCandidate(deps, actor, input.candidateId)
	return deps.db.transaction(async (tx) => {
		const { id } = await createTodo(tx, {
			workspaceId: actor.workspaceId,
			assigneeUserId: actor.userId!,
			createdByUserId: actor.userId,
			title,
			notes: input.notes?.trim() || null,
			dueAt: input.dueAt ?? null,
			candidateId: input.candidateId || null,
		})
		await recordActivity(tx, actor, { action: 'todo.created', targetType: 'todo', targetId: id, detail: { title } })
		return id
	})
}

/** Marks a to-do done (or open again); only its assignee or creator may. */
export async function setTodoDone(deps: AppDeps, actor: Actor, todoId: string, done: boolean): Promise<void> {
	await deps.db.transaction(async (tx) => {
		const [row] = await tx
			.select()
			.from(todos)
			.where(and(eq(todos.id, todoId), eq(todos.workspaceId, actor.workspaceId)))
		if (!row || (row.assigneeUserId !== actor.userId && row.createdByUserId !== actor.userId)) throw new AppError('NOT_FOUND', 'No to-do with this id')
		if ((row.doneAt !== null) === done) return
		await tx
			.update(todos)
			.set({ doneAt: done ? deps.now() : null })
			.where(eq(todos.id, todoId))
		await recordActivity(tx, actor, { action: done ? 'todo.done' : 'todo.reopened', targetType: 'todo', targetId: todoId })
	})
}

/** The person's open to-dos whose due time has passed (the count beside To-dos in the navigation). */
export async function overdueCount(deps: AppDeps, actor: Actor): Promise<number> {
	if (!actor.userId) return 0
	return navCount(
		deps.database,
		sql`select 1 from ${todos} t where t.workspace_id = ${actor.workspaceId} and t.assignee_user_id = ${actor.userId} and t.done_at is null and t.due_at < ${deps.now().toISOString()}::timestamptz`,
	)
}
