/**
 * The to-dos section of the candidate page: every to-do about the candidate (the service behind
 * `list_todos` with a candidate), and Add to-do (a to-do of one's own about this candidate).
 */
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { errorsOf, keptText } from '../../core/http/form.ts'
import { html } from '../../core/html.ts'
import type { PageSection, SectionContext } from '../../core/module.ts'
import { csrfField, dataTable, tag, textArea, textField, when } from '../../core/ui.ts'
import { listTodos, type TodoView } from './service.ts'

export const TODO_FORM = 'todo'
/** To-dos shown (open ones first, soonest due first): a candidate rarely has more. */
const SHOWN = 20

const status = (t: TodoView) => (t.done ? tag('Done', 'good') : t.overdue ? tag('Overdue', 'bad') : tag('Open', 'info'))

export const todosSection: PageSection = {
	page: 'candidate',
	order: 20,
	permission: 'todos:read',
	notices: { 'todo-added': 'The to-do was added to your to-dos.' },
	async render(deps: AppDeps, session: PageSession, candidateId: string, { refused, notice }: SectionContext = {}) {
		const list = await listTodos(deps, session.actor, { candidateId, limit: SHOWN })
		const errors = errorsOf(refused, TODO_FORM)
		return html`<section class="card" id="todos" aria-labelledby="todos-h"><h2 id="todos-h">To-dos</h2>
${dataTable<TodoView>({
	caption: 'To-dos about the candidate',
	hideCaption: true,
	rows: list.todos,
	empty: 'No to-dos about this candidate.',
	columns: [
		{ label: 'To-do', cell: (t) => html`${t.title}${t.notes ? html`<br><span class="meta">${t.notes}</span>` : ''}` },
		{ label: 'Due', cell: (t) => when(t.dueAt) },
		{ label: 'For', cell: (t) => t.assignee.name || '—' },
		{ label: 'Status', cell: status },
	],
})}
${list.nextCursor ? html`<p class="meta">The first ${SHOWN} are shown: open ones first, soonest due first.</p>` : ''}
${
	deps.permissions.can(session.actor, 'todos:write')
		? html`<form method="post" action="/candidates/${candidateId}/todos" class="stack" id="add-todo" novalidate><h3>Add a to-do</h3>
${csrfField(session)}
${textField({ id: 'todo-title', name: 'title', label: 'What to do', maxlength: 200, value: keptText(refused, TODO_FORM, 'title'), errors })}
${textField({ id: 'todo-due', name: 'dueAt', label: 'Due (optional)', hint: `Date and time, your time (${session.timeZone})`, type: 'datetime-local', value: keptText(refused, TODO_FORM, 'dueAt'), errors })}
${textArea({ id: 'todo-notes', name: 'notes', label: 'Notes (optional)', maxlength: 2000, rows: 2, value: keptText(refused, TODO_FORM, 'notes'), errors })}
<button type="submit">Add to-do</button>${notice}</form>`
		: ''
}</section>`
	},
}
