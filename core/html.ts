import type { AppDeps } from './deps.ts'
import type { PageSession } from './http/auth.ts'

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

function render(value: unknown): string {
	if (value === null || value === undefined || value === false) return ''
	if (value instanceof SafeHtml) return value.value
	if (Array.isArray(value)) return value.map(render).join('')
	return escapeHtml(String(value))
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
	let out = strings[0]!
	for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]
	return new SafeHtml(out)
}

export interface PageOptions {
	title: string
	/** Signed-in person shown in the header with a sign-out button (needs `csrf`). */
	user?: { name: string; csrf: string } | null
	/** Extra elements for <head> (JSON-LD, canonical link). */
	head?: SafeHtml
	/** Navigation links shown to a signed-in person. */
	nav?: { href: string; label: string }[]
	status?: number
}

export function page(options: PageOptions, body: SafeHtml): Response {
	const doc = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · Benchline</title>
<link rel="stylesheet" href="/static/app.css">
<script src="/static/app.js" defer></script>
${options.head ?? ''}
</head>
<body>
<header class="top">
<a class="brand" href="/">Benchline</a>
${options.user
	? html`<nav aria-label="Main">${(options.nav ?? []).map((n) => html`<a href="${n.href}">${n.label}</a>`)}</nav>
<form method="post" action="/sign-out" class="inline"><input type="hidden" name="csrf" value="${options.user.csrf}"><span class="who">${options.user.name}</span> <button type="submit">Sign out</button></form>`
	: ''}
</header>
<main id="main">
${body}
</main>
</body>
</html>`
	return new Response(doc.value, { status: options.status ?? 200, headers: { 'content-type': 'text/html; charset=utf-8' } })
}

/** A portal page for a signed-in person: the navigation is built from what the modules contribute. */
export function portalPage(deps: Pick<AppDeps, 'registry' | 'permissions'>, session: PageSession, options: Omit<PageOptions, 'user' | 'nav'>, body: SafeHtml): Response {
	const nav = deps.registry.modules.flatMap((m) => m.nav ?? []).filter((n) => !n.permission || deps.permissions.can(session.actor, n.permission))
	return page({ ...options, user: { name: session.actor.name, csrf: session.csrf }, nav }, body)
}
