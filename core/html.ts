import type { AppDeps } from './deps.ts'
import type { NavLink, PageSession, SectionContext } from './module.ts'
import { raw, SafeHtml } from './safe-html.ts'
import { badgeText } from './nav-count.ts'

export { raw, SafeHtml }
export type { NavLink }

/**
 * Server-rendered HTML: a tagged template that escapes every interpolation unless it is marked
 * `raw` (already-safe HTML such as the sanitised job description), and the page layout.
 */

export function escapeHtml(value: string): string {
	return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}

/** JSON that is safe inside a `<script>` data block: `<` escaped, so no `</script>` or `<!--` can end it early. */
export const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c')

/**
 * Text labelled as untrusted for assistants (`core/untrusted.ts` envelopes) is shown to people as
 * its text, escaped like any other: services hand pages the same results as tools.
 */
export const isEnvelope = (value: unknown): value is { untrusted: true; text: string } =>
	typeof value === 'object' && value !== null && (value as { untrusted?: unknown }).untrusted === true && typeof (value as { text?: unknown }).text === 'string'

/** The plain text of a value that may be an untrusted-text envelope (for sorting, comparing, lengths). */
export { textOf } from './untrusted.ts'

function render(value: unknown): string {
	if (value === null || value === undefined || value === false) return ''
	if (value instanceof SafeHtml) return value.value
	if (isEnvelope(value)) return escapeHtml(value.text)
	if (Array.isArray(value)) return value.map(render).join('')
	return escapeHtml(String(value))
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
	let out = strings[0]!
	for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]
	return new SafeHtml(out)
}

/**
 * A long unbroken token (a web address, an e-mail address, a path, a file name) with a break
 * opportunity (`<wbr>`) after each `/`, `.`, `@`, `-`, `_`, `?`, `&`, `=`, `#`: it wraps at those
 * points and never inside a word. The stylesheet breaks normal text only where a word alone cannot
 * fit (`overflow-wrap: break-word`), so tokens like these get their points here. Copying the text
 * copies it whole (`<wbr>` adds no characters).
 */
export function breakable(value: unknown): SafeHtml {
	const text = isEnvelope(value) ? value.text : value === null || value === undefined ? '' : String(value)
	return new SafeHtml(
		text
			.split(/(?<=[/.@\-_?&=#])(?=\S)/)
			.map(escapeHtml)
			.join('<wbr>'),
	)
}

export interface PageOptions {
	title: string
	/** Signed-in person shown in the header with a sign-out button (needs `csrf`). */
	user?: { name: string; csrf: string; workspace?: string } | null
	/** Extra elements for <head> (JSON-LD, canonical link). */
	head?: SafeHtml
	/** Navigation links shown to a signed-in person. */
	nav?: NavLink[]
	/** The navigation link of this page (marked as the current one). */
	current?: string
	/** True when the page shows form errors: the title starts with "Error: " (read first by screen readers). */
	hasErrors?: boolean
	status?: number
}

/** Work links from this order on (Analytics, Interviews, Vendors, Bench) go under More at desktop widths. */
const MORE_FROM = 60

const byOrder = (a: NavLink, b: NavLink) => (a.order ?? 100) - (b.order ?? 100) || a.label.localeCompare(b.label)

/**
 * The header's search box: a form that works without script (its results page), and a combobox
 * (WAI-ARIA APG, list autocomplete) once app.js has run: the listbox shows the same results, asked
 * of the same address as JSON. `/` focuses it from anywhere on the page.
 */
function searchBox(search: NavLink): SafeHtml {
	return html`<form method="get" action="${search.href}" role="search" class="site-search" aria-label="Search the portal">
<label for="site-search" class="visually-hidden">Search jobs, candidates and conversations</label>
<input id="site-search" name="q" type="search" placeholder="Search (press /)" autocomplete="off" maxlength="120" required minlength="2" role="combobox" aria-expanded="false" aria-controls="site-search-results" aria-autocomplete="list" aria-describedby="site-search-keys" data-site-search>
<span id="site-search-keys" class="visually-hidden">Press Enter for every result; with results listed, the arrow keys move through them.</span>
<div id="site-search-results" class="search-pop" role="listbox" aria-label="Search results" hidden></div>
<span class="visually-hidden" aria-live="polite" data-search-status></span>
</form>`
}

/** Every keyboard shortcut of the portal, shown by `?` (and the Keyboard shortcuts button): README lists the same. */
export const SHORTCUTS: readonly (readonly [string, string])[] = [
	['/', 'Focus the search box'],
	['?', 'Show this list of shortcuts'],
	['↓ ↑', 'In the search box: move through the results'],
	['Enter', 'In the search box: open the chosen result, or every result'],
	['Esc', 'Close the search results, the menu or this list'],
]

const shortcutsDialog = html`<dialog id="shortcuts" class="shortcuts" aria-labelledby="shortcuts-title">
<h2 id="shortcuts-title">Keyboard shortcuts</h2>
<dl>${SHORTCUTS.map(([keys, what]) => html`<dt>${keys.split(' ').map((k) => html`<kbd>${k}</kbd> `)}</dt><dd>${what}</dd>`)}</dl>
<form method="dialog"><button type="submit">Close</button></form>
</dialog>`

function navigation(links: NavLink[], current: string | undefined, user: NonNullable<PageOptions['user']>): SafeHtml {
	const badge = (n: NavLink) =>
		n.count ? html` <span class="count">${badgeText(n.count)}<span class="visually-hidden"> ${n.countLabel ?? ''}</span></span>` : ''
	const link = (n: NavLink, extra = false) =>
		html`<a href="${n.href}"${extra ? raw(' class="nav-extra"') : ''}${n.href === current ? raw(' aria-current="page"') : ''}>${n.label}${badge(n)}</a>`
	const work = links.filter((n) => n.section === 'work').sort(byOrder)
	// At 1280 px eleven links, the search box and the account do not fit on one line: the later
	// links that count nothing go under More there (each is in the line too, shown instead of More
	// on a wider screen and in the phone's menu; CSS shows one of the two).
	const extra = work.filter((n) => (n.order ?? 100) >= MORE_FROM && !n.countLabel)
	const inExtra = extra.some((n) => n.href === current)
	const settings = links.filter((n) => n.section !== 'work' && n.section !== 'search').sort(byOrder)
	const search = links.find((n) => n.section === 'search')
	const inSettings = settings.some((n) => n.href === current)
	// On a phone the Menu button (app.js) shows and hides the links; without script they stay shown.
	return html`${search ? searchBox(search) : ''}
<button type="button" class="menu-button secondary" aria-expanded="false" aria-controls="site-menu" data-menu-button hidden data-needs-script>Menu</button>
<div id="site-menu" class="site-menu">
<nav aria-label="Main" class="main-nav">${work.map((n) => link(n, extra.includes(n)))}${
		extra.length
			? html`<details class="more nav-more${inExtra ? ' current' : ''}"><summary>More</summary><nav aria-label="More pages">${extra.map((n) => link(n))}</nav></details>`
			: ''
	}</nav>
<div class="account">
${settings.length ? html`<details class="more${inSettings ? ' current' : ''}"><summary>Settings</summary><nav aria-label="Settings and administration"><span class="who">${user.name}${user.workspace ? html` <span class="meta">· ${user.workspace}</span>` : ''}</span>${settings.map((n) => link(n))}<button type="button" class="link-button" data-shortcuts hidden data-needs-script>Keyboard shortcuts</button></nav></details>` : ''}
<form method="post" action="/sign-out" class="inline"><input type="hidden" name="csrf" value="${user.csrf}"><button type="submit" class="secondary">Sign out</button></form>
</div>
</div>`
}

/**
 * app.js runs before the body is parsed (not `defer`): its handlers listen on the document, so no
 * button or form on the page exists before them. Deferred, it ran after the page was shown, and a
 * person (or a test) quick enough could press Revoke before the confirmation was wired: the form
 * was sent unasked. It is small and cached; what needs the page's elements waits for DOMContentLoaded.
 */
const appScript = html`<script src="/static/app.js"></script>`

export function page(options: PageOptions, body: SafeHtml): Response {
	const doc = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.hasErrors ? 'Error: ' : ''}${options.title} · Benchline</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/app.css">
${appScript}
${options.head ?? ''}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<a class="brand" href="${options.user ? '/portal' : '/'}">Benchline</a>
${options.user ? navigation(options.nav ?? [], options.current, options.user) : ''}
</header>
<main id="main" tabindex="-1">
${body}
</main>
${options.user ? shortcutsDialog : ''}
</body>
</html>`
	return new Response(doc.value, { status: options.status ?? 200, headers: { 'content-type': 'text/html; charset=utf-8' } })
}

/** The navigation links a signed-in person may follow (what the modules contribute, limited by permission), with their counts. */
export function navFor(deps: Pick<AppDeps, 'registry' | 'permissions'>, session: PageSession): NavLink[] {
	return deps.registry.modules
		.flatMap((m) => m.nav ?? [])
		.filter((n) => !n.permission || deps.permissions.can(session.actor, n.permission))
		.map(({ counter, ...n }) => ({ ...n, count: session.navCounts?.[n.href] }))
}

/**
 * What waits for the person behind each navigation link that counts something (unread
 * notifications and conversations, overdue to-dos), asked of the modules once per page view (the
 * session macro, for GET requests). A count that fails is left out: the page is still shown.
 */
export async function navCountsFor(deps: AppDeps, session: PageSession): Promise<Record<string, number>> {
	const counted = deps.registry.modules
		.flatMap((m) => m.nav ?? [])
		.filter((n) => n.counter && (!n.permission || deps.permissions.can(session.actor, n.permission)))
	const counts = await Promise.all(
		counted.map((n) =>
			n.counter!(deps, session).catch((error) => {
				deps.log.warn('navigation count failed', { href: n.href, error })
				return 0
			}),
		),
	)
	return Object.fromEntries(counted.map((n, i) => [n.href, counts[i]!]))
}

/** A portal page for a signed-in person: the navigation is built from what the modules contribute. */
export function portalPage(
	deps: Pick<AppDeps, 'registry' | 'permissions'>,
	session: PageSession,
	options: Omit<PageOptions, 'user' | 'nav'>,
	body: SafeHtml,
): Response {
	return page({ ...options, user: { name: session.actor.name, csrf: session.csrf, workspace: session.actor.workspaceSlug }, nav: navFor(deps, session) }, body)
}

/** The sections other modules contribute to a record page, in order (those the person may see). */
export async function pageSections(deps: AppDeps, page: string, session: PageSession, recordId: string, context: SectionContext = {}): Promise<SafeHtml[]> {
	const sections = deps.registry.modules
		.flatMap((m) => m.pageSections ?? [])
		.filter((s) => s.page === page && (!s.permission || deps.permissions.can(session.actor, s.permission)))
		.sort((a, b) => a.order - b.order)
	const rendered = await Promise.all(
		sections.map((s) => {
			// The section whose form made the change shows the confirmation beside that form's button.
			const said = context.done && Object.hasOwn(s.notices ?? {}, context.done) ? s.notices![context.done] : undefined
			return s.render(deps, session, recordId, said ? { ...context, notice: actionNotice(said) } : context)
		}),
	)
	return rendered.filter((s): s is SafeHtml => s !== null)
}

/**
 * The confirmation of a change made by a form on the page, shown next to the button that made it:
 * the Post/Redirect/Get answer's address ends with the form's anchor, and the focus moves here
 * (`data-autofocus`, app.js) so a screen reader reads it out and the keyboard continues from it.
 */
export const actionNotice = (text: string) => html`<div class="notice action-notice" id="done" role="status" tabindex="-1" data-autofocus><p>${text}</p></div>`

/** The confirmation a section of a record page declares for `?done=<key>` (null for an unknown key). */
export function sectionNotice(deps: Pick<AppDeps, 'registry'>, page: string, key: string | undefined): string | null {
	if (!key) return null
	for (const m of deps.registry.modules)
		for (const s of m.pageSections ?? []) if (s.page === page && Object.hasOwn(s.notices ?? {}, key)) return s.notices![key]!
	return null
}
