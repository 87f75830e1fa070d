/** Parameter pieces shared by the tools, with the spec's limits. */
import { Type as t, type TArray, type TLiteral, type TNull, type TObject, type TSchema, type TString, type TUnion } from '@sinclair/typebox'
import { MAX_SEARCH_CHARS, MIN_SEARCH_CHARS, SEARCH_TEXT_TOO_SHORT } from '../text-search.ts'
import { CONTROL_CHARS, ONE_LINE_MESSAGE, SPACE, SPACE_CHARS, textPattern, UntrustedLine } from '../untrusted.ts'

/** Rows per page: 1 to 100, default 25. */
export const limit = () => t.Integer({ minimum: 1, maximum: 100, default: 25, description: 'Rows per page, 1 to 100 (default 25)' })

/** The `nextCursor` of the previous page; omit for the first page. */
export const cursor = () => t.String({ minLength: 1, maxLength: 64, description: 'The nextCursor of the previous page; omit for the first page' })

/** An identifier taken from the matching list tool. */
export const id = (what: string) => t.String({ minLength: 1, maxLength: 160, description: `Id of the ${what}, from the matching list tool` })

// A character of a search other than white space (U+FFFD is read as a space by search) and no control character.
const SEARCH_CHARACTER = `[^\\s\\uFFFD${CONTROL_CHARS}]`
const SEARCH_SPACE = `[${SPACE_CHARS}\\uFFFD]`
// Two of them, anything but a control character between: a text that, trimmed, has at least MIN_SEARCH_CHARS (2).
const TWO_CHARACTERS = `${SEARCH_SPACE}*${SEARCH_CHARACTER}[^${CONTROL_CHARS}]*${SEARCH_CHARACTER}${SEARCH_SPACE}*`

/**
 * A search text (the lists' `query`, search's `q`): at most 120 characters, and at least 2 once
 * trimmed, which is what `searchTextProblem` (core/text-search.ts) refuses at run time; a list takes
 * a blank one as no search. No control character, which the checker refuses in every string.
 * Declared as a pattern, so a client reads the rule in the schema rather than learning it from a refusal.
 */
export const searchText = (description: string, { required = false } = {}) =>
	t.String({
		...(required ? { minLength: MIN_SEARCH_CHARS } : {}),
		maxLength: MAX_SEARCH_CHARS,
		pattern: required ? `^${TWO_CHARACTERS}$` : `^(?:${SPACE}*|${TWO_CHARACTERS})$`,
		'x-pattern-message': SEARCH_TEXT_TOO_SHORT,
		description,
	})

/**
 * A one-line text parameter (a title, a place, an item of a list): no line break, tab or other
 * control character, which the services refuse in such fields, declared as a pattern; `notBlank`
 * also needs a character that draws something (the checker's `x-not-blank` refuses text that draws
 * nothing at all, zero-width spaces included). The pattern is core's `textPattern`.
 */
export const oneLine = ({ notBlank = false, ...options }: { minLength?: number; maxLength: number; notBlank?: boolean; description?: string }) =>
	t.String({
		...options,
		pattern: textPattern({ oneLine: true, notBlank }),
		'x-pattern-message': ONE_LINE_MESSAGE,
		...(notBlank ? { 'x-not-blank': true } : {}),
	})

/**
 * A free text parameter (a description, a note, a message, words to look for): lines and tabs
 * allowed, no other control character (which the checker refuses in every string), declared as a pattern.
 */
export const freeText = (options: { maxLength: number; description?: string }) => t.String({ ...options, pattern: textPattern() })

/** One of a few string values; `fallback` is the default the service applies when it is omitted. */
export const oneOf = <T extends readonly string[]>(values: T, description?: string, fallback?: T[number]): TUnion<TLiteral<T[number]>[]> =>
	t.Union(
		values.map((v) => t.Literal(v)),
		{ ...(description ? { description } : {}), ...(fallback !== undefined ? { default: fallback } : {}) },
	)

/** A tool's parameter object: unknown properties are refused. */
export const params = <P extends Record<string, TSchema>>(properties: P) => t.Object(properties, { additionalProperties: false })

/** A paged list result: the rows under `key` and the cursor of the next page (null on the last page). */
export const page = <K extends string, I extends TSchema>(key: K, item: I) =>
	t.Object({ [key]: t.Array(item), nextCursor: t.Union([t.String(), t.Null()]) } as { [k in K]: TArray<I> } & {
		nextCursor: TUnion<[TString, TNull]>
	}) as TObject<{ [k in K]: TArray<I> } & { nextCursor: TUnion<[TString, TNull]> }>

export const nullable = <T extends TSchema>(schema: T, description?: string) => t.Union([schema, t.Null()], description ? { description } : {})

/** A person of the workspace in a result: their id and their name (labelled: someone else typed it). */
export const PersonRef = t.Object({ userId: t.String(), name: UntrustedLine })
