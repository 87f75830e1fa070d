/**
 * The calendar-source port: other modules contribute entries (interviews, follow-ups) with
 * `contribute(calendarSources, …)`, requiring this module; `get_calendar` merges them in start order.
 */
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { definePort, type SourcePosition } from '../../core/module.ts'
import type { UntrustedText } from '../../core/untrusted.ts'

/** The kinds of calendar entries, one per source: what `get_calendar` lists and filters by. */
export const CALENDAR_TYPES = ['interview', 'followup', 'external'] as const
export type CalendarType = (typeof CALENDAR_TYPES)[number]

/** One calendar entry. External busy times carry no title of their own (busy/free only). */
export interface CalendarEntry {
	/** The source's `type`. */
	readonly type: CalendarType
	/** Unique within the type. */
	readonly id: string
	/**
	 * Its place among the type's entries that start at the same instant, when the id cannot be it
	 * (`MAX_KEY`): unique within the type, letters, digits, `_` and `-`, at most 27 characters, since
	 * get_calendar's cursor (64 characters) carries it. The source orders and pages by `(start, key)`.
	 */
	readonly key?: string
	readonly start: Date
	readonly end: Date
	/** True for whole-day entries (start and end at midnight UTC). */
	readonly allDay: boolean
	/** Our own words ("AI video interview", "Busy"), or text a person wrote (a follow-up's title), labelled. */
	readonly title: string | UntrustedText
	/** The person whose calendar it is on. */
	readonly userId: string
	/** Type-specific state, e.g. the interview status or `open`/`done` for a follow-up. */
	readonly status: string
	readonly candidateId: string | null
	readonly jobId: string | null
}

/**
 * The longest `key` (or id, when it is the key) a cursor of get_calendar can carry: 64 characters,
 * less the window's start and the entry's (10 each for years 1000–9998), the type, three separators
 * and the signature (13).
 */
export const MAX_KEY = 27

/**
 * Contributes calendar entries overlapping `[from, to)` for the given people (`null`: the whole
 * workspace), limited to what `actor` may see, ascending by `(start, key ?? id)` after `after`, at most `limit`.
 */
export interface CalendarSource {
	readonly type: CalendarType
	entries(
		deps: AppDeps,
		actor: Actor,
		query: { from: Date; to: Date; userIds: readonly string[] | null; after?: SourcePosition; limit: number },
	): Promise<CalendarEntry[]>
}

export const calendarSources = definePort<CalendarSource>(
	'calendar:source',
	'Events shown by get_calendar (interviews, follow-ups, busy times), merged in start order',
)
