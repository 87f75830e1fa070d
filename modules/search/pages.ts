/**
 * The portal's search (`/search?q=`): the header's search box lands here. The best five of each
 * type the person may see, with how many match and "See all" to the type's list; it works without
 * script. The header's dropdown (app.js) shows the same results, asked as JSON (`searchAnswer`).
 */
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { html, portalPage } from '../../core/html.ts'
import { errorSummary, pageHeader, type FieldError } from '../../core/ui.ts'
import { textOf } from '../../core/untrusted.ts'
import type { SearchGroup } from './service.ts'

export interface SearchView {
	q: string
	groups: SearchGroup[] | null
	errors?: FieldError[]
}

/** One type's results in the words and links a person reads (the page and the dropdown share them). */
export function groupView(group: SearchGroup, query: string) {
	const plural = group.pages?.plural ?? group.type
	const count = `${group.found.toLocaleString('en-US')}${group.foundAtLeast ? '+' : ''}`
	const more = group.foundAtLeast || group.found > group.hits.length
	const seeAll =
		group.pages && more
			? {
					href: group.pages.seeAll(query),
					text: group.pages.seeAllFilters
						? `See all ${count} ${plural.toLowerCase()}`
						: `See all in the ${plural === 'Conversations' ? 'inbox' : plural.toLowerCase()}`,
				}
			: null
	return {
		type: group.type,
		label: plural,
		count,
		found: group.found,
		foundAtLeast: group.foundAtLeast,
		hits: group.hits.map((h) => ({ id: h.id, title: textOf(h.title), snippet: textOf(h.snippet), href: group.pages?.record(h.id) ?? null })),
		seeAll,
	}
}

/** The dropdown's answer: the page's results as JSON. */
export function searchAnswer(query: string, groups: SearchGroup[]) {
	return { query, groups: groups.map((g) => groupView(g, query)) }
}

export function searchPage(deps: AppDeps, session: PageSession, view: SearchView): Response {
	const groups = view.groups?.map((g) => groupView(g, view.q)) ?? []
	const total = groups.reduce((n, g) => n + g.found, 0)
	return portalPage(
		deps,
		session,
		{ title: view.q ? `Search: ${view.q}` : 'Search', current: '/search', hasErrors: Boolean(view.errors?.length), status: view.errors?.length ? 422 : 200 },
		html`${errorSummary(view.errors)}${pageHeader({ title: 'Search', meta: view.groups ? (total ? `Results for “${view.q}”` : `Nothing matches “${view.q}”.`) : null })}
<form method="get" action="/search" role="search" class="filters" aria-label="Search the portal">
<div class="field"><label for="q">Jobs, candidates and conversations</label>${
			view.errors?.length ? html`<span class="field-error" id="q-error">${view.errors[0]!.message}</span>` : ''
		}<input id="q" name="q" type="search" value="${view.q}" maxlength="120"${view.errors?.length ? html` aria-invalid="true" aria-describedby="q-error"` : ''}></div>
<button type="submit">Search</button>
</form>
${
	view.groups
		? html`<div class="grid-2 search-results">${groups.map(
				(g) => html`<section class="card" aria-labelledby="group-${g.type}"><h2 id="group-${g.type}">${g.label} <span class="meta">${g.count}</span></h2>
${
	g.hits.length
		? html`<ul class="queue">${g.hits.map((h) => html`<li>${h.href ? html`<a href="${h.href}">${h.title}</a>` : h.title}${h.snippet ? html`<br><span class="meta">${h.snippet}</span>` : ''}</li>`)}</ul>`
		: html`<p class="empty">No ${g.label.toLowerCase()} match.</p>`
}
${g.seeAll ? html`<p><a href="${g.seeAll.href}">${g.seeAll.text}</a></p>` : ''}</section>`,
			)}</div>`
		: html`<p class="meta">Type at least 2 characters. Press <kbd>/</kbd> on any page to search from its header.</p>`
}`,
	)
}
