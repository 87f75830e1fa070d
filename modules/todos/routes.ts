/** The to-dos page (a person's own to-dos). */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, invalid } from '../../core/errors.ts'
import type { PageSession } from '../../core/http/auth.ts'
import type { HttpKit } from '../../core/module.ts'
import { todosPage } from './pages.ts'
import { addTodo, listTodos, setTodoDone } from './service.ts'

const form = t.Object({ csrf: t.Optional(t.String()) }, { additionalProperties: true })
const DATE_TIME_LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/

/** A due time as a `datetime-local` field sends it (read as UTC): null when empty; throws 422 when it is not one. */
export function parseDueAt(value: string): Date | null {
	const due = value.trim()
	if (!due) return null
	if (!DATE_TIME_LOCAL.test(due) || Number.isNaN(Date.parse(`${due}Z`))) throw invalid([{ field: 'dueAt', message: 'must be a date and time' }])
	return new Date(`${due}Z`)
}

export function todoRoutes(deps: AppDeps, kit: HttpKit) {
	const show = async (session: PageSession, extra: { error?: string; notice?: string; form?: Record<string, string>; cursor?: string } = {}) => {
		const list = await listTodos(deps, session.actor, { limit: 50, cursor: extra.cursor })
		return todosPage(deps, session, { todos: list.todos, more: list.nextCursor, ...extra })
	}
	return new Elysia({ name: 'todos.routes' })
		.use(kit.auth)
		.get('/todos', ({ session, query }) => show(session, { cursor: query.cursor }), {
			session: { permission: 'todos:write' },
			query: t.Object({ cursor: t.Optional(t.String({ maxLength: 64 })) }),
		})
		.post(
			'/todos',
			async ({ session, body }) => {
				const f = Object.fromEntries(['title', 'dueAt', 'candidateId', 'notes'].map((k) => [k, String((body as Record<string, unknown>)[k] ?? '')]))
				try {
					await addTodo(deps, session.actor, { title: f.title!, notes: f.notes, dueAt: parseDueAt(f.dueAt!), candidateId: f.candidateId!.trim() || undefined })
					return show(session, { notice: 'The to-do was added.' })
				} catch (error) {
					if (!(error instanceof AppError) || !['VALIDATION', 'NOT_FOUND'].includes(error.code)) throw error
					const message =
						error.code === 'NOT_FOUND'
							? 'There is no candidate with this id that you can see.'
							: (error.fields ?? []).map((x) => `${x.field === 'dueAt' ? 'Due' : x.field === 'title' ? 'What' : 'Notes'} ${x.message}`).join('; ') + '.'
					return show(session, { error: message, form: f })
				}
			},
			{ session: { permission: 'todos:write' }, body: form },
		)
		.post(
			'/todos/:id/:action',
			async ({ session, params }) => {
				if (params.action !== 'done' && params.action !== 'reopen') throw new AppError('NOT_FOUND', 'Not found')
				await setTodoDone(deps, session.actor, params.id, params.action === 'done')
				return show(session, { notice: params.action === 'done' ? 'Marked done.' : 'Open again.' })
			},
			{ session: { permission: 'todos:write' }, body: form },
		)
}
