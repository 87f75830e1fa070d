/**
 * To-dos: what a person has to do, optionally about a candidate.
 *
 * Rules:
 * - People create to-dos for themselves (the to-dos page); flows create them for the person
 *   concerned (a document received, a completed interview) through `createFlowTodo`, at most once
 *   per source record and person. A flow's to-do goes to that person only while they are a member
 *   of the workspace who could see it (`visibleTo`); otherwise to the workspace's longest-standing
 *   owner. A flow's title is its own sentence, without names: the candidate and the job are named
 *   when it is shown, as the reader may see them then.
 * - A to-do is seen only by someone who can reach what it is about, by the records' own rule
 *   (`visibleTo`): its job and application (a hiring manager: their hiring teams' jobs), its candidate
 *   (unless they wrote it themselves), and for a flow's to-do the records of that flow (documents:
 *   `documents:read`; AI interviews: `interviews:read`). Others' words in it (title, notes) lose
 *   e-mail addresses and phone numbers for readers without `candidates:contact`.
 * - `list_todos` without a candidate lists the person's own to-dos, and for owners and admins also
 *   the open to-dos of people who left the workspace; with a candidate, every to-do about that
 *   candidate the reader may see, provided the candidate is within the person's reach.
 * - Order: open first (overdue and soonest due first, then those without a due time, newest
 *   first), then done (most recently done first).
 * - The assignee or the creator marks a to-do done or open again; owners and admins any to-do of
 *   the workspace (one whose assignee left or may no longer see it, too).
 */
import { and, eq, gt, isNull, sql, type SQL } from 'drizzle-orm'
import { isAdmin, type Actor, type PersonRole } from '../../core/actor.ts'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, invalid } from '../../core/errors.ts'
import { repeatWindowStart } from '../../core/repeats.ts'
import { bigintKey, idKey, integerKey, keysetPage } from '../../core/paging.ts'
import { cleanLine, cleanText, personAuthor, untrusted, untrustedLine, type UntrustedText } from '../../core/untrusted.ts'
import { lockUntilCommit, type Db } from '../../db/client.ts'
import { recordActivity } from '../activity/index.ts'
import { personRef, userNames } from '../auth/index.ts'
import { candidateCards, colleagueWords, requireCandidate } from '../candidates/index.ts'
import { jobLabels, reachableJobIds } from '../jobs/index.ts'
import { todos } from './table.ts'
import { navCount } from '../../core/nav-count.ts'
import { inList } from '../../core/sql-list.ts'
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
			// Several lines, but without what draws nothing or turns text around (U+202E), as titles.
			notes: input.notes ? cleanText(input.notes).trim() || null : null,
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

/** What a flow's to-do asks of whoever sees it, besides its job and candidate: the permission to see that flow's records. */
const FLOW_PERMISSIONS = { document: 'documents:read', interview: 'interviews:read' } as const

type Reader = Pick<Actor, 'workspaceId' | 'role' | 'userId' | 'grants'>

/**
 * The to-dos (aliased `t`) `reader` may see: of the workspace, of a flow whose records their role
 * sees, and, for a reader who does not reach every job (a hiring manager), about a job and an
 * application of the jobs they reach (`reachableJobIds`, the records' own rule) or none, and about
 * a candidate they reach (an applicant of those jobs) unless they wrote it themselves.
 */
export async function visibleTo(deps: AppDeps, reader: Reader): Promise<SQL> {
	const parts: SQL[] = [sql`t.workspace_id = ${reader.workspaceId}`]
	const hidden = Object.entries(FLOW_PERMISSIONS)
		.filter(([, key]) => !deps.permissions.can(reader, key))
		.map(([source]) => source)
	if (hidden.length) parts.push(sql`t.source not in ${inList(hidden)}`)
	const reach = await reachableJobIds(deps, reader as Actor)
	if (reach !== 'all') {
		const jobs = inList(reach)
		parts.push(
			sql`(t.job_id is null or t.job_id in ${jobs})`,
			sql`(t.application_id is null or exists (select 1 from applications ta where ta.id = t.application_id and ta.job_id in ${jobs}))`,
			sql`(t.candidate_id is null or (t.source = 'person' and t.created_by_user_id = ${reader.userId}) or exists (select 1 from applications tc where tc.candidate_id = t.candidate_id and tc.job_id in ${jobs}))`,
		)
	}
	return sql`(${sql.join(parts, sql` and `)})`
}

/** A current member of the workspace as a reader (null: not a member, or no longer one). */
async function member(deps: AppDeps, workspaceId: string, userId: string): Promise<Reader | null> {
	const [row] = await deps.database.rows<{ role: PersonRole; grants: string[] }>(
		sql`select m.role, m.grants from memberships m where m.workspace_id = ${workspaceId} and m.user_id = ${userId} and m.removed_at is null`,
	)
	return row ? { workspaceId, userId, role: row.role, grants: row.grants } : null
}

/**
 * Whom a flow's to-do (a document received, a completed AI interview) goes to: `userId` while they
 * are a member who may act on it (could see it: `visibleTo`), else the workspace's longest-standing
 * owner (the person who asked may have left, or lost the role or the job; the last owner cannot
 * leave, so there is one). Read before the flow's transaction (the embedded database has one
 * connection), as the flow's other reads are.
 */
export async function flowAssignee(
	deps: AppDeps,
	todo: { workspaceId: string; userId: string; source: string; jobId?: string | null; applicationId?: string | null; candidateId?: string | null },
): Promise<string> {
	const who = await member(deps, todo.workspaceId, todo.userId)
	if (who && deps.permissions.can(who, 'todos:read')) {
		const [seen] = await deps.database.rows(
			sql`select 1 from (values (${todo.workspaceId}::text, ${todo.source}::text, ${todo.jobId ?? null}::text, ${todo.applicationId ?? null}::text, ${todo.candidateId ?? null}::text, null::text)) as t(workspace_id, source, job_id, application_id, candidate_id, created_by_user_id) where ${await visibleTo(deps, who)}`,
		)
		if (seen) return todo.userId
	}
	const [owner] = await deps.database.rows<{ userId: string }>(
		sql`select m.user_id as "userId" from memberships m where m.workspace_id = ${todo.workspaceId} and m.role = 'owner' and m.removed_at is null order by m.created_at, m.user_id collate "C" limit 1`,
	)
	return owner?.userId ?? todo.userId
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
	const conditions: SQL[] = [await visibleTo(deps, actor)]
	if (input.candidateId) {
		await requireCandidate(deps, actor, input.candidateId)
		conditions.push(sql`t.candidate_id = ${input.candidateId}`)
	} else conditions.push(mine(actor))
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
 * The actor's own to-dos (aliased `t`); for owners and admins also the open ones of people who left
 * the workspace, so that none is left with nobody to do or close it.
 */
function mine(actor: Actor): SQL {
	const own = sql`t.assignee_user_id = ${actor.userId}`
	if (!isAdmin(actor)) return own
	return sql`(${own} or (t.done_at is null and not exists (select 1 from memberships tm where tm.workspace_id = t.workspace_id and tm.user_id = t.assignee_user_id and tm.removed_at is null)))`
}

type Shown = Pick<Row, 'id' | 'title' | 'source' | 'jobId' | 'candidateId' | 'createdByUserId'> & { notes?: string | null }

/**
 * Titles and notes as `actor` is shown them, labelled: a person's words (`person`), or a flow's
 * sentence, which carries no names, followed by the candidate's name and the job's label as they
 * read now and as the reader may see them (older flow titles named them already: labelled as the
 * candidate's words). Words the reader did not write lose e-mail addresses and phone numbers unless
 * they may see contact details.
 */
export async function shownLines(deps: AppDeps, actor: Actor, rows: Shown[]): Promise<Map<string, { title: UntrustedText; notes: UntrustedText | null }>> {
	const flows = rows.filter((r) => r.source !== 'person')
	const [cards, labels] = await Promise.all([
		candidateCards(deps, actor, [...new Set(flows.flatMap((r) => (r.candidateId ? [r.candidateId] : [])))]),
		jobLabels(deps, actor, [...new Set(flows.flatMap((r) => (r.jobId ? [r.jobId] : [])))]),
	])
	const words = colleagueWords(deps, actor)
	return new Map(
		rows.map((r) => {
			const named =
				r.source === 'person'
					? []
					: [r.candidateId ? cards.get(r.candidateId)?.name.text : undefined, r.jobId ? labels.get(r.jobId)?.text : undefined].filter(
							(n): n is string => Boolean(n) && !r.title.includes(n!),
						)
			const title = words(named.length ? `${r.title} — ${named.join(', ')}` : r.title, r.createdByUserId)
			return [
				r.id,
				{
					title: untrustedLine(title, r.source === 'person' ? personAuthor(r.createdByUserId, actor) : 'candidate', named.length ? 600 : 200),
					notes: r.notes ? untrusted(words(r.notes, r.createdByUserId), personAuthor(r.createdByUserId, actor), 2000) : null,
				},
			]
		}),
	)
}

async function views(deps: AppDeps, actor: Actor, rows: Row[]): Promise<TodoView[]> {
	const [cards, names, lines] = await Promise.all([
		candidateCards(deps, actor, [...new Set(rows.map((r) => r.candidateId).filter((x): x is string => Boolean(x)))]),
		userNames(
			deps.db,
			rows.flatMap((r) => [r.assigneeUserId, r.createdByUserId]).filter((x): x is string => Boolean(x)),
			actor,
		),
		shownLines(deps, actor, rows),
	])
	const now = deps.now().getTime()
	return rows.map((r) => {
		const card = r.candidateId ? cards.get(r.candidateId) : undefined
		return {
			id: r.id,
			...lines.get(r.id)!,
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
		const earlier = await repeatedTodo(deps, tx, actor.userId!, { ...input, title })
		if (earlier) return earlier
		const { id } = await createTodo(tx, {
			workspaceId: actor.workspaceId,
			assigneeUserId: actor.userId!,
			createdByUserId: actor.userId,
			title,
			notes: input.notes ?? null,
			dueAt: input.dueAt ?? null,
			candidateId: input.candidateId || null,
		})
		await recordActivity(tx, actor, { action: 'todo.created', targetType: 'todo', targetId: id, detail: { title } })
		return id
	})
}

/**
 * The same to-do the person added moments ago (a double click on Add): the one already made, decided
 * under a lock on the person's own to-dos (core/repeats.ts); null when this one is new.
 */
async function repeatedTodo(deps: AppDeps, tx: Db, userId: string, t: AddTodoInput): Promise<string | null> {
	await lockUntilCommit(tx, `todos:${userId}`)
	const notes = t.notes ? cleanText(t.notes).trim() || null : null
	const [earlier] = await tx
		.select({ id: todos.id })
		.from(todos)
		.where(
			and(
				eq(todos.assigneeUserId, userId),
				eq(todos.createdByUserId, userId),
				eq(todos.source, 'person'),
				eq(todos.title, t.title),
				notes === null ? isNull(todos.notes) : eq(todos.notes, notes),
				t.dueAt ? eq(todos.dueAt, t.dueAt) : isNull(todos.dueAt),
				t.candidateId ? eq(todos.candidateId, t.candidateId) : isNull(todos.candidateId),
				gt(todos.createdAt, repeatWindowStart(deps.now())),
			),
		)
		.limit(1)
	return earlier?.id ?? null
}

/** Marks a to-do done (or open again): its assignee or creator, or an owner or admin of the workspace. */
export async function setTodoDone(deps: AppDeps, actor: Actor, todoId: string, done: boolean): Promise<void> {
	await deps.db.transaction(async (tx) => {
		const [row] = await tx
			.select()
			.from(todos)
			.where(and(eq(todos.id, todoId), eq(todos.workspaceId, actor.workspaceId)))
		if (!row || (!isAdmin(actor) && row.assigneeUserId !== actor.userId && row.createdByUserId !== actor.userId))
			throw new AppError('NOT_FOUND', 'No to-do with this id')
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
		sql`select 1 from ${todos} t where ${await visibleTo(deps, actor)} and ${mine(actor)} and t.done_at is null and t.due_at < ${deps.now().toISOString()}::timestamptz`,
	)
}
