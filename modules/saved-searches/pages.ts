/** The saved-searches page: save, rename and delete one's own searches, list by list. */
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { html, portalPage } from '../../core/html.ts'
import { dataTable } from '../../core/ui.ts'
import { MAX_SEARCH_CHARS } from '../../core/text-search.ts'
import { LIST_LABELS, SEARCH_LISTS, type SavedSearch, type SearchList } from './service.ts'

export interface SavedSearchesView {
	byList: Map<SearchList, SavedSearch[]>
	/** The lists the person may read: the only ones the save form offers. */
	lists: SearchList[]
	error?: string
	/** The answer's status with an error: 422 unless said (403: a list the person may not read). */
	status?: number
	notice?: string
	/** Values to show again in the save form after an error. */
	form?: { list?: string; name?: string; query?: string }
}

export function savedSearchesPage(deps: AppDeps, session: PageSession, view: SavedSearchesView): Response {
	const csrf = html`<input type="hidden" name="csrf" value="${session.csrf}">`
	const lists = SEARCH_LISTS.filter((l) => (view.byList.get(l) ?? []).length > 0)
	return portalPage(
		deps,
		session,
		{ title: 'Saved searches', status: view.error ? (view.status ?? 422) : 200 },
		html`<section class="card"><h1>Saved searches</h1>
<p>Name the searches you run often; assistant apps can read them with list_saved_searches. Only you see yours.</p>
${view.notice ? html`<p class="notice" role="status">${view.notice}</p>` : ''}
${view.error ? html`<p class="error" role="alert">${view.error}</p>` : ''}
<h2>Save a search</h2>
<form method="post" action="/saved-searches" class="stack">
${csrf}
<label for="ss-list">List <select id="ss-list" name="list">${view.lists.map((l) => html`<option value="${l}"${view.form?.list === l ? html` selected` : ''}>${LIST_LABELS[l]}</option>`)}</select></label>
<label for="ss-name">Name <input id="ss-name" name="name" required maxlength="80" value="${view.form?.name ?? ''}" placeholder="e.g. Java developers in Texas"></label>
<label for="ss-query">Search text <input id="ss-query" name="query" maxlength="${MAX_SEARCH_CHARS}" value="${view.form?.query ?? ''}" placeholder="e.g. java spring austin"></label>
<button type="submit">Save search</button>
</form>
${lists.length === 0 ? html`<p>You have no saved searches yet.</p>` : ''}
${lists.map(
	(l) => html`<h2>${LIST_LABELS[l]}</h2>
${dataTable<SavedSearch>({
	caption: `Saved searches: ${LIST_LABELS[l]}`,
	hideCaption: true,
	columns: [
		{ label: 'Name', cell: (s) => s.name },
		{
			label: 'Search text',
			cell: (s) =>
				html`${s.query || '—'}${
					Object.keys(s.filters).length
						? html` <span class="meta">${Object.entries(s.filters)
								.map(([k, v]) => `${k}: ${v}`)
								.join(', ')}</span>`
						: ''
				}`,
		},
		{
			label: 'Rename',
			cell: (s) =>
				html`<form method="post" action="/saved-searches/${s.id}/rename" class="inline">${csrf}<label class="meta" for="rn-${s.id}">New name</label><input id="rn-${s.id}" name="name" required maxlength="80" value="${s.name}"><button type="submit" class="secondary">Rename</button></form>`,
		},
		{
			label: 'Actions',
			cell: (s) =>
				html`<form method="post" action="/saved-searches/${s.id}/delete" class="inline" data-confirm="Delete the saved search “${s.name}”?">${csrf}<button type="submit" class="danger">Delete</button></form>`,
		},
	],
	rows: view.byList.get(l)!,
	empty: 'None.',
})}`,
)}
</section>`,
	)
}
