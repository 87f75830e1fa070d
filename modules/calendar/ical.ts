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

/** Occurrences of one recurring event read at most (the ones before the window included). */
export const MAX_OCCURRENCES_PER_EVENT = 2000
/**
 * Steps one feed may take in all: each event, and each occurrence a recurring one is expanded to
 * (ical.js takes 50–150 µs for each). Past it the feed is refused: hostile or absurd (1,000 events repeating every
 * minute), never read in part.
 */
export const MAX_STEPS = 50_000
const MAX_BLOCKS = 5000

/** Offset (ms) of an IANA zone from UTC at the given instant, or null for an unknown zone. */
function zoneOffset(zone: string, at: number): number | null {
	try {
		const parts = new Intl.DateTimeFormat('en-US', {
			timeZone: zone,
			hourCycle: 'h23',
			year: 'numeric',
			month: 'numeric',
			day: 'numeric',
			hour: 'numeric',
			minute: 'numeric',
			second: 'numeric',
		}).formatToParts(new Date(at))
		const get = (type: string) => Number(parts.find((p) => p.type === type)?.value)
		return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - at
	} catch {
		return null
	}
}

function toDate(t: ICAL.Time): Date {
	const wall = Date.UTC(t.year, t.month - 1, t.day, t.isDate ? 0 : t.hour, t.isDate ? 0 : t.minute, t.isDate ? 0 : t.second)
	if (t.isDate) return new Date(wall)
	const tzid = t.zone?.tzid
	if (tzid === 'UTC') return new Date(wall)
	if (tzid && tzid !== 'floating') return t.toJSDate()
	const named = (t as unknown as { timezone?: string }).timezone
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

function isFree(event: ICAL.Component): boolean {
	const transp = String(event.getFirstPropertyValue('transp') ?? '').toUpperCase()
	const status = String(event.getFirstPropertyValue('status') ?? '').toUpperCase()
	return transp === 'TRANSPARENT' || status === 'CANCELLED'
}

/**
 * Busy blocks overlapping `[from, to)`, merged and sorted. Throws `FeedFormatError` for text that is
 * not iCalendar, and for a feed past `MAX_STEPS`. Synchronous and CPU-bound on text from outside:
 * the server runs it in a child process (`feed-reader.ts`), bounded in time and memory.
 */
export function busyBlocks(text: string, from: Date, to: Date): BusyBlock[] {
	if (!/BEGIN:VCALENDAR/i.test(text)) throw new FeedFormatError('The address did not return an iCalendar feed (no BEGIN:VCALENDAR)')
	let root: ICAL.Component
	try {
		root = new ICAL.Component(ICAL.parse(text))
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
		return merge(collect(root, from, to))
	} finally {
		for (const z of zones) ICAL.TimezoneService.remove(z.tzid)
	}
}

/** The calendar's events, each without its siblings (`new ICAL.Event(c)` alone relates every other VEVENT of the calendar: quadratic). */
function eventsOf(root: ICAL.Component): ICAL.Event[] {
	const out: ICAL.Event[] = []
	for (const component of root.getAllSubcomponents('vevent')) {
		try {
			out.push(new ICAL.Event(component, { exceptions: [] }))
		} catch {
			// One broken event does not hide the others' busy times.
		}
	}
	return out
}

function collect(root: ICAL.Component, from: Date, to: Date): BusyBlock[] {
	const out: BusyBlock[] = []
	let steps = 0
	const step = () => {
		if (++steps > MAX_STEPS)
			throw new FeedFormatError(`The feed has more than ${MAX_STEPS.toLocaleString('en-US')} events and repetitions of events to read: it was not read`)
	}
	const events = eventsOf(root)
	const exceptions = new Map<string, ICAL.Event[]>()
	for (const e of events) {
		step()
		try {
			if (e.isRecurrenceException()) exceptions.set(e.uid, [...(exceptions.get(e.uid) ?? []), e])
		} catch {}
	}
	const push = (start: ICAL.Time, end: ICAL.Time | null, component: ICAL.Component) => {
		if (isFree(component)) return
		const s = toDate(start)
		let e = end ? toDate(end) : new Date(s.getTime() + (start.isDate ? 86_400_000 : 0))
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
			for (const ex of exceptions.get(event.uid) ?? []) event.relateException(ex)
			const it = event.iterator()
			for (let i = 0, next = it.next(); next && i < MAX_OCCURRENCES_PER_EVENT; i++, next = it.next()) {
				step()
				if (toDate(next) >= to) break
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
