/**
 * Bulk actions on the portal's lists (issue 31): what one action did to each record it was asked
 * for, shown once on the page its form redirects to (Post/Redirect/Get). Each module's bulk service
 * calls its own per-record services (their rules, activity lines and events), so a bulk action is
 * one activity entry per record and a refusal of one record (role, reach, a rule) never stops the
 * others. The report crosses the redirect sealed in a short-lived cookie (`reveal-cookie.ts`),
 * bound to the session: reloading the report page shows nothing again and posts nothing.
 */
import type { AppDeps } from './deps.ts'
import { html, portalPage } from './html.ts'
import type { PageSession } from './http/auth.ts'
import { revealCookie } from './http/reveal-cookie.ts'
import { plural } from './ui.ts'

/** At most this many records per action: a list's page (the lists page 25 to 50). */
export const BULK_LIMIT = 50

/** What happened to one record: done, nothing to do (already so), or refused with the reason. */
export interface BulkLine {
	readonly name: string
	readonly result: 'done' | 'unchanged' | 'refused'
	/** For `unchanged` and `refused`: why, in words. */
	readonly note?: string
}

export interface BulkReport {
	/** What was asked, e.g. "Move to Screening". */
	readonly action: string
	/** The list to go back to (a local address). */
	readonly back: string
	readonly lines: readonly BulkLine[]
}

const isReport = (v: unknown): v is BulkReport =>
	typeof v === 'object' &&
	v !== null &&
	typeof (v as BulkReport).action === 'string' &&
	typeof (v as BulkReport).back === 'string' &&
	Array.isArray((v as BulkReport).lines)

/** Bytes of report JSON a cookie carries safely (browsers drop a cookie over about 4 KB; sealing adds a third). */
const REPORT_BYTES = 2400

/** The report made small enough for its cookie: names and notes shortened until it fits, then counted lines dropped into one. */
export function compactReport(report: BulkReport): BulkReport {
	const size = (r: BulkReport) => new TextEncoder().encode(JSON.stringify(r)).length
	for (const max of [80, 40, 24, 12]) {
		const cut = (s: string | undefined) => (s && s.length > max ? `${s.slice(0, max - 1)}…` : s)
		const r = { ...report, lines: report.lines.map((l) => ({ ...l, name: cut(l.name)!, note: cut(l.note) })) }
		if (size(r) <= REPORT_BYTES) return r
	}
	return { ...report, lines: report.lines.map((l) => ({ name: l.name.slice(0, 12), result: l.result })) }
}

/** The sealed cookie of one bulk action's report page (`path`: that page); what it seals is made to fit (`compactReport`). */
export function bulkReportCookie(name: string, path: string) {
	const cookie = revealCookie<BulkReport>(name, path, isReport)
	return { ...cookie, seal: (...[deps, jar, sessionId, value]: Parameters<typeof cookie.seal>) => cookie.seal(deps, jar, sessionId, compactReport(value)) }
}

/** A local address to go back to (a path on this site), else `fallback`. */
export const localBack = (value: string, fallback: string) => (/^\/[A-Za-z0-9/_\-?=&%.]*$/.test(value) && !value.startsWith('//') ? value : fallback)

/** The report page: a sentence of counts, then each record and what happened to it. */
export function bulkReportPage(deps: AppDeps, session: PageSession, report: BulkReport | null, fallback: { href: string; text: string }): Response {
	if (!report)
		return portalPage(
			deps,
			session,
			{ title: 'Bulk action' },
			html`<section class="card"><h1>Bulk action</h1><p>There is nothing to report: a bulk action’s report is shown once, right after it.</p><p><a href="${fallback.href}">${fallback.text}</a></p></section>`,
		)
	const count = (r: BulkLine['result']) => report.lines.filter((l) => l.result === r).length
	const [done, unchanged, refused] = [count('done'), count('unchanged'), count('refused')]
	const summary = [`${plural(done, 'record')} done`, unchanged ? `${unchanged} unchanged` : '', refused ? `${refused} refused` : ''].filter(Boolean).join(', ')
	const WORDS = { done: 'Done', unchanged: 'Unchanged', refused: 'Refused' } as const
	const TONE = { done: 'good', unchanged: 'neutral', refused: 'bad' } as const
	return portalPage(
		deps,
		session,
		{ title: `${report.action}: ${summary}` },
		html`<section class="card"><div class="notice" role="status"><p>${report.action}: ${summary}.</p></div>
<h1>${report.action}</h1>
<div class="table-wrap"><table><caption class="visually-hidden">What was done to each record</caption><thead><tr><th scope="col">Record</th><th scope="col">Result</th></tr></thead>
<tbody>${report.lines.map((l) => html`<tr><td>${l.name}</td><td><strong class="tag tag-${TONE[l.result]}">${WORDS[l.result]}</strong>${l.note ? html` <span class="meta">${l.note}</span>` : ''}</td></tr>`)}</tbody></table></div>
<p><a href="${report.back}">Back to the list</a></p></section>`,
	)
}
