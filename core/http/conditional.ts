/**
 * Conditional GET (RFC 9110 section 13): `If-None-Match` against the ETag, and only without it
 * `If-Modified-Since` against Last-Modified (whole seconds, as HTTP dates carry).
 *
 * A Last-Modified in the current second is weak (RFC 9110 section 8.8.2.2): another change may come
 * later in that second and carry the same date. So it is not sent then, and no `If-Modified-Since`
 * is answered 304 while the last change is in the current second: a date the client holds then always
 * came from an answer made after every change of its second.
 */

export interface Validators {
	/** Quoted, e.g. `"abc"` (weak `W/"abc"` also accepted when compared). */
	etag: string
	/** No earlier than a change to anything the ETag covers. */
	lastModified: Date
}

/** Last-Modified of what depends on all of `changes` (each a last change, or null for none): the latest of them. */
export function lastModifiedOf(...changes: (Date | null)[]): Date {
	return new Date(Math.max(0, ...changes.map((at) => at?.getTime() ?? 0)))
}

const second = (at: Date) => Math.floor(at.getTime() / 1000)

/** Whether no later change can share Last-Modified's second: that second is over by `now`. */
const settled = (lastModified: Date, now: Date) => second(lastModified) < second(now)

/** ETag, and Last-Modified once it is strong (its second is over at `now`). */
export function validatorHeaders(v: Validators, now: Date): Record<string, string> {
	return settled(v.lastModified, now) ? { ETag: v.etag, 'Last-Modified': v.lastModified.toUTCString() } : { ETag: v.etag }
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)'
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)'
const MONTH = `(${MONTHS.join('|')})`
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})'
/** `Sun, 06 Nov 1994 08:49:37 GMT` (IMF-fixdate, what servers send). */
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`)
/** `Sunday, 06-Nov-94 08:49:37 GMT` (obsolete RFC 850 form). */
const RFC_850 = new RegExp(`^${LONG_DAY}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`)
/** `Sun Nov  6 08:49:37 1994` (obsolete asctime form). */
const ASCTIME = new RegExp(`^${DAY} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`)

/**
 * An HTTP-date (RFC 9110 section 5.6.7: the three forms a recipient must accept) as epoch
 * milliseconds, or NaN for anything else. `Date.parse` is no judge: it reads "3000" or
 * "12/31/2099" as dates, which made a header that is not a date answer 304.
 */
export function parseHttpDate(text: string): number {
	let day: string, month: string, year: number, time: string[]
	let m = IMF_FIXDATE.exec(text)
	if (m) [day, month, year, time] = [m[1]!, m[2]!, Number(m[3]), m.slice(4, 7)]
	else if ((m = RFC_850.exec(text))) {
		// Two-digit years: one that looks more than 50 years ahead is in the past century (RFC 9110).
		const yy = Number(m[3])
		const thisYear = new Date().getUTCFullYear()
		year = 2000 + yy > thisYear + 50 ? 1900 + yy : 2000 + yy
		;[day, month, time] = [m[1]!, m[2]!, m.slice(4, 7)]
	} else if ((m = ASCTIME.exec(text))) [month, day, time, year] = [m[1]!, m[2]!.trim(), m.slice(3, 6), Number(m[6])]
	else return Number.NaN
	const [h, min, s] = time.map(Number) as [number, number, number]
	const d = Number(day)
	const monthIndex = MONTHS.indexOf(month)
	const at = Date.UTC(year, monthIndex, d, h, min, s)
	// 31 Feb or 25:00 roll over in Date.UTC: a date that does not read back the same is not one.
	const back = new Date(at)
	if (back.getUTCDate() !== d || back.getUTCMonth() !== monthIndex || back.getUTCHours() !== h || back.getUTCMinutes() !== min || back.getUTCSeconds() !== s)
		return Number.NaN
	return at
}

/**
 * Whether the client's copy is current (answer 304). `If-Modified-Since` is ignored (RFC 9110
 * section 13.1.3) when it is not one valid HTTP-date or lies after the server's clock, and while
 * the last change is in the current second (Last-Modified is weak then).
 */
export function notModified(request: Request, v: Validators, now: Date = new Date()): boolean {
	const match = request.headers.get('if-none-match')
	if (match !== null) {
		const mine = v.etag.replace(/^W\//, '')
		return match.trim() === '*' || match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === mine)
	}
	const since = parseHttpDate(request.headers.get('if-modified-since')?.trim() ?? '')
	if (Number.isNaN(since) || since > now.getTime() || !settled(v.lastModified, now)) return false
	return second(v.lastModified) * 1000 <= since
}

/** The 304 answer: no body, the validators repeated. */
export function notModifiedResponse(v: Validators, now: Date, headers: Record<string, string> = {}): Response {
	return new Response(null, { status: 304, headers: { ...headers, ...validatorHeaders(v, now) } })
}
