/**
 * Reading request bodies with a hard byte limit counted while reading (so a chunked body without
 * Content-Length cannot get past it), as UTF-8 only, and a clear 400 for anything that is not a
 * JSON object.
 *
 * Why a request body must be valid UTF-8 (and is refused, not repaired): replacing each bad byte
 * with U+FFFD made different texts equal, so `"M-\xe9"` and `"M-\xfc"` were stored as one
 * vendorJobId and the second publish overwrote the first job. A body declared in another character
 * set (`charset=iso-8859-1`) would be read wrongly in the same way: 415. So is a body sent compressed
 * (`Content-Encoding: gzip`): nothing here decodes it, and its bytes were refused as "not valid
 * UTF-8", which sent the client looking for a wrong character instead of at the encoding.
 */
import { AppError } from '../errors.ts'
import { firstCodePoints } from '../untrusted.ts'
import { repeatedName } from './json-names.ts'

/**
 * The bytes of a request or response body, refusing more than `maxBytes`: the declared length is
 * checked first, and the bytes are counted as they arrive (chunked bodies declare none).
 */
async function readLimitedBytes(message: Request | Response, maxBytes: number, tooBig: () => Error): Promise<Uint8Array> {
	const declared = message.headers.get('content-length')
	if (declared && Number(declared) > maxBytes) throw tooBig()
	if (!message.body) return new Uint8Array()
	const reader = message.body.getReader()
	const chunks: Uint8Array[] = []
	let total = 0
	for (;;) {
		const { done, value } = await reader.read()
		if (done) break
		total += value.byteLength
		if (total > maxBytes) {
			await reader.cancel().catch(() => {})
			throw tooBig()
		}
		chunks.push(value)
	}
	return Buffer.concat(chunks)
}

/**
 * The text of an answer we read (a provider's response, a child process's output), refusing more
 * than `maxBytes`. Lenient: a stray byte becomes U+FFFD, since such text is only reported or
 * parsed, never stored as someone's input. Request bodies go through `readBodyText`.
 */
export async function readLimitedText(message: Request | Response, maxBytes: number, tooBig: () => Error): Promise<string> {
	return new TextDecoder('utf-8', { fatal: false }).decode(await readLimitedBytes(message, maxBytes, tooBig))
}

/** A body declared in a character set other than UTF-8, or sent compressed: 415, whatever the door. */
class UnsupportedBody extends AppError {
	override readonly status = 415
}

/**
 * The content codings a request declares (`Content-Encoding: gzip, br`), lower case, `identity` left
 * out (it is no coding): none are decoded here (RFC 9110 §8.4: 415 for one the server does not take).
 */
function declaredCodings(request: Request): string[] {
	return (request.headers.get('content-encoding') ?? '')
		.split(',')
		.map((c) => c.trim().toLowerCase())
		.filter((c) => c !== '' && c !== 'identity')
}

/** UTF-8, and ASCII (a subset of it), are the character sets a body may declare. */
const UTF8_CHARSETS = new Set(['utf-8', 'utf8', 'us-ascii'])

/** The `charset` parameter of the request's Content-Type, lower case, if any. */
function declaredCharset(request: Request): string | null {
	const match = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(request.headers.get('content-type') ?? '')
	return match ? match[1]!.toLowerCase() : null
}

/**
 * The text of a request body, refusing more than `maxBytes` (413), a content coding (415, with
 * `Accept-Encoding: identity` as RFC 9110 §12.5.3 asks), a declared character set other than UTF-8
 * (415), and bytes that are not valid UTF-8 (400). In that order: the size is known first, and a body
 * compressed or in another character set is usually not valid UTF-8 either.
 */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
	const bytes = await readLimitedBytes(request, maxBytes, () => tooLarge(maxBytes))
	const codings = declaredCodings(request)
	if (codings.length)
		throw new UnsupportedBody(
			'INVALID_BODY',
			`The request body is sent with Content-Encoding: ${codings.join(', ').slice(0, 60)}; send it uncompressed (no Content-Encoding)`,
			{
				headers: { 'Accept-Encoding': 'identity' },
			},
		)
	const charset = declaredCharset(request)
	if (charset !== null && !UTF8_CHARSETS.has(charset))
		throw new UnsupportedBody('INVALID_BODY', `The request body is declared as charset=${charset}; send it as UTF-8 (charset=utf-8, or no charset)`)
	try {
		return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
	} catch {
		throw new AppError('INVALID_BODY', 'The request body is not valid UTF-8')
	}
}

const tooLarge = (maxBytes: number) => new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than ${Math.round(maxBytes / 1024)} KB`)

/** Reads and parses a JSON object body: one in which an object names a member twice is refused (json-names.ts). */
export async function readJsonObject(request: Request, maxBytes: number): Promise<Record<string, unknown>> {
	const text = await readBodyText(request, maxBytes)
	let parsed: unknown
	try {
		parsed = JSON.parse(text)
	} catch {
		throw new AppError('INVALID_BODY', text.trim() === '' ? 'The request body is empty; send a JSON object' : 'The request body is not valid JSON')
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new AppError('INVALID_BODY', 'The request body must be a JSON object')
	const repeated = repeatedName(text)
	if (repeated !== null)
		throw new AppError('INVALID_BODY', `The request body names "${firstCodePoints(repeated, 60)}" more than once in one object; send each name once`)
	return parsed as Record<string, unknown>
}
