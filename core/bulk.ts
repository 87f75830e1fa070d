/**
 * Bulk actions on the portal's lists (issue 31): what one action did to each record it was asked
 * for, shown once on the page its form redirects to (Post/Redirect/Get). Each module's bulk service
 * calls its own per-record services (their rules, activity lines and events), so a bulk action is
 * one activity entry per record and a refusal of one record (role, reach, a rule) never stops the
 * others. The report crosses the redirect sealed in a short-lived cookie (`reveal-cookie.ts`),
 * bound to the session: reloading the report page shows nothing again and posts nothing.
 *
 * Two rules every bulk action shares, here so that none can drift:
 * - `bulkIds` / `overBulkLimit`: more than `BULK_LIMIT` records refuses the action as a whole, with
 *   nothing done and the report saying why — a selection is never cut short silently.
 * - `runBulk`: the records one at a time, each through its own service (its own transaction). A
 *   refusal (an `AppError` below 500) is that record's line; an unexpected failure is logged with its
 *   error and reported as that record's refusal ("Could not be done: …", no internals), and the
 *   others go on, so the report is always written.
 */
import type { AppDeps } from './deps.ts'
import { AppError, invalid } from './errors.ts'
import { html, portalPage } from './html.ts'
import type { PageSession } from './http/auth.ts'
import { revealCookie } from './http/reveal-cookie.ts'
import { plural, scrollingTable } from './ui.ts'

/** At most this many records per action: a list's page (the lists page 25 to 50). */
export const BULK_LIMIT = 50

/** The words refusing an action over `BULK_LIMIT` records (`what`: "candidates"), or null within it. */
export const overBulkLimit = (count: number, what: string): string | null =>
	count > BULK_LIMIT ? `choose at most ${BULK_LIMIT} ${what} at once (${count} were ticked)` : null

/**
 * The records of one action, the same id twice counted once. More than `BULK_LIMIT` is a
 * `VALIDATION` error on `field` (the whole action refused, nothing done): never cut silently.
 */
export function bulkIds(ids: readonly string[], field: string, what: string): string[] {
	const unique = [...new Set(ids)]
	const tooMany = overBulkLimit(unique.length, what)
	if (tooMany) throw invalid([{ field, message: `can be at most ${BULK_LIMIT} at once (${unique.length} were ticked)` }], tooMany)
	return unique
}

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

/** A refusal's words by default: an absent or out-of-reach record reads the same. */
const refusalWords = (error: AppError) => (error.code === 'NOT_FOUND' ? 'Not found, or not yours to change.' : `${error.message.replace(/\.$/, '')}.`)

/** The note of a record whose step failed unexpectedly: no internals (they are in the log). */
export const UNEXPECTED_NOTE = 'Could not be done: something went wrong on our side (it is logged). Try this one again on its own.'

export interface BulkRun<T> {
	/** What the action is, for the log line of an unexpected failure (e.g. `inbox.bulk-send`): no names, no free text. */
	action: string
	/** The record's name before its step knows better (a step may set `record.name`). */
	name: (item: T) => string
	/** One record through its own service, in its own transaction: what was done, with a note. */
	step: (item: T, record: { name: string }) => Promise<Omit<BulkLine, 'name'>>
	/** The words of a refusal (an `AppError` below 500); by default NOT_FOUND reads "Not found, or not yours to change.", others their message. */
	refusal?: (error: AppError) => string
}

/**
 * Each record through `step`, one after another. A refusal is reported for that record; any other
 * failure (a bug, the database refusing a statement) is logged with its error and reported as that
 * record's refusal without its details; either way the others go on and every record has a line.
 */
export async function runBulk<T>(deps: AppDeps, items: readonly T[], run: BulkRun<T>): Promise<BulkLine[]> {
	const lines: BulkLine[] = []
	for (const [index, item] of items.entries()) {
		const record = { name: run.name(item) }
		try {
			const outcome = await run.step(item, record)
			lines.push({ name: record.name, ...outcome })
		} catch (error) {
			if (error instanceof AppError && error.status < 500) {
				lines.push({ name: record.name, result: 'refused', note: (run.refusal ?? refusalWords)(error) })
				continue
			}
			deps.log.error('bulk action failed on one record', { action: run.action, index, of: items.length, error })
			lines.push({ name: record.name, result: 'refused', note: UNEXPECTED_NOTE })
		}
	}
	return lines
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
${scrollingTable(
	'bulk-lines',
	html`<table><caption id="bulk-lines" class="visually-hidden">What was done to each record</caption><thead><tr><th scope="col">Record</th><th scope="col">Result</th></tr></thead>
<tbody>${report.lines.map((l) => html`<tr><td>${l.name}</td><td><strong class="tag tag-${TONE[l.result]}">${WORDS[l.result]}</strong>${l.note ? html` <span class="meta">${l.note}</span>` : ''}</td></tr>`)}</tbody></table>`,
)}
<p><a href="${report.back}">Back to the list</a></p></section>`,
	)
}
