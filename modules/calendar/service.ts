/**
 * The calendar: interviews, follow-ups (to-dos with a due time) and external busy times, merged
 * from the modules that contribute to the `calendarSources` port (port.ts), in start order.
 *
 * Rules:
 * - `from` and `to` are ISO 8601 dates or date-times; a date-time without an offset is UTC; a
 *   date alone is midnight UTC, and as `to` it means the end of that day. The instant each stands
 *   for (its offset applied) is in the years 1000 to 9998. Defaults: now, and 14
 *   days after the start. The end must follow the start; a window is at most 366 days.
 * - Scope `mine` is the person's own calendar; `team` adds everyone who shares a hiring team with
 *   them; `workspace` is everyone. Each source limits what it shows to what the person may see
 *   (hiring managers: their jobs' interviews and candidates); busy times never carry a title.
 */
import { and, eq, gt, lt, sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, invalid } from '../../core/errors.ts'
import { contributionsTo } from '../../core/registry.ts'
import { isSupportedYear } from '../../core/time.ts'
import { fetchSize, oneOf, pageOf, readCursor, TEXT, TIME } from '../../core/paging.ts'
import { CALENDAR_TYPES, calendarSources, type CalendarEntry, type CalendarSource, type CalendarType } from './port.ts'
import { afterPosition, compareMerged, sourcePosition, type MergedPosition } from '../../core/source-merge.ts'
import { SPACE, untrustedLine, type UntrustedText } from '../../core/untrusted.ts'
import { personRef, userNames } from '../auth/index.ts'
import { candidateCards } from '../candidates/index.ts'
import { jobLabels, teammateIds } from '../jobs/index.ts'
import { calendarBusy, calendarFeeds } from './table.ts'
import { inList } from '../../core/sql-list.ts'

export { CALENDAR_TYPES, type CalendarType } from './port.ts'
export const SCOPES = ['mine', 'team', 'workspace'] as const
export type Scope = (typeof SCOPES)[number]

const DAY = 86_400_000
const MAX_WINDOW_DAYS = 366
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?$/

/**
 * What `parseWhen` reads, as the JSON Schema pattern of the tool's `from` and `to` (so a client sees
 * the rule): a date, or a date-time with an optional offset, each number in its range, white space
 * around allowed but no control character (core's `SPACE`: `\s` holds vertical tab and form feed,
 * which the checker refuses in every string). What a pattern cannot say is checked when read: that the day exists (no
 * 02-30) and the year range.
 */
export const WHEN_PATTERN =
	`^${SPACE}*` +
	'\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])([Tt ]([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d([.,]\\d{1,9})?)?([Zz]|[+-]([01]\\d|2[0-3])(:?[0-5]\\d)?)?)?' +
	`${SPACE}*$`
const WHEN = new RegExp(WHEN_PATTERN, 'u')
export const WHEN_MESSAGE = 'must be an ISO 8601 date (2026-05-04) or date-time (2026-05-04T09:30:00Z)'

/** Parses an ISO 8601 date or date-time; `endOfDay` turns a date alone into the next midnight. */
export function parseWhen(value: string, field: string, endOfDay = false): Date {
	const bad = () => invalid([{ field, message: WHEN_MESSAGE }])
	const outOfRange = () => invalid([{ field, message: 'must be a date between the years 1000 and 9998' }])
	if (!WHEN.test(value)) throw bad()
	const v = value.trim()
	const d = DATE.exec(v)
	const dt = d ? null : DATE_TIME.exec(v)
	const m = d ?? dt
	if (!m) throw bad()
	const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
	// Date.UTC reads years 0–99 as 1900–1999: the written year is checked before it is used, the instant after.
	if (!isSupportedYear(year)) throw outOfRange()
	const [hour, minute, second] = dt ? [Number(dt[4]), Number(dt[5]), Number(dt[6] ?? 0)] : [0, 0, 0]
	const ms = dt?.[7] ? Math.floor(Number(`0.${dt[7]}`) * 1000) : 0
	const wall = Date.UTC(year, month - 1, day, hour, minute, second, ms)
	const check = new Date(wall)
	if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) throw bad()
	let offset = 0
	const zone = dt?.[8]
	if (zone && zone.toUpperCase() !== 'Z') {
		const z = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)!
		const minutes = Number(z[2]) * 60 + Number(z[3] ?? 0)
		if (Number(z[2]) > 23 || Number(z[3] ?? 0) > 59) throw bad()
		offset = (z[1] === '-' ? -1 : 1) * minutes * 60_000
	}
	// The instant's year, not the one written, is what must be supported: 1000-01-01T00:00+23:59 is in year 999,
	// 9998-12-31T23:00-05:00 in 9999 (a window from it ends in year 10000 before long).
	const instant = wall - offset
	if (!isSupportedYear(new Date(instant).getUTCFullYear())) throw outOfRange()
	return new Date(instant + (d && endOfDay ? DAY : 0))
}

export interface CalendarInput {
	from?: string
	to?: string
	scope?: Scope
	types?: CalendarType[]
	limit: number
	cursor?: string
}

export interface CalendarView {
	id: string
	type: CalendarType
	/** Our words ("AI video interview", "Busy"), or a follow-up's title as a person wrote it (labelled). */
	title: string | UntrustedText
	start: string
	end: string
	allDay: boolean
	status: string
	person: { userId: string; name: UntrustedText }
	candidate: { id: string; name: UntrustedText } | null
	job: { id: string; title: UntrustedText } | null
}

export interface CalendarPage {
	from: string
	to: string
	scope: Scope
	types: CalendarType[]
	events: CalendarView[]
	nextCursor: string | null
}

/** The cursor: the window's start, then the last entry's start, type and id. */
const CURSOR = [TIME, TIME, oneOf(CALENDAR_TYPES), TEXT] as const

export async function getCalendar(deps: AppDeps, actor: Actor, input: CalendarInput): Promise<CalendarPage> {
	if (!actor.userId) throw new AppError('FORBIDDEN', 'A calendar belongs to a person')
	const givenFrom = input.from !== undefined ? parseWhen(input.from, 'from') : undefined
	const givenTo = input.to !== undefined ? parseWhen(input.to, 'to', true) : undefined
	const scope = input.scope ?? 'mine'
	const types = input.types?.length ? CALENDAR_TYPES.filter((t) => input.types!.includes(t)) : [...CALENDAR_TYPES]

	// The cursor is bound to the arguments as given (a left-out `from` or `to` as "-") and carries
	// the start of the window it was made for: "now", the default start, moves between an
	// assistant's calls, and the next page must continue the same list.
	const cursorScope = `get_calendar:${actor.userId}:${asGiven(givenFrom)}:${asGiven(givenTo)}:${scope}:${types.join(',')}`
	const cursor = input.cursor ? readCursor(deps.secret, cursorScope, input.cursor, CURSOR) : undefined
	const after: MergedPosition | undefined = cursor && { at: cursor[1], type: cursor[2], id: cursor[3] }
	const windowStart = cursor?.[0]
	const from = givenFrom ?? windowStart ?? deps.now()
	const to = givenTo ?? new Date(from.getTime() + 14 * DAY)
	if (to <= from) throw invalid([{ field: 'to', message: `must be after from (${from.toISOString()})` }], 'The end of the window must follow its start')
	if (to.getTime() - from.getTime() > MAX_WINDOW_DAYS * DAY) throw invalid([{ field: 'to', message: `must be at most ${MAX_WINDOW_DAYS} days after from` }])
	const userIds = scope === 'mine' ? [actor.userId] : scope === 'team' ? await teammateIds(deps, actor.workspaceId, actor.userId) : null

	const sources = contributionsTo(deps.registry, calendarSources).filter((s): s is CalendarSource => (types as string[]).includes(s.type))
	const fetched = await Promise.all(
		sources.map((s) => s.entries(deps, actor, { from, to, userIds, after: sourcePosition(after, s.type), limit: fetchSize(input.limit) })),
	)
	const merged = fetched.flat().sort((a, b) => compareMerged(position(a), position(b)))
	const { page, nextCursor } = pageOf(deps.secret, cursorScope, merged, input.limit, (last) => [
		TIME.write(from),
		TIME.write(last.start),
		CURSOR[2].write(last.type as CalendarType),
		keyOf(last),
	])

	const [people, candidates, jobs] = await Promise.all([
		userNames(deps.db, unique(page.map((e) => e.userId)), actor),
		candidateCards(deps, actor, unique(page.map((e) => e.candidateId))),
		jobLabels(deps, actor, unique(page.map((e) => e.jobId))),
	])
	return {
		from: from.toISOString(),
		to: to.toISOString(),
		scope,
		types,
		events: page.map((e) => ({
			id: e.id,
			type: e.type,
			title: e.title,
			start: e.start.toISOString(),
			end: e.end.toISOString(),
			allDay: e.allDay,
			status: e.status,
			person: personRef(people, e.userId),
			// Sources only name candidates the person can reach; a follow-up of their own may mention another.
			candidate: e.candidateId && candidates.has(e.candidateId) ? { id: e.candidateId, name: candidates.get(e.candidateId)!.name } : null,
			job: e.jobId ? { id: e.jobId, title: jobs.get(e.jobId) ?? untrustedLine('', 'colleague') } : null,
		})),
		nextCursor,
	}
}

/** A date argument in a cursor's scope: its instant, or "-" when it was left to its default. */
const asGiven = (d: Date | undefined) => (d ? d.getTime().toString(36) : '-')
const keyOf = (e: CalendarEntry) => e.key ?? e.id
const position = (e: CalendarEntry): MergedPosition => ({ at: e.start, type: e.type, id: keyOf(e) })
const unique = (ids: (string | null)[]) => [...new Set(ids.filter((x): x is string => Boolean(x)))]

/** Busy times from people's own calendars: when, never what. */
export const externalSource: CalendarSource = {
	type: 'external',
	async entries(deps, actor, q) {
		const conditions = [
			eq(calendarBusy.workspaceId, actor.workspaceId),
			lt(calendarBusy.startsAt, q.to),
			gt(calendarBusy.endsAt, q.from),
			afterPosition(calendarBusy.startsAt, calendarBusy.id, q.after),
		]
		if (q.userIds) conditions.push(q.userIds.length ? sql`${calendarBusy.userId} in ${inList(q.userIds)}` : sql`false`)
		const rows = await deps.db
			.select()
			.from(calendarBusy)
			.where(and(...conditions))
			.orderBy(calendarBusy.startsAt, sql`${calendarBusy.id} collate "C"`)
			.limit(q.limit)
		return rows.map((r) => ({
			type: 'external',
			id: r.id,
			start: r.startsAt,
			end: r.endsAt,
			allDay: r.allDay,
			title: 'Busy',
			userId: r.userId,
			status: 'busy',
			candidateId: null,
			jobId: null,
		}))
	},
}

/**
 * Free/busy for scheduling: each person's busy times overlapping `[from, to)` from their own
 * calendar feed, and whether they connected one (without a feed, nothing is known of their time).
 */
export async function busyTimes(
	deps: AppDeps,
	workspaceId: string,
	userIds: readonly string[],
	from: Date,
	to: Date,
): Promise<Map<string, { connected: boolean; busy: { start: Date; end: Date; allDay: boolean }[] }>> {
	const out = new Map(userIds.map((id) => [id, { connected: false, busy: [] as { start: Date; end: Date; allDay: boolean }[] }]))
	if (!userIds.length) return out
	const people = sql`in ${inList(userIds)}`
	const [feeds, rows] = await Promise.all([
		deps.db
			.select({ userId: calendarFeeds.userId })
			.from(calendarFeeds)
			.where(and(eq(calendarFeeds.workspaceId, workspaceId), sql`${calendarFeeds.userId} ${people}`)),
		deps.db
			.select()
			.from(calendarBusy)
			.where(
				and(eq(calendarBusy.workspaceId, workspaceId), sql`${calendarBusy.userId} ${people}`, lt(calendarBusy.startsAt, to), gt(calendarBusy.endsAt, from)),
			)
			.orderBy(calendarBusy.startsAt)
			.limit(500),
	])
	for (const f of feeds) out.get(f.userId)!.connected = true
	for (const r of rows) out.get(r.userId)?.busy.push({ start: r.startsAt, end: r.endsAt, allDay: r.allDay })
	return out
}
