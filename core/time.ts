/**
 * Times as people read and type them: every time the portal shows is in the reader's own time zone,
 * with the zone named, and every date and time a form takes is read in it. This is the one place
 * that formats and parses them (`core/ui.ts`'s `when` and the pages' date fields use it).
 *
 * The zone of the request being answered is kept for the request (`requestTimeZone`): the session
 * macro sets it from the signed-in person's profile, so a page (and every section other modules add
 * to it) formats in the reader's zone without passing it through every function that draws a date,
 * as Rails' per-request `Time.zone` does. Outside a request (mail, the CLI, workers) it is UTC, and
 * code that writes for a known person passes their zone explicitly.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

export const UTC = 'UTC'

/** The IANA zones people can choose (`America/Chicago`…), with UTC first. */
export const TIME_ZONES: readonly string[] = [UTC, ...Intl.supportedValuesOf('timeZone').filter((z) => z !== UTC)]

const known = new Set(TIME_ZONES)

/** A zone the runtime knows by its IANA name (aliases such as `US/Eastern` included). */
export function isTimeZone(zone: unknown): zone is string {
	if (typeof zone !== 'string' || zone.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(zone)) return false
	if (known.has(zone)) return true
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: zone })
		return true
	} catch {
		return false
	}
}

/**
 * The name a zone is kept under: a listed name as it is; another name the runtime knows (`asia/kolkata`,
 * the alias `Asia/Calcutta` some browsers report) spelled as the runtime spells it. Null for anything else.
 */
export function canonicalTimeZone(zone: unknown): string | null {
	if (!isTimeZone(zone)) return null
	return known.has(zone) ? zone : new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone
}

/** The zones to choose from, with `current` among them when it is a name the list does not hold (an alias). */
export const timeZoneChoices = (current: string | null | undefined): readonly string[] =>
	current && !known.has(current) && isTimeZone(current)
		? [...TIME_ZONES, current].sort((a, b) => (a === UTC ? -1 : b === UTC ? 1 : a.localeCompare(b)))
		: TIME_ZONES

// ---- The zone of the request being answered ----

const requestZone = new AsyncLocalStorage<{ zone: string }>()

/**
 * Opens the request's time-zone slot (UTC until a session says otherwise). Called by the app at the
 * start of every request, in the request's own execution context, so that what the session sets
 * later in the same request is seen by its handler and every page part it draws.
 */
export function openRequestTimeZone(): void {
	requestZone.enterWith({ zone: UTC })
}

/** The signed-in person's zone, for the rest of this request (the session macro). */
export function setRequestTimeZone(zone: string): void {
	const slot = requestZone.getStore()
	if (slot) slot.zone = isTimeZone(zone) ? zone : UTC
}

/** The zone times are shown in now: the reader's during a request, UTC elsewhere. */
export const currentTimeZone = (): string => requestZone.getStore()?.zone ?? UTC

/** Runs `fn` with times shown in `zone` (tests, and code that renders for a known person outside a request). */
export const inTimeZone = <T>(zone: string, fn: () => T): T => requestZone.run({ zone: isTimeZone(zone) ? zone : UTC }, fn)

// ---- Instants for machines ----

// PostgreSQL's text for a timestamptz in a UTC session, as drizzle hands it over (it leaves
// timestamps as text): `2026-12-03 12:34:56.789123+00`.
const PG_UTC = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00$/

/**
 * An instant as ISO 8601 in UTC (`2026-12-03T12:34:56.789Z`, what APIs and tool results carry), from
 * a Date or the database's text. UTC text is rewritten in place, to the millisecond as `Date` would
 * (a list result holds hundreds of times, and parsing each into a Date cost more than the rest of
 * the row); any other form goes through `Date`.
 */
export function isoInstant(value: Date | string): string {
	if (typeof value === 'string') {
		const m = PG_UTC.exec(value)
		if (m) return `${m[1]}T${m[2]}.${(m[3] ?? '').padEnd(3, '0').slice(0, 3)}Z`
		return new Date(value).toISOString()
	}
	return value.toISOString()
}

/** `isoInstant` for a column that may be empty (a to-do not done yet): null stays null. */
export const isoInstantOrNull = (value: Date | string | null): string | null => (value === null ? null : isoInstant(value))

// ---- Formatting ----

const formatters = new Map<string, Intl.DateTimeFormat>()
function formatter(zone: string, kind: 'date' | 'dateTime' | 'time' | 'day' | 'zone' | 'parts'): Intl.DateTimeFormat {
	const key = `${kind} ${zone}`
	let f = formatters.get(key)
	if (!f) {
		const options: Record<typeof kind, Intl.DateTimeFormatOptions> = {
			date: { year: 'numeric', month: 'short', day: 'numeric' },
			dateTime: { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
			time: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
			day: { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' },
			zone: { timeZoneName: 'short' },
			parts: { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' },
		}
		f = new Intl.DateTimeFormat('en-US', { ...options[kind], timeZone: zone })
		formatters.set(key, f)
	}
	return f
}

/** The zone's short name at that instant: "CST", "CDT", "UTC", "GMT+5:30". */
export function zoneName(d: Date, zone: string = currentTimeZone()): string {
	return (
		formatter(zone, 'zone')
			.formatToParts(d)
			.find((p) => p.type === 'timeZoneName')?.value ?? zone
	)
}

/** "Dec 1, 2026, 14:05 CST". */
export const formatDateTime = (d: Date, zone: string = currentTimeZone()) => `${formatter(zone, 'dateTime').format(d)} ${zoneName(d, zone)}`
/** "Dec 1, 2026" (the day in the zone). */
export const formatDate = (d: Date, zone: string = currentTimeZone()) => formatter(zone, 'date').format(d)
/** "14:05" (add `zoneName` once for a list of times of one zone). */
export const formatTime = (d: Date, zone: string = currentTimeZone()) => formatter(zone, 'time').format(d)
/**
 * The end of a time range written after its start's date, time and zone ("Nov 7, 2027, 14:00 EST–15:00"):
 * its time, with its date when it falls on another day in the zone ("Nov 8, 2027, 00:30"), and its zone's
 * name when that is not the start's: the clocks changed in between, and "01:30 EDT–01:30" would read as
 * no time at all where it is an hour ("01:30 EST").
 */
export function formatEndAfter(start: Date, end: Date, zone: string = currentTimeZone()): string {
	const day = dayKey(end, zone) === dayKey(start, zone) ? '' : `${formatDate(end, zone)}, `
	const name = zoneName(end, zone)
	return `${day}${formatTime(end, zone)}${name === zoneName(start, zone) ? '' : ` ${name}`}`
}
/** "Tuesday, December 1, 2026" (a day heading). */
export const formatDay = (d: Date, zone: string = currentTimeZone()) => formatter(zone, 'day').format(d)

/** The wall-clock fields of an instant in a zone. */
function wallClock(d: Date, zone: string) {
	const parts = Object.fromEntries(
		formatter(zone, 'parts')
			.formatToParts(d)
			.filter((p) => p.type !== 'literal')
			.map((p) => [p.type, Number(p.value)]),
	) as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>
	return { ...parts, hour: parts.hour % 24 }
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** The day of an instant in a zone, as `YYYY-MM-DD` (grouping by day, a date field's value). */
export function dayKey(d: Date, zone: string = currentTimeZone()): string {
	const w = wallClock(d, zone)
	return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`
}

/** An instant as a `datetime-local` field shows it in a zone: `YYYY-MM-DDTHH:MM`. */
export function localInputValue(d: Date, zone: string = currentTimeZone()): string {
	const w = wallClock(d, zone)
	return `${dayKey(d, zone)}T${pad(w.hour)}:${pad(w.minute)}`
}

/** Minutes the zone is ahead of UTC at that instant (-360 for Chicago in winter). */
export function offsetMinutes(d: Date, zone: string): number {
	const w = wallClock(d, zone)
	return Math.round((Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(d.getTime() / 1000) * 1000) / 60_000)
}

// ---- Parsing what people type ----

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const TIME = /^(\d{2}):(\d{2})(?::(\d{2}))?$/
const DAY = 24 * 60 * 60_000

/**
 * The instant a wall-clock date and time stand for in a zone, or null when they are not a date and
 * time (`2026-02-30`, `25:00`). A time that does not exist there (the hour skipped when clocks go
 * forward) is read as the moment after the gap, the way calendar apps do; a time that happens twice
 * (when clocks go back) is the first of the two.
 */
export function parseLocal(date: string, time: string, zone: string = currentTimeZone()): Date | null {
	const d = DATE.exec(date.trim())
	const t = TIME.exec(time.trim())
	if (!d || !t) return null
	const [year, month, day, hour, minute, second] = [d[1], d[2], d[3], t[1], t[2], t[3] ?? '0'].map(Number) as number[]
	if (!isSupportedYear(year!)) return null
	const asUtc = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!)
	const check = new Date(asUtc)
	if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month! - 1 || check.getUTCDate() !== day || hour! > 23 || minute! > 59 || second! > 59)
		return null
	// The zone's offsets on both sides of the moment (a change of offset lies within a day of it, whichever
	// side of UTC the zone is): each gives a candidate instant, kept when its wall clock there is what was typed.
	const offsets = new Set([-DAY, 0, DAY].map((shift) => offsetMinutes(new Date(asUtc + shift), zone)))
	const candidates = [...offsets].map((offset) => asUtc - offset * 60_000).sort((a, b) => a - b)
	const matches = (at: number) => {
		const w = wallClock(new Date(at), zone)
		return w.year === year && w.month === month && w.day === day && w.hour === hour && w.minute === minute && w.second === second
	}
	// The earliest that matches (a time that happens twice: the first); none (a skipped time): the latest,
	// which is the typed time read with the offset before the gap, i.e. the moment after it.
	return new Date(candidates.find(matches) ?? candidates[candidates.length - 1]!)
}

/**
 * The years a typed date may fall in. A date of year 9999 plus a day or a window is year 10000,
 * which JavaScript writes `+010000-…` and PostgreSQL refuses (a tool call failed with an internal
 * error); before year 1000 nobody schedules anything, and `Date.UTC` reads 0–99 as 1900–1999.
 */
export const isSupportedYear = (year: number) => year >= 1000 && year <= 9998

// An ISO 8601 date, or date and time with an optional fraction and offset: `2026-01-31`, `2026-01-31T09:00Z`,
// `2026-01-31T09:00:00.250+05:30`.
const ISO_INSTANT = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}(?::\d{2})?)(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})?)?$/i

/**
 * The instant an ISO 8601 date or time typed for a machine stands for (a command's option), or null
 * when it is none: the date must exist (`2026-02-30` is not read as March 2, as `new Date` reads it),
 * the time be a time of day, the offset one of hours and minutes, and the instant fall in the
 * supported years (`isSupportedYear`). A date alone is midnight UTC, and a time without an offset is UTC.
 */
export function parseIsoInstant(text: string): Date | null {
	const m = ISO_INSTANT.exec(text.trim())
	if (!m) return null
	const [, date, time = '00:00', fraction = '', offset = 'Z'] = m
	const wall = parseLocal(date!, time, UTC)
	const [, sign, hours, minutes] = /^([+-])(\d{2}):(\d{2})$/.exec(offset) ?? ['', '+', '0', '0']
	if (!wall || Number(hours) > 23 || Number(minutes) > 59) return null
	const offsetMs = (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes)) * 60_000
	const instant = new Date(wall.getTime() + Number(fraction.slice(0, 3).padEnd(3, '0')) - offsetMs)
	return isSupportedYear(instant.getUTCFullYear()) ? instant : null
}

/** A `datetime-local` field's value (`YYYY-MM-DDTHH:MM`) read in a zone; null when it is not one. */
export function parseLocalInput(value: string, zone: string = currentTimeZone()): Date | null {
	const [date, time] = value.trim().split('T')
	return date && time ? parseLocal(date, time, zone) : null
}

/** Midnight at the start of the day `YYYY-MM-DD` in a zone. */
export const startOfDay = (day: string, zone: string = currentTimeZone()) => parseLocal(day, '00:00', zone)

/** The day `days` after `YYYY-MM-DD` (calendar arithmetic, no zone); `day` must be a real date (check it with `startOfDay`). */
export function nextDay(day: string, days = 1): string {
	const d = new Date(`${day}T12:00:00Z`)
	d.setUTCDate(d.getUTCDate() + days)
	return d.toISOString().slice(0, 10)
}

/**
 * The instant `months` calendar months before `d` (UTC), on the same day of the month or, when that
 * month is shorter, its last day: 6 months before 31 August is 28 February. `setUTCMonth` alone
 * overflows into the next month (31 February is 3 March), later than the months asked.
 */
export function monthsBefore(d: Date, months: number): Date {
	const out = new Date(d)
	out.setUTCDate(1)
	out.setUTCMonth(out.getUTCMonth() - months)
	const lastDay = new Date(Date.UTC(out.getUTCFullYear(), out.getUTCMonth() + 1, 0)).getUTCDate()
	out.setUTCDate(Math.min(d.getUTCDate(), lastDay))
	return out
}
