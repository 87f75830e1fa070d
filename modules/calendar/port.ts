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
 * Contributes calendar entries overlapping `[from, to)` for the given people (`null`: the whole
 * workspace), limited to what `actor` may see, ascending by `(start, id)` after `after`, at most `limit`.
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
