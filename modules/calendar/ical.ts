/**
 * Busy times from an iCalendar feed (RFC 5545), parsed with ical.js: recurring events expanded
 * (with their moved or cancelled occurrences), free (`TRANSP:TRANSPARENT`) and cancelled events
 * left out, overlapping times merged. Only start and end leave this file: never a title.
 *
 * Times: a zone defined in the feed (VTIMEZONE) is used as given; a TZID the feed does not define
 * but that is an IANA name (Google, Apple) is converted with the platform's time-zone data;
 * floating times and all-day dates are read as UTC.
 */
import ICAL from 'ical.js'

export interface BusyBlock {
	start: Date
	end: Date
	allDay: boolean
}

export class FeedFormatError extends Error {}

/** Occurrences of one recurring event read at most (the ones before the window, when it cannot be skipped to, included). */
export const MAX_OCCURRENCES_PER_EVENT = 2000
/**
 * Steps one feed may take in all: each event, and each occurrence a recurring one is expanded to
 * (ical.js takes 50–150 µs for each). Past it the feed is refused: hostile or absurd (1,000 events repeating every
 * minute), never read in part.
 */
export const MAX_STEPS = 50_000
const MAX_BLOCKS = 5000

const formats = new Map<string, Intl.DateTimeFormat>()

/** Offset (ms) of an IANA zone from UTC at the given instant, or null for an unknown zone. */
function zoneOffset(zone: string, at: number): number | null {
	try {
		let format = formats.get(zone)
		if (!format) {
			format = new Intl.DateTimeFormat('en-US', {
				timeZone: zone,
				hourCycle: 'h23',
				year: 'numeric',
				month: 'numeric',
				day: 'numeric',
				hour: 'numeric',
				minute: 'numeric',
				second: 'numeric',
			})
			formats.set(zone, format)
		}
		const parts = format.formatToParts(new Date(at))
		const get = (type: string) => Number(parts.find((p) => p.type === type)?.value)
		return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - at
	} catch {
		return null
	}
}

/**
 * The instant of a time. `zone`: the TZID its event's DTSTART names, for a time ical.js holds as
 * floating because the feed does not define that zone (the name stays on the time it parsed, not on
 * the ones a recurrence computes from it).
 */
function toDate(t: ICAL.Time, zone?: string): Date {
	const wall = Date.UTC(t.year, t.month - 1, t.day, t.isDate ? 0 : t.hour, t.isDate ? 0 : t.minute, t.isDate ? 0 : t.second)
	if (t.isDate) return new Date(wall)
	const tzid = t.zone?.tzid
	if (tzid === 'UTC') return new Date(wall)
	if (tzid && tzid !== 'floating') return t.toJSDate()
	const named = (t as unknown as { timezone?: string }).timezone ?? zone
	if (named) {
		// Wall time in a named zone: guess with the offset at that instant, then correct once (DST edges).
		const first = zoneOffset(named, wall)
		if (first !== null) {
			const second = zoneOffset(named, wall - first)
			return new Date(wall - (second ?? first))
		}
	}
	return new Date(wall)
}

/** The TZID an event's DTSTART names (whether the feed defines it or not). */
function zoneOf(event: ICAL.Component): string | undefined {
	const tzid = event.getFirstProperty('dtstart')?.getParameter('tzid')
	return typeof tzid === 'string' ? tzid : undefined
}

function isFree(event: ICAL.Component): boolean {
	const transp = String(event.getFirstPropertyValue('transp') ?? '').toUpperCase()
	const status = String(event.getFirstPropertyValue('status') ?? '').toUpperCase()
	return transp === 'TRANSPARENT' || status === 'CANCELLED'
}

/**
 * The feed's VEVENTs each as text of its own, and the rest (the calendar and its VTIMEZONEs): each
 * event is parsed on its own, so that one ical.js refuses (an RRULE with BYMONTH=13, a date that is
 * not one) hides no other's busy times.
 */
function splitEvents(text: string): { calendar: string; events: string[] } {
	const calendar: string[] = []
	const events: string[] = []
	let event: string[] | null = null
	for (const line of text.split(/\r\n|\n|\r/)) {
		if (event) {
			event.push(line)
			if (/^END:VEVENT[ \t]*$/i.test(line)) {
				events.push(event.join('\r\n'))
				event = null
			}
		} else if (/^BEGIN:VEVENT[ \t]*$/i.test(line)) event = [line]
		else calendar.push(line)
	}
	return { calendar: calendar.join('\r\n'), events }
}

/**
 * Busy blocks overlapping `[from, to)`, merged and sorted. Throws `FeedFormatError` for text that is
 * not iCalendar, and for a feed past `MAX_STEPS`. Synchronous and CPU-bound on text from outside:
 * the server runs it in a child process (`feed-reader.ts`), bounded in time and memory.
 */
export function busyBlocks(text: string, from: Date, to: Date): BusyBlock[] {
	if (!/BEGIN:VCALENDAR/i.test(text)) throw new FeedFormatError('The address did not return an iCalendar feed (no BEGIN:VCALENDAR)')
	const split = splitEvents(text)
	let root: ICAL.Component
	try {
		root = new ICAL.Component(ICAL.parse(split.calendar))
	} catch (error) {
		throw new FeedFormatError(`The feed is not valid iCalendar: ${(error as Error).message}`.slice(0, 300))
	}
	// Time zones the feed defines are registered only while this (synchronous) parse runs, so one
	// feed never changes how another is read.
	const zones = root
		.getAllSubcomponents('vtimezone')
		.map((c) => new ICAL.Timezone(c))
		.filter((z) => z.tzid && !ICAL.TimezoneService.has(z.tzid))
	for (const z of zones) ICAL.TimezoneService.register(z)
	try {
		return merge(collect(split.events, from, to))
	} finally {
		for (const z of zones) ICAL.TimezoneService.remove(z.tzid)
	}
}

/** The events that parse, each without its siblings (`new ICAL.Event(c)` alone relates every other VEVENT of the calendar: quadratic). */
function parseEvents(texts: string[]): ICAL.Event[] {
	const out: ICAL.Event[] = []
	for (const text of texts) {
		try {
			const component = new ICAL.Component(ICAL.parse(text))
			if (component.name === 'vevent') out.push(new ICAL.Event(component, { exceptions: [] }))
		} catch {
			// One broken event does not hide the others' busy times.
		}
	}
	return out
}

const UNIT_SECONDS: Record<string, number> = { SECONDLY: 1, MINUTELY: 60, HOURLY: 3600, DAILY: 86_400, WEEKLY: 604_800 }

/** `start` moved by `n` periods of the rule, on the wall clock (as ical.js iterates); null when that day does not exist there. */
function periodsLater(start: ICAL.Time, rule: ICAL.Recur, n: number): ICAL.Time | null {
	const t = start.clone()
	const k = n * rule.interval
	if (rule.freq === 'MONTHLY' || rule.freq === 'YEARLY') {
		const months = t.year * 12 + (t.month - 1) + (rule.freq === 'MONTHLY' ? k : 12 * k)
		t.year = Math.floor(months / 12)
		t.month = (months % 12) + 1
		return t.day <= ICAL.Time.daysInMonth(t.month, t.year) ? t : null
	}
	const seconds = k * UNIT_SECONDS[rule.freq]!
	if (t.isDate) t.adjust(seconds / 86_400, 0, 0, 0)
	else t.adjust(0, 0, 0, seconds)
	return t
}

/**
 * Where to expand a recurring event from so that a long-lived series costs steps in the window only:
 * its start moved by whole periods of its one RRULE to before `from`, early enough that the moved
 * start (which ical.js gives as an occurrence whether the rule matches it or not) ends before the
 * window. Null: from the event's own start. A COUNT counts from the real start, so a rule with one
 * is moved only when each period is exactly one occurrence (no BY… part, SECONDLY to WEEKLY), its
 * COUNT lowered by the periods skipped.
 */
function expansionStart(event: ICAL.Event, from: Date, zone: string | undefined): ICAL.Time | null {
	const rules = event.component.getAllProperties('rrule')
	if (rules.length !== 1) return null
	const rule = rules[0]!.getFirstValue() as ICAL.Recur
	const simple = rule.freq in UNIT_SECONDS && Object.keys(rule.parts).length === 0
	if (!rule.interval || rule.interval < 1 || !['SECONDLY', 'MINUTELY', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'].includes(rule.freq)) return null
	if (rule.count && !simple) return null
	const start = event.startDate
	if (start.isDate && UNIT_SECONDS[rule.freq]! < 86_400) return null
	const startMs = toDate(start, zone).getTime()
	const periodMs =
		rule.freq === 'MONTHLY'
			? 31 * 86_400_000 * rule.interval
			: rule.freq === 'YEARLY'
				? 366 * 86_400_000 * rule.interval
				: UNIT_SECONDS[rule.freq]! * 1000 * rule.interval
	const limit = from.getTime() - event.duration.toSeconds() * 1000 - periodMs
	let n = Math.floor((limit - startMs) / periodMs)
	// A few tries: the wall clock moves by a zone's offset changes (and a day that does not exist is passed over).
	for (let tries = 0; n > 0 && tries < 16; tries++) {
		const moved = periodsLater(start, rule, n)
		const excess = moved ? toDate(moved, zone).getTime() - limit : 1
		if (moved && excess <= 0) {
			if (rule.count) {
				rule.count -= n
				if (rule.count < 1) return null
			}
			return moved
		}
		n -= Math.max(1, Math.ceil(excess / periodMs))
	}
	return null
}

function collect(texts: string[], from: Date, to: Date): BusyBlock[] {
	const out: BusyBlock[] = []
	let steps = 0
	const step = () => {
		if (++steps > MAX_STEPS)
			throw new FeedFormatError(`The feed has more than ${MAX_STEPS.toLocaleString('en-US')} events and repetitions of events to read: it was not read`)
	}
	const events = parseEvents(texts)
	const exceptions = new Map<string, ICAL.Event[]>()
	for (const e of events) {
		step()
		try {
			if (e.isRecurrenceException()) exceptions.set(e.uid, [...(exceptions.get(e.uid) ?? []), e])
		} catch {}
	}
	const push = (start: ICAL.Time, end: ICAL.Time | null, component: ICAL.Component) => {
		if (isFree(component)) return
		const zone = zoneOf(component)
		const s = toDate(start, zone)
		let e = end ? toDate(end, zone) : new Date(s.getTime() + (start.isDate ? 86_400_000 : 0))
		if (start.isDate && e.getTime() <= s.getTime()) e = new Date(s.getTime() + 86_400_000)
		if (e.getTime() <= s.getTime() || e <= from || s >= to) return
		out.push({ start: s, end: e, allDay: start.isDate })
	}
	for (const event of events) {
		if (out.length >= MAX_BLOCKS) break
		try {
			if (event.isRecurrenceException() || !event.startDate) continue
			if (!event.isRecurring()) {
				push(event.startDate, event.endDate, event.component)
				continue
			}
			const moved = exceptions.get(event.uid) ?? []
			for (const ex of moved) event.relateException(ex)
			const zone = zoneOf(event.component)
			const begin = expansionStart(event, from, zone)
			// Occurrences before the expansion's start that were moved (RECURRENCE-ID) are not met on the way: each counts as it is.
			if (begin) for (const ex of moved) if (ex.recurrenceId.compare(begin) < 0) push(ex.startDate, ex.endDate, ex.component)
			const it = event.iterator(begin ?? undefined)
			for (let i = 0, next = it.next(); next && i < MAX_OCCURRENCES_PER_EVENT; i++, next = it.next()) {
				step()
				if (toDate(next, zone) >= to) break
				const occurrence = event.getOccurrenceDetails(next)
				push(occurrence.startDate, occurrence.endDate, occurrence.item.component)
			}
		} catch (error) {
			if (error instanceof FeedFormatError) throw error
			// One broken event does not hide the others' busy times: go on with the next one.
		}
	}
	return out
}

function merge(blocks: BusyBlock[]): BusyBlock[] {
	blocks.sort((a, b) => a.start.getTime() - b.start.getTime() || a.end.getTime() - b.end.getTime())
	const out: BusyBlock[] = []
	for (const b of blocks) {
		const last = out[out.length - 1]
		if (last && b.start.getTime() <= last.end.getTime()) {
			if (b.end > last.end) last.end = b.end
			last.allDay = last.allDay && b.allDay
		} else out.push({ ...b })
	}
	return out.slice(0, MAX_BLOCKS)
}
