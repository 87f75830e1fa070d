/**
 * Tool results. Success: the data as `structuredContent` and the same JSON as text. Failure: a
 * tool result with `isError: true` and a message a model can act on — never an HTTP error.
 * Unexpected errors are logged with an id; the model sees only that id.
 *
 * Size: a result's JSON is at most `MAX_TOOL_RESULT_BYTES`. Over it, the longest texts written by
 * people (the `untrusted` envelopes, where size comes from) are cut to one common length, each
 * marked `truncated: true`, with a note saying so; a result still too big is refused with a tool
 * error. Paged lists and per-tool caps keep ordinary results far below it.
 */
import type { AppDeps } from '../deps.ts'
import { AppError, isDatabaseUnavailable, isUnstorableText, unstorableText } from '../errors.ts'

/** 1 MiB of JSON: about a quarter of a million tokens, more than any model can use in one answer. */
export const MAX_TOOL_RESULT_BYTES = 1024 * 1024
/** Texts are never cut shorter than this to make a result fit; below it the result is refused. */
const MIN_SHORTENED_TEXT = 200

const byteLength = (text: string) => Buffer.byteLength(text, 'utf8')
const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`

export function toolSuccess(data: unknown, tool = 'this tool', maxBytes = MAX_TOOL_RESULT_BYTES) {
	const structured = (data ?? {}) as Record<string, unknown>
	const text = JSON.stringify(structured)
	// A UTF-16 unit is at most 3 bytes of UTF-8: most results are known to fit without counting.
	const fits = text.length * 3 <= maxBytes || byteLength(text) <= maxBytes
	if (fits) return { content: [{ type: 'text' as const, text }], structuredContent: structured }
	const bytes = byteLength(text)
	const shortened = shortenTexts(JSON.parse(text), maxBytes)
	if (!shortened)
		throw new AppError(
			'PAYLOAD_TOO_LARGE',
			`The result of ${tool} is too large to send (${megabytes(bytes)}; the limit is ${megabytes(maxBytes)}). Ask for less: a smaller limit, a narrower filter, or one record at a time.`,
		)
	const note = `Note: the full result (${megabytes(bytes)}) was over the ${megabytes(maxBytes)} limit, so texts written by people were cut to ${shortened.length} characters each (marked "truncated": true). Ask for one record at a time to read more of them.`
	return {
		content: [
			{ type: 'text' as const, text: JSON.stringify(shortened.data) },
			{ type: 'text' as const, text: note },
		],
		structuredContent: shortened.data,
	}
}

interface Envelope {
	untrusted: true
	text: string
	truncated: boolean
}

function envelopesIn(value: unknown, found: Envelope[] = []): Envelope[] {
	if (Array.isArray(value)) for (const v of value) envelopesIn(v, found)
	else if (value && typeof value === 'object') {
		const o = value as Record<string, unknown>
		if (o.untrusted === true && typeof o.text === 'string' && typeof o.truncated === 'boolean') found.push(o as unknown as Envelope)
		else for (const v of Object.values(o)) envelopesIn(v, found)
	}
	return found
}

/** The data with every untrusted text cut to the longest common length that fits, or null if none does. */
function shortenTexts(data: Record<string, unknown>, maxBytes: number): { data: Record<string, unknown>; length: number } | null {
	const envelopes = envelopesIn(data)
	if (!envelopes.length) return null
	const originals = envelopes.map((e) => ({ points: [...e.text], truncated: e.truncated }))
	const cutTo = (length: number) => {
		envelopes.forEach((e, i) => {
			const { points, truncated } = originals[i]!
			e.text = points.length > length ? points.slice(0, length).join('') : points.join('')
			e.truncated = truncated || points.length > length
		})
		return byteLength(JSON.stringify(data)) <= maxBytes
	}
	if (!cutTo(MIN_SHORTENED_TEXT)) return null
	// The longest length that still fits (binary search; a few passes over at most a few MB).
	let low = MIN_SHORTENED_TEXT
	let high = Math.max(...originals.map((o) => o.points.length))
	while (low < high) {
		const mid = Math.ceil((low + high) / 2)
		if (cutTo(mid)) low = mid
		else high = mid - 1
	}
	cutTo(low)
	return { data, length: low }
}

/**
 * The answer to a call that ran past the time limit. The work itself cannot be recalled, so a
 * write may still happen: the model is told to look before trying again.
 */
export function toolTimedOut(tool: string, seconds: number, readOnly: boolean) {
	const text = readOnly
		? `${tool} did not answer within ${seconds} seconds and was stopped being waited for. Try again in a moment, or ask for less (a smaller limit or a narrower filter).`
		: `${tool} did not answer within ${seconds} seconds. It may still complete: check with the matching read tool before calling ${tool} again.`
	return { isError: true, content: [{ type: 'text' as const, text }] }
}

export function toolFailure(deps: Pick<AppDeps, 'log'>, tool: string, error: unknown) {
	let message: string
	if (isUnstorableText(error)) error = unstorableText() // NUL or an unpaired surrogate reached the database: the caller's input, not a bug
	if (error instanceof AppError && error.status < 500) {
		const fields = error.fields?.length ? ` (${error.fields.map((f) => `${f.field} ${f.message}`).join('; ')})` : ''
		message = error.code === 'NOT_FOUND' ? `${error.message}. Use the matching list tool to find valid ids.` : `${error.message}${fields}`
	} else if (isDatabaseUnavailable(error) || (error instanceof AppError && error.code === 'UNAVAILABLE')) {
		message = 'The service is temporarily unavailable; retry in a few seconds.'
	} else {
		const requestId = crypto.randomUUID()
		deps.log.error('tool failed', { tool, requestId, error })
		message = `Internal error while running ${tool} (request ${requestId}); retrying will not help until it is fixed.`
	}
	return { isError: true, content: [{ type: 'text' as const, text: message }] }
}
