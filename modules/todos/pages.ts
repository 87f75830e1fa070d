/** The to-dos page: a person's own to-dos, a form to add one, done / open again. */
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { html, portalPage } from '../../core/html.ts'
import { dataTable, when } from '../../core/ui.ts'
import { currentTimeZone } from '../../core/time.ts'
import type { TodoView } from './service.ts'

export function todosPage(
	deps: AppDeps,
	session: PageSession,
	view: { todos: TodoView[]; more: string | null; error?: string; notice?: string; form?: Record<string, string> },
): Response {
	const csrf = html`<input type="hidden" name="csrf" value="${session.csrf}">`
	return portalPage(
		deps,
		session,
		{ title: 'To-dos', status: view.error ? 422 : 200 },
		html`<section class="card"><h1>Your to-dos</h1>
${view.notice ? html`<p class="notice" role="status">${view.notice}</p>` : ''}
${view.error ? html`<p class="error" role="alert">${view.error}</p>` : ''}
${dataTable<TodoView>({
	caption: 'Your to-dos',
	hideCaption: true,
	columns: [
		{
			label: 'To-do',
			cell: (t) =>
				html`${t.done ? html`<s>${t.title.text}</s>` : t.title.text}${t.source !== 'person' ? html` <span class="meta">(${t.source})</span>` : ''}${
					t.assignee.userId !== session.actor.userId ? html` <span class="meta">(${t.assignee.name.text || 'someone'}’s: they left the workspace)</span>` : ''
				}${t.notes ? html`<br><span class="meta">${t.notes.text}</span>` : ''}`,
		},
		{ label: 'Due', cell: (t) => html`${t.dueAt ? when(t.dueAt) : '—'}${t.overdue ? html` <strong class="field-error">overdue</strong>` : ''}` },
		{ label: 'Candidate', cell: (t) => (t.candidate ? html`<a href="/candidates/${t.candidate.id}">${t.candidate.name.text}</a>` : '—') },
		{
			label: 'Actions',
			cell: (t) =>
				html`<form method="post" action="/todos/${t.id}/${t.done ? 'reopen' : 'done'}" class="inline">${csrf}<button type="submit" class="secondary">${t.done ? 'Open again' : 'Done'}</button></form>`,
		},
	],
	rows: view.todos,
	empty: 'Nothing to do.',
})}
${view.more ? html`<p><a href="/todos?cursor=${view.more}">More</a></p>` : ''}
<h2>Add a to-do</h2>
<form method="post" action="/todos" class="stack">
${csrf}
<label for="todo-title">What <input id="todo-title" name="title" required maxlength="200" value="${view.form?.title ?? ''}"></label>
<label for="todo-due">Due (optional, your time: ${currentTimeZone()}) <input id="todo-due" name="dueAt" type="datetime-local" value="${view.form?.dueAt ?? ''}"></label>
<label for="todo-candidate">Candidate id (optional) <input id="todo-candidate" name="candidateId" maxlength="160" value="${view.form?.candidateId ?? ''}"></label>
<label for="todo-notes">Notes (optional) <textarea id="todo-notes" name="notes" maxlength="2000" rows="3">${view.form?.notes ?? ''}</textarea></label>
<button type="submit">Add</button>
</form></section>`,
	)
}
