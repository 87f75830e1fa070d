/**
 * Text an OAuth client sends (parameters, registrations, metadata documents) on its way to the
 * database, a page or an error message. It reaches the database as given, so what cannot be stored
 * is refused where it comes in, as an OAuth error (never the generic 422 the database's refusal
 * would become); names are cleaned with the rule every untrusted line follows (core/untrusted.ts);
 * values quoted back are quoted as JSON (never through the value's own `toString`).
 */
import { cleanLine, isBlank } from '../../../core/untrusted.ts'

/**
 * True for text the database keeps as given: PostgreSQL text holds no NUL character, and a lone
 * surrogate is refused inside jsonb (elsewhere it is silently stored as U+FFFD).
 */
export const storable = (text: string) => !text.includes('\u0000') && text.isWellFormed()

/** True when every string of a parsed JSON value, keys included, is storable. */
export function storableJson(value: unknown): boolean {
	if (typeof value === 'string') return storable(value)
	if (Array.isArray(value)) return value.every(storableJson)
	if (value !== null && typeof value === 'object') return Object.entries(value).every(([key, v]) => storable(key) && storableJson(v))
	return true
}

/**
 * Format characters and fillers `cleanLine` keeps that draw nothing (the soft hyphen, the word
 * joiner, the Mongolian vowel separator, Hangul fillers): in an app's name they only hide or fake
 * its words (the same characters make a text blank for `isBlank`).
 */
const DRAWS_NOTHING_IN_NAMES = /[\p{Cf}\u115f\u1160\u3164\uffa0]/gu

/** An app's self-declared name as shown: one line, without invisible characters; '' when nothing visible remains. */
export function cleanAppName(raw: string): string {
	const name = cleanLine(raw.replace(DRAWS_NOTHING_IN_NAMES, ''), Number.MAX_SAFE_INTEGER)
	return isBlank(name) ? '' : name
}

/** A value from a client (any parsed JSON) quoted in a message: as JSON, on one line, at most `max` characters. */
export const quoted = (value: unknown, max = 60) => cleanLine(JSON.stringify(value) ?? typeof value, max)
