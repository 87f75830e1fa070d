/** The to-dos page (a person's own to-dos). */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, invalid } from '../../core/errors.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { doneNotice, formText, seeOther } from '../../core/http/form.ts'
import type { HttpKit } from '../../core/module.ts'
import { parseLocalInput } from '../../core/time.ts'
import { todosPage } from './pages.ts'
import { addTodo, listTodos, setTodoDone } from './service.ts'

const OUT_OF_DATE = 'This page’s address was changed: start again from the first page.'
/** Confirmations after a form (Post/Redirect/Get). */
const DONE: Record<string, string> = { added: 'The to-do was added.', done: 'Marked done.', reopen: 'Open again.' }
const form = t.Object({ csrf: t.Optional(t.String()) }, { additionalProperties: true })
/**
 * A due time as a `datetime-local` field sends it, read in the person's time zone (core/time.ts):
 * null when empty; throws 422 when it is not one.
 */
export function parseDueAt(value: string, zone: string): Date | null {
	const due = value.trim()
	if (!due) return null
	const at = parseLocalInput(due, zone)
	if (!at) throw invalid([{ field: 'dueAt', message: 'must be a date and time' }])
	return at
}

export function todoRoutes(deps: AppDeps, kit: HttpKit) {
	const show = async (session: PageSession, extra: { error?: string; notice?: string; form?: Record<string, string>; cursor?: string } = {}) => {
		try {
			const list = await listTodos(deps, session.actor, { limit: 50, cursor: extra.cursor })
			return todosPage(deps, session, { todos: list.todos, more: list.nextCursor, ...extra })
		} catch (error) {
			// A page address that was changed by hand: said on the page (as /activity does), not the error page.
			if (!(error instanceof AppError) || error.code !== 'VALIDATION' || !extra.cursor) throw error
			return todosPage(deps, session, { todos: [], more: null, ...extra, error: OUT_OF_DATE })
		}
	}
	return new Elysia({ name: 'todos.routes' })
		.use(kit.auth)
		.get('/todos', ({ session, query }) => show(session, { cursor: query.cursor, notice: doneNotice(DONE, query.done) }), {
			session: { permission: 'todos:write' },
			query: t.Object({ cursor: t.Optional(t.String({ maxLength: 200 })), done: t.Optional(t.String({ maxLength: 20 })) }),
		})
		.post(
			'/todos',
			async ({ session, body }) => {
				const f = Object.fromEntries(['title', 'dueAt', 'candidateId', 'notes'].map((k) => [k, formText(body, k)]))
				try {
					await addTodo(deps, session.actor, {
						title: f.title!,
						notes: f.notes,
						dueAt: parseDueAt(f.dueAt!, session.timeZone),
						candidateId: f.candidateId!.trim() || undefined,
					})
					return seeOther('/todos', 'added')
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
				return seeOther('/todos', params.action)
			},
			{ session: { permission: 'todos:write' }, body: form },
		)
}
