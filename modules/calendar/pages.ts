/** The calendar settings page: the person's external calendar feed. */
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { breakable, html, portalPage, raw } from '../../core/html.ts'
import { currentTimeZone, dayKey, formatDate, formatDay, formatTime, nextDay, startOfDay, zoneName } from '../../core/time.ts'
import { pageHeader, selectField, tag, textField, when } from '../../core/ui.ts'
import type { FeedView } from './feeds.ts'
import type { CalendarPage, CalendarView, Scope } from './service.ts'

export function calendarSettingsPage(
	deps: AppDeps,
	session: PageSession,
	view: { feed: FeedView | null; error?: string; notice?: string; value?: string },
): Response {
	const csrf = html`<input type="hidden" name="csrf" value="${session.csrf}">`
	const feed = view.feed
	return portalPage(
		deps,
		session,
		{ title: 'Calendar feed', current: '/settings/calendar', status: view.error ? 422 : 200 },
		html`<section class="card"><h1>Your external calendar</h1>
<p>Add the private iCal address of your Google, Outlook or Apple calendar. Benchline reads it every 15 minutes and shows only when you are busy, never what the events are.</p>
${view.notice ? html`<p class="notice" role="status">${view.notice}</p>` : ''}
${view.error ? html`<p class="error" role="alert">${view.error}</p>` : ''}
${
	feed
		? html`<dl class="facts"><div><dt>Feed</dt><dd>${breakable(feed.masked)}</dd></div>
<div><dt>Status</dt><dd>${feed.status === 'ok' ? 'Working' : feed.status === 'pending' ? 'Waiting for the first read' : 'Not working'}</dd></div>
<div><dt>Last read</dt><dd>${feed.lastFetchedAt ? when(feed.lastFetchedAt) : 'never'}</dd></div>
<div><dt>Busy times</dt><dd>${feed.busyCount}</dd></div></dl>
${feed.status === 'error' && feed.lastError ? html`<p class="error">${feed.lastError}</p>` : ''}
<p><form method="post" action="/settings/calendar/refresh" class="inline">${csrf}<button type="submit" class="secondary">Read it now</button></form>
<form method="post" action="/settings/calendar/remove" class="inline" data-confirm="Remove your calendar feed? Its busy times leave the calendar.">${csrf}<button type="submit" class="danger">Remove</button></form></p>`
		: html`<p>No calendar feed yet.</p>`
}
<h2>${feed ? 'Use another address' : 'Add your calendar'}</h2>
<form method="post" action="/settings/calendar" class="stack">
${csrf}
<label for="feed-url">iCal address <input id="feed-url" name="url" type="url" required maxlength="2000" value="${view.value ?? ''}" placeholder="https://calendar.google.com/calendar/ical/…/basic.ics"></label>
<button type="submit">Save and read</button>
</form></section>`,
	)
}

const TYPE_LABEL: Record<string, string> = { interview: 'Interview', followup: 'Follow-up', external: 'Busy' }

/**
 * One calendar entry in a line: its time in the reader's zone (named), kind, title, and the
 * candidate and job it is about; an entry that has ended is marked past. Listed under a `day`, a
 * start or end on another day carries its date: 23:30–00:30 under the second day would read as
 * that day's 23:30 otherwise. When the clocks change in between, each time is named with its zone
 * (01:30 EDT–01:30 EST): one name after both read as no time at all.
 */
export function entryLine(e: CalendarView, o: { person?: boolean; now?: Date; day?: string } = {}) {
	const start = new Date(e.start)
	const end = new Date(e.end)
	const at = (d: Date) => (o.day && dayKey(d) !== o.day ? `${formatDate(d)}, ${formatTime(d)}` : formatTime(d))
	const [from, to] = [zoneName(start), zoneName(end)]
	const time = e.allDay
		? 'All day'
		: html`<time datetime="${e.start}">${at(start)}</time>${from === to ? '' : ` ${from}`}–<time datetime="${e.end}">${at(end)}</time> ${to}`
	const past = o.now && end <= o.now
	return html`<span class="when">${time}</span> ${tag(TYPE_LABEL[e.type] ?? e.type, e.type === 'interview' ? 'info' : e.type === 'external' ? 'neutral' : 'warn')} ${e.title}${e.candidate ? html` · <a href="/candidates/${e.candidate.id}">${e.candidate.name}</a>` : ''}${e.job ? html` · <a href="/jobs/${e.job.id}">${e.job.title}</a>` : ''}${o.person ? html` <span class="meta">(${e.person.name})</span>` : ''}${past ? html` ${tag('Past')}` : ''}`
}

/**
 * The entries of one day in the reader's zone: every timed entry overlapping the day (one from
 * 23:30 to 00:30 is on both days, as the person is busy on both), and all-day entries covering it.
 */
export function entriesOn(events: readonly CalendarView[], day: string): CalendarView[] {
	const from = startOfDay(day)?.getTime()
	const to = startOfDay(nextDay(day))?.getTime()
	if (from === undefined || to === undefined) return []
	return events.filter((e) => {
		if (e.allDay) return e.start.slice(0, 10) <= day && day < e.end.slice(0, 10)
		const start = Date.parse(e.start)
		// An entry without length (start = end) belongs to the day it is at; one ending at midnight is not on the next day.
		return start < to && (Date.parse(e.end) > from || start >= from)
	})
}

/** A day's heading and its entries (the calendar's days, the home page's today and tomorrow); a day already over is marked past. */
export function daySection(o: { day: string; label?: string; events: readonly CalendarView[]; now: Date; person?: boolean; level?: 2 | 3 }) {
	const date = startOfDay(o.day)!
	const heading = html`${o.label ? `${o.label}, ` : ''}${formatDay(new Date(date.getTime() + 12 * 3_600_000))}${o.day < dayKey(o.now) ? html` ${tag('Past')}` : ''}`
	const entries = entriesOn(o.events, o.day)
	const h = o.level === 3 ? 'h3' : 'h2'
	return html`<section class="card day${o.day < dayKey(o.now) ? ' past' : ''}" aria-labelledby="day-${o.day}">${raw(`<${h} id="day-${o.day}">`)}${heading}${raw(`</${h}>`)}
${entries.length ? html`<ul class="queue">${entries.map((e) => html`<li${new Date(e.end) <= o.now ? raw(' class="past"') : ''}>${entryLine(e, { person: o.person, now: o.now, day: o.day })}</li>`)}</ul>` : html`<p class="empty">Nothing planned.</p>`}</section>`
}

export interface CalendarPageView {
	week: CalendarPage
	start: Date
	scope: Scope
	cursor?: string
}

/** The person's calendar for one week, day by day, with the team's or the workspace's on request. */
export function calendarPage(deps: AppDeps, session: PageSession, view: CalendarPageView): Response {
	const first = dayKey(view.start)
	const days = Array.from({ length: 7 }, (_, i) => nextDay(first, i))
	const link = (day: string) => `/calendar?from=${day}&scope=${view.scope}`
	const now = deps.now()
	const scopeLabel: Record<Scope, string> = { mine: 'Mine', team: 'My hiring teams', workspace: 'Everyone' }
	return portalPage(
		deps,
		session,
		{ title: 'Calendar', current: '/calendar' },
		html`${pageHeader({ title: 'Calendar', meta: html`Week of ${when(view.start, { time: false })} · times in your time zone, ${currentTimeZone()} (<a href="/settings/profile">change</a>)`, actions: html`<a href="/settings/calendar">Calendar feed</a>` })}
<form method="get" action="/calendar" class="filters card">
${textField({ id: 'from', label: 'Week starting', type: 'date', value: first })}
${selectField({ id: 'scope', label: 'Whose calendar', value: view.scope, options: (['mine', 'team', 'workspace'] as const).map((s) => [s, scopeLabel[s]] as const) })}
<button type="submit">Show</button></form>
<nav class="pager" aria-label="Weeks"><a href="${link(nextDay(first, -7))}">Previous week</a><a href="${link(nextDay(first, 7))}">Next week</a></nav>
${days.map((day) => daySection({ day, label: day === dayKey(now) ? 'Today' : undefined, events: view.week.events, now, person: view.scope !== 'mine' }))}
${view.week.nextCursor ? html`<p class="meta">This week has more entries than one page shows: <a href="${link(first)}&amp;cursor=${encodeURIComponent(view.week.nextCursor)}">the next ones</a>.</p>` : ''}`,
	)
}
