/** Add to-do on the candidate page: a to-do of one's own about the candidate (`addTodo`). */
import { Elysia } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { formBody, formText, isRefusal, refusedForm } from '../../core/http/form.ts'
import type { HttpKit } from '../../core/module.ts'
import { candidatePage } from '../candidates/index.ts'
import { TODO_FORM } from './candidate-section.ts'
import { parseDueAt } from './routes.ts'
import { addTodo } from './service.ts'

export function candidateTodoRoutes(deps: AppDeps, { auth }: HttpKit) {
	return new Elysia({ name: 'todos.candidate-pages' }).use(auth).post(
		'/candidates/:id/todos',
		async ({ session, params, body, redirect }) => {
			const values = { title: formText(body, 'title'), dueAt: formText(body, 'dueAt'), notes: formText(body, 'notes') }
			try {
				await addTodo(deps, session.actor, {
					candidateId: params.id,
					title: values.title,
					notes: values.notes,
					dueAt: parseDueAt(values.dueAt, session.timeZone),
				})
				return redirect(`/candidates/${encodeURIComponent(params.id)}?done=todo-added#done`, 303)
			} catch (error) {
				if (!isRefusal(error)) throw error
				const refused = refusedForm(TODO_FORM, values, error, {
					title: ['todo-title', 'What to do'],
					dueAt: ['todo-due', 'Due'],
					notes: ['todo-notes', 'Notes'],
				})
				return candidatePage(deps, session, params.id, { refused, status: error.status })
			}
		},
		{ session: { permission: 'todos:write' }, body: formBody },
	)
}
