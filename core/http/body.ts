/**
 * Reading JSON request bodies with a hard byte limit counted while reading (so a chunked body
 * without Content-Length cannot get past it), and a clear 400 for anything that is not a JSON object.
 */
import { AppError } from '../errors.ts'

export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
	const declared = request.headers.get('content-length')
	if (declared && Number(declared) > maxBytes) throw tooLarge(maxBytes)
	if (!request.body) return ''
	const reader = request.body.getReader()
	const chunks: Uint8Array[] = []
	let total = 0
	for (;;) {
		const { done, value } = await reader.read()
		if (done) break
		total += value.byteLength
		if (total > maxBytes) {
			await reader.cancel().catch(() => {})
			throw tooLarge(maxBytes)
		}
		chunks.push(value)
	}
	return new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks))
}

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
