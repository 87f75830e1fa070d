/**
 * The VTIMEZONE (RFC 5545 §3.6.5) of an IANA zone around an event, built from the runtime's own
 * time-zone data (Intl/ICU, as current as Bun or Node is) rather than a copy of tzdata that ages: the
 * UTC offsets are read with `@date-fns/tz`'s `tzOffset`, the same reading `TZDate` gives ical-generator
 * for the wall clock it writes under the TZID, so the definition and the times agree by construction.
 *
 * The definition covers a window of whole years: the one before the event's through the one after.
 * Its changes of offset are found by sampling the offset every day and halving the day of a change
 * down to the second (`@date-fns/tz`'s `tzScan` stops at whole UTC hours, which misplaces St John's
 * and Lord Howe's changes by half an hour). Written as:
 * - no change in the window: one STANDARD with the zone's offset;
 * - two offsets alternating, each change on the same weekday of the month (nth or last) at the same
 *   local time every year: one STANDARD and one DAYLIGHT with a yearly RRULE from the first change of
 *   the window, the shape Outlook turns into its one-rule zones (MS-STANOICAL 2.2.47; with several
 *   observances it keeps the last, MS-OXCICAL 2.1.3.1.1.19.2). The rule is checked over the window
 *   only, as any VTIMEZONE's rule holds until the zone's rules change (Israel's Friday before the last
 *   Sunday is the last Friday of March from 2025 to 2027);
 * - otherwise (Morocco's Ramadan, a zone changing its standard offset): one observance from the
 *   start of the window, then one per change, without RRULE.
 */
import { tzOffset } from '@date-fns/tz'

const SECOND = 1000
const MINUTE = 60 * SECOND
const DAY = 24 * 60 * MINUTE

/** A change of offset: the instant (ms) it takes effect, the offsets before and after (minutes east of UTC). */
export interface Change {
	at: number
	from: number
	to: number
}

/** A zone's offsets over whole years (`years` of them, from midnight there): the offset at `start`, then each change. */
export interface ZoneWindow {
	zone: string
	years: number
	start: number
	initial: number
	changes: Change[]
}

const windows = new Map<string, ZoneWindow | null>()
const MAX_CACHED = 2000

/**
 * The zone's offsets from the 1st of January of the year before the first instant to the end of the
 * year after the last (from midnight there); null for a zone the runtime does not know.
 */
export function zoneWindow(zone: string, instants: Date[]): ZoneWindow | null {
	const years = instants.map((d) => d.getUTCFullYear())
	const [first, last] = [Math.min(...years) - 1, Math.max(...years) + 1]
	const key = `${zone} ${first} ${last}`
	if (!windows.has(key)) {
		// The runtime's data does not change while it runs: a window is worked out once.
		if (windows.size >= MAX_CACHED) windows.clear()
		windows.set(key, scan(zone, first, last))
	}
	return windows.get(key) ?? null
}

function scan(zone: string, firstYear: number, lastYear: number): ZoneWindow | null {
	const offset = (at: number) => tzOffset(zone, new Date(at))
	const [newYear, end] = [Date.UTC(firstYear, 0, 1), Date.UTC(lastYear + 1, 0, 1)]
	const atNewYear = offset(newYear)
	if (!Number.isFinite(atNewYear)) return null
	// Midnight there, so that the first observance starts on the 1st of January of the zone's own calendar.
	const start = newYear - atNewYear * MINUTE
	const initial = offset(start)
	const changes: Change[] = []
	let [at, current] = [start, initial]
	for (let next = start + DAY; at < end; next = Math.min(next + DAY, end)) {
		// Each change within the day, the earliest first (one undone the same day would go unseen).
		while (offset(next) !== current) {
			const change = firstChange(offset, at, next, current)
			changes.push(change)
			;[at, current] = [change.at, change.to]
		}
		at = next
	}
	return { zone, years: lastYear - firstYear + 1, start, initial, changes }
}

/** The first whole second after `lo` whose offset is not `from`, given that `hi`'s is not. */
function firstChange(offset: (at: number) => number, lo: number, hi: number, from: number): Change {
	while (hi - lo > SECOND) {
		const mid = lo + Math.floor((hi - lo) / 2 / SECOND) * SECOND
		if (offset(mid) === from) lo = mid
		else hi = mid
	}
	return { at: hi, from, to: offset(hi) }
}

/**
 * Whether the wall clock of `at` shows twice in the zone (the hour clocks go back over): a TZID time
 * cannot say which of the two it is in a way calendar apps agree on (RFC 5545 §3.3.5 says the first,
 * ical.js reads the second).
 */
export function showsTwice(w: ZoneWindow, at: Date): boolean {
	const t = at.getTime()
	return w.changes.some((c) => c.to < c.from && t >= c.at - (c.from - c.to) * MINUTE && t < c.at + (c.from - c.to) * MINUTE)
}

/** The VTIMEZONE text (CRLF lines) defining `tzid` as the zone's offsets over the window. */
export function vtimezone(w: ZoneWindow, tzid: string = w.zone): string {
	const observances = yearlyRules(w) ?? explicitObservances(w)
	return ['BEGIN:VTIMEZONE', `TZID:${tzid}`, ...observances.flatMap(observanceLines), 'END:VTIMEZONE'].join('\r\n')
}

interface Observance {
	kind: 'STANDARD' | 'DAYLIGHT'
	/** When it takes effect (ms, UTC), written as the local time before it (RFC 5545: DTSTART with TZOFFSETFROM). */
	at: number
	from: number
	to: number
	rrule?: string
	name: string | null
}

function observanceLines(o: Observance): string[] {
	return [
		`BEGIN:${o.kind}`,
		`DTSTART:${localDateTime(o.at + o.from * MINUTE)}`,
		...(o.rrule ? [`RRULE:${o.rrule}`] : []),
		`TZOFFSETFROM:${utcOffset(o.from)}`,
		`TZOFFSETTO:${utcOffset(o.to)}`,
		...(o.name ? [`TZNAME:${o.name}`] : []),
		`END:${o.kind}`,
	]
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** `YYYYMMDDTHHMMSS` of a wall clock held as a UTC instant. */
function localDateTime(ms: number): string {
	const d = new Date(ms)
	return `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`
}

/** `+0530`, `-0300`; seconds only when there are some (local mean times of the 1800s). */
function utcOffset(minutes: number): string {
	const seconds = Math.round(Math.abs(minutes) * 60)
	const [h, m, s] = [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60, seconds % 60]
	return `${minutes < 0 ? '-' : '+'}${pad(h)}${pad(m)}${s ? pad(s) : ''}`
}

/**
 * The window's offset at its start, then each change; DAYLIGHT where the zone's own name for it says
 * so. A zone without a change is one STANDARD, whatever its name (Coyhaique keeps "Chile Summer Time").
 */
function explicitObservances(w: ZoneWindow): Observance[] {
	const lowest = Math.min(w.initial, ...w.changes.map((c) => c.to))
	const first = { at: w.start, from: w.initial, to: w.initial }
	return [first, ...w.changes].map((c) => ({
		...c,
		kind: w.changes.length && isDaylight(w.zone, c.at, c.to, lowest) ? 'DAYLIGHT' : 'STANDARD',
		name: abbreviation(w.zone, c.at),
	}))
}

/** `Central European Summer Time`, `Eastern Daylight Time`; a zone named only `GMT+03:00`: above its lowest offset. */
function isDaylight(zone: string, at: number, offset: number, lowest: number): boolean {
	const name = zoneNameAt(zone, at, 'en-US', 'long')
	return name.startsWith('GMT') ? offset > lowest : /daylight|summer/i.test(name)
}

/** Locales whose short names give the abbreviations in use: EST, BST and CEST, AEST and NZDT, IST. */
const ABBREVIATING = ['en-US', 'en-GB', 'en-AU', 'en-IN']

/** The zone's abbreviation at that instant (TZNAME), or null where Intl only has `GMT+4`. */
function abbreviation(zone: string, at: number): string | null {
	for (const locale of ABBREVIATING) {
		const name = zoneNameAt(zone, at, locale, 'short')
		if (/^[A-Z]{2,5}$/.test(name)) return name
	}
	return null
}

function zoneNameAt(zone: string, at: number, locale: string, style: 'long' | 'short'): string {
	const parts = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: style }).formatToParts(new Date(at))
	return parts.find((p) => p.type === 'timeZoneName')?.value ?? ''
}

const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA']

/**
 * One STANDARD and one DAYLIGHT with yearly RRULEs, when the window's changes are exactly one of each
 * every year, between the same two offsets, each on one weekday rule (nth or last of its month) at one
 * local time; null otherwise. The higher offset is DAYLIGHT, as Outlook's daylight bias expects.
 */
function yearlyRules(w: ZoneWindow): Observance[] | null {
	const offsets = new Set([w.initial, ...w.changes.map((c) => c.to)])
	if (offsets.size !== 2) return null
	const high = Math.max(...offsets)
	const observances: Observance[] = []
	for (const kind of ['DAYLIGHT', 'STANDARD'] as const) {
		const onsets = w.changes.filter((c) => (c.to === high) === (kind === 'DAYLIGHT'))
		const rrule = onsets.length === w.years ? yearlyRule(onsets) : null
		if (!rrule) return null
		const first = onsets[0]!
		observances.push({ ...first, kind, rrule, name: abbreviation(w.zone, first.at) })
	}
	return observances.sort((a, b) => a.at - b.at)
}

/** `FREQ=YEARLY;BYMONTH=3;BYDAY=2SU` when every onset (one a year, consecutive years) fits it; else null. */
function yearlyRule(onsets: Change[]): string | null {
	const local = onsets.map((c) => new Date(c.at + c.from * MINUTE))
	const [first] = local
	if (!first) return null
	const timeOfDay = (d: Date) => d.getTime() - Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate())
	const alike = local.every(
		(d, i) =>
			d.getUTCFullYear() === first.getUTCFullYear() + i &&
			d.getUTCMonth() === first.getUTCMonth() &&
			d.getUTCDay() === first.getUTCDay() &&
			timeOfDay(d) === timeOfDay(first),
	)
	if (!alike) return null
	const daysInMonth = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate()
	const nth = (d: Date) => Math.ceil(d.getUTCDate() / 7)
	// The last of the month first (Europe's rule), which the 4th of some years also is.
	const which = local.every((d) => d.getUTCDate() + 7 > daysInMonth(d)) ? -1 : local.every((d) => nth(d) === nth(first) && nth(d) < 5) ? nth(first) : null
	if (which === null) return null
	return `FREQ=YEARLY;BYMONTH=${first.getUTCMonth() + 1};BYDAY=${which}${WEEKDAYS[first.getUTCDay()]}`
}
