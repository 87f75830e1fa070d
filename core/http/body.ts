/**
 * Reading JSON request bodies with a hard byte limit counted while reading (so a chunked body
 * without Content-Length cannot get past it), and a clear 400 for anything that is not a JSON object.
 */
import { AppError } from '../errors.ts'

/**
 * The text of a request or response body, refusing more than `maxBytes`: the declared length is
 * checked first, and the bytes are counted as they arrive (chunked bodies declare none).
 */
export async function readLimitedText(message: Request | Response, maxBytes: number, tooBig: () => Error): Promise<string> {
	const declared = message.headers.get('content-length')
	if (declared && Number(declared) > maxBytes) throw tooBig()
	if (!message.body) return ''
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
	return new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks))
}

export const readBodyText = (request: Request, maxBytes: number) => readLimitedText(request, maxBytes, () => tooLarge(maxBytes))

const tooLarge = (maxBytes: number) => new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than ${Math.round(maxBytes / 1024)} KB`)

/** Reads and parses a JSON object body. */
export async function readJsonObject(request: Request, maxBytes: number): Promise<Record<string, unknown>> {
	const text = await readBodyText(request, maxBytes)
	let parsed: unknown
	try {
		parsed = JSON.parse(text)
	} catch {
		throw new AppError('INVALID_BODY', text.trim() === '' ? 'The request body is empty; send a JSON object' : 'The request body is not valid JSON')
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new AppError('INVALID_BODY', 'The request body must be a JSON object')
	return parsed as Record<string, unknown>
}
