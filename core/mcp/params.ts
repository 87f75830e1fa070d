/** Parameter pieces shared by the tools, with the spec's limits. */
import { Type as t, type TArray, type TLiteral, type TNull, type TObject, type TSchema, type TString, type TUnion } from '@sinclair/typebox'
import { UntrustedLine } from '../untrusted.ts'

/** Rows per page: 1 to 100, default 25. */
export const limit = () => t.Integer({ minimum: 1, maximum: 100, default: 25, description: 'Rows per page, 1 to 100 (default 25)' })

/** The `nextCursor` of the previous page; omit for the first page. */
export const cursor = () => t.String({ minLength: 1, maxLength: 64, description: 'The nextCursor of the previous page; omit for the first page' })

/** An identifier taken from the matching list tool. */
export const id = (what: string) => t.String({ minLength: 1, maxLength: 160, description: `Id of the ${what}, from the matching list tool` })

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
