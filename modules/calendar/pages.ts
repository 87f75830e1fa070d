/** The calendar settings page: the person's external calendar feed. */
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { html, portalPage } from '../../core/html.ts'
import type { FeedView } from './feeds.ts'

const when = (d: Date) => html`<time datetime="${d.toISOString()}">${d.toISOString().slice(0, 16).replace('T', ' ')} UTC</time>`

/** The address with its secret part hidden (feed addresses usually carry a private token). */
export function maskedUrl(url: string): string {
	const u = new URL(url)
	return `${u.protocol}//${u.host}/…${u.pathname.slice(-6)}`
}

export function calendarSettingsPage(deps: AppDeps, session: PageSession, view: { feed: FeedView | null; error?: string; notice?: string; value?: string }): Response {
	const csrf = html`<input type="hidden" name="csrf" value="${session.csrf}">`
	const feed = view.feed
	return portalPage(
		deps,
		session,
		{ title: 'Calendar', status: view.error ? 422 : 200 },
		html`<section class="card"><h1>Your external calendar</h1>
<p>Add the private iCal address of your Google, Outlook or Apple calendar. Benchline reads it every 15 minutes and shows only when you are busy, never what the events are.</p>
${view.notice ? html`<p class="notice" role="status">${view.notice}</p>` : ''}
${view.error ? html`<p class="error" role="alert">${view.error}</p>` : ''}
${feed
	? html`<dl class="facts"><div><dt>Feed</dt><dd>${maskedUrl(feed.url)}</dd></div>
<div><dt>Status</dt><dd>${feed.status === 'ok' ? 'Working' : feed.status === 'pending' ? 'Waiting for the first read' : 'Not working'}</dd></div>
<div><dt>Last read</dt><dd>${feed.lastFetchedAt ? when(feed.lastFetchedAt) : 'never'}</dd></div>
<div><dt>Busy times</dt><dd>${feed.busyCount}</dd></div></dl>
${feed.status === 'error' && feed.lastError ? html`<p class="error">${feed.lastError}</p>` : ''}
<p><form method="post" action="/settings/calendar/refresh" class="inline">${csrf}<button type="submit" class="secondary">Read it now</button></form>
<form method="post" action="/settings/calendar/remove" class="inline" data-confirm="Remove your calendar feed? Its busy times leave the calendar.">${csrf}<button type="submit" class="danger">Remove</button></form></p>`
	: html`<p>No calendar feed yet.</p>`}
<h2>${feed ? 'Use another address' : 'Add your calendar'}</h2>
<form method="post" action="/settings/calendar" class="stack">
${csrf}
<label for="feed-url">iCal address <input id="feed-url" name="url" type="url" required maxlength="2000" value="${view.value ?? ''}" placeholder="https://calendar.google.com/calendar/ical/…/basic.ics"></label>
<button type="submit">Save and read</button>
</form></section>`,
	)
}
