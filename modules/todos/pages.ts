/** The to-dos page: a person's own to-dos, a form to add one, done / open again. */
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { html, portalPage } from '../../core/html.ts'
import type { TodoView } from './service.ts'

const when = (iso: string) => html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`

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
${
	view.todos.length === 0
		? html`<p>Nothing to do.</p>`
		: html`<div class="table-wrap"><table><thead><tr><th>To-do</th><th>Due</th><th>Candidate</th><th></th></tr></thead><tbody>
${view.todos.map(
	(
		t,
	) => html`<tr><td>${t.done ? html`<s>${t.title.text}</s>` : t.title.text}${t.source !== 'person' ? html` <span class="meta">(${t.source})</span>` : ''}${t.notes ? html`<br><span class="meta">${t.notes.text}</span>` : ''}</td>
<td>${t.dueAt ? when(t.dueAt) : '—'}${t.overdue ? html` <strong class="field-error">overdue</strong>` : ''}</td>
<td>${t.candidate?.name.text ?? '—'}</td>
<td><form method="post" action="/todos/${t.id}/${t.done ? 'reopen' : 'done'}" class="inline">${csrf}<button type="submit" class="secondary">${t.done ? 'Open again' : 'Done'}</button></form></td></tr>`,
)}</tbody></table></div>`
}
${view.more ? html`<p><a href="/todos?cursor=${view.more}">More</a></p>` : ''}
<h2>Add a to-do</h2>
<form method="post" action="/todos" class="stack">
${csrf}
<label for="todo-title">What <input id="todo-title" name="title" required maxlength="200" value="${view.form?.title ?? ''}"></label>
<label for="todo-due">Due (UTC, optional) <input id="todo-due" name="dueAt" type="datetime-local" value="${view.form?.dueAt ?? ''}"></label>
<label for="todo-candidate">Candidate id (optional) <input id="todo-candidate" name="candidateId" maxlength="160" value="${view.form?.candidateId ?? ''}"></label>
<label for="todo-notes">Notes (optional) <textarea id="todo-notes" name="notes" maxlength="2000" rows="3">${view.form?.notes ?? ''}</textarea></label>
<button type="submit">Add</button>
</form></section>`,
	)
}
