import type { AppDeps } from './deps.ts'
import type { PageSession } from './http/auth.ts'
import type { SectionContext } from './module.ts'

/**
 * Server-rendered HTML: a tagged template that escapes every interpolation unless it is marked
 * `raw` (already-safe HTML such as the sanitised job description), and the page layout.
 */

export class SafeHtml {
	constructor(readonly value: string) {}
	toString() {
		return this.value
	}
}

export const raw = (value: string) => new SafeHtml(value)

export function escapeHtml(value: string): string {
	return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}

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

/** A link in the portal navigation (contributed by modules, see `ModuleDef.nav`). */
export interface NavLink {
	href: string
	label: string
	/** `work` links (Home, Jobs, Candidates, Inbox…) come first; `settings` links after them. Default `settings`. */
	section?: 'work' | 'settings'
	/** Position within its section, lowest first (Home 0, Jobs 10, Candidates 20, Inbox 30, Calendar 40, To-dos 50). */
	order?: number
	/** What waits there for the person (unread, overdue), shown beside the label when above 0 (`PageSession.navCounts`). */
	count?: number
	/** Words after the count for screen readers ("unread", "overdue"). */
	countLabel?: string
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

const byOrder = (a: NavLink, b: NavLink) => (a.order ?? 100) - (b.order ?? 100) || a.label.localeCompare(b.label)

function navigation(links: NavLink[], current: string | undefined, user: NonNullable<PageOptions['user']>): SafeHtml {
	const badge = (n: NavLink) =>
		n.count ? html` <span class="count">${n.count > 99 ? '99+' : n.count}<span class="visually-hidden"> ${n.countLabel ?? ''}</span></span>` : ''
	const link = (n: NavLink) => html`<a href="${n.href}"${n.href === current ? raw(' aria-current="page"') : ''}>${n.label}${badge(n)}</a>`
	const work = links.filter((n) => n.section === 'work').sort(byOrder)
	const settings = links.filter((n) => n.section !== 'work').sort(byOrder)
	const inSettings = settings.some((n) => n.href === current)
	return html`<nav aria-label="Main" class="main-nav">${work.map(link)}</nav>
<div class="account">
${settings.length ? html`<details class="more${inSettings ? ' current' : ''}"><summary>Settings</summary><nav aria-label="Settings and administration">${settings.map(link)}</nav></details>` : ''}
<form method="post" action="/sign-out" class="inline"><input type="hidden" name="csrf" value="${user.csrf}"><span class="who">${user.name}${user.workspace ? html` <span class="meta">· ${user.workspace}</span>` : ''}</span> <button type="submit" class="secondary">Sign out</button></form>
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
