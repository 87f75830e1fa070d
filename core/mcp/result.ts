/**
 * Tool results. Success: the data as `structuredContent` and the same JSON as text. Failure: a
 * tool result with `isError: true` and a message a model can act on — never an HTTP error.
 * Unexpected errors are logged with an id; the model sees only that id.
 */
import type { AppDeps } from '../deps.ts'
import { AppError, isDatabaseUnavailable, isUnstorableText, unstorableText } from '../errors.ts'

export function toolSuccess(data: unknown) {
	const structured = (data ?? {}) as Record<string, unknown>
	return { content: [{ type: 'text' as const, text: JSON.stringify(structured) }], structuredContent: structured }
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
