/**
 * Opaque, tamper-evident keyset cursors (at most 64 characters). A cursor carries the sort key of
 * the last row seen, signed with the server secret and bound to a scope (the list and the person),
 * so a forged, altered or borrowed cursor is refused instead of leaking rows.
 */
import { hmacSha256, safeEqual } from './credentials.ts'
import { AppError } from './errors.ts'

const SAFE = /^[A-Za-z0-9_-]*$/

function sign(secret: Uint8Array, scope: string, payload: string): string {
	return hmacSha256(secret, `${scope}|${payload}`).toString('base64url').slice(0, 12)
}

/** Keyset position of a row: its timestamp and id (the usual `(created_at, id)` order). */
export interface Position {
	at: Date
	id: string
}

export function encodeCursor(secret: Uint8Array, scope: string, values: string[]): string {
	for (const v of values) if (!SAFE.test(v)) throw new Error(`cursor value "${v}" has unsafe characters`)
	const payload = values.join('~')
	const cursor = `${payload}.${sign(secret, scope, payload)}`
	if (cursor.length > 64) throw new Error('cursor longer than 64 characters')
	return cursor
}

export function decodeCursor(secret: Uint8Array, scope: string, cursor: string, arity: number): string[] {
	const dot = cursor.lastIndexOf('.')
	const payload = dot > 0 ? cursor.slice(0, dot) : ''
	const values = payload.split('~')
	if (dot <= 0 || values.length !== arity || !safeEqual(cursor.slice(dot + 1), sign(secret, scope, payload)))
		throw new AppError('VALIDATION', 'cursor is not valid: pass the nextCursor of the previous page of this same list, or omit it for the first page', {
			fields: [{ field: 'cursor', message: 'is not valid' }],
		})
	return values
}

export const encodePosition = (secret: Uint8Array, scope: string, p: Position) => encodeCursor(secret, scope, [p.at.getTime().toString(36), p.id])

export function decodePosition(secret: Uint8Array, scope: string, cursor: string): Position {
	const [at, id] = decodeCursor(secret, scope, cursor, 2)
	const ms = parseInt(at!, 36)
	if (!Number.isFinite(ms)) throw new AppError('VALIDATION', 'cursor is not valid')
	return { at: new Date(ms), id: id! }
}
