/**
 * TypeBox schemas as Standard Schemas for the MCP SDK: the SDK lists the JSON Schema we give it and
 * validates arguments with our checker (code-point lengths, unknown properties refused with the
 * names that are allowed, defaults applied), so a model gets messages it can act on.
 */
import type { TSchema } from '@sinclair/typebox'
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server'
import { checkValue } from '../schema-check.ts'
import { textPattern } from '../untrusted.ts'

const NOT_BLANK = textPattern({ notBlank: true })

/**
 * Plain JSON Schema (TypeBox's symbols and our `x-` keywords stay out of what clients see). What an
 * `x-` keyword refuses is still said in standard words: a string marked `x-not-blank` without a
 * pattern of its own gets core's not-blank pattern (`textPattern`: a character that draws something,
 * as `isBlank` reads it, and no control character), so a client is not refused for a shape its
 * schema never showed.
 */
export function publicJsonSchema(schema: TSchema): Record<string, unknown> {
	return JSON.parse(
		JSON.stringify(schema, (key, value) => {
			if (key.startsWith('x-')) return undefined
			return value?.['x-not-blank'] === true && value.pattern === undefined ? { ...value, pattern: NOT_BLANK } : value
		}),
	)
}

/**
 * `asSent`: the arguments as the client sent them, checked instead of the SDK's copy. Only for
 * arguments holding an own `__proto__`: the SDK's copy sets the prototype instead, so the property
 * vanished and the call ran without it; checked as sent, it is refused as any unknown property is.
 */
export function inputSchema(schema: TSchema, asSent?: Record<string, unknown>): StandardSchemaWithJSON<Record<string, unknown>, Record<string, unknown>> {
	const json = publicJsonSchema(schema)
	return {
		'~standard': {
			version: 1,
			vendor: 'benchline',
			validate(value: unknown) {
				const result = checkValue<Record<string, unknown>>(schema, asSent ?? value ?? {}, { unknown: 'reject' })
				if (result.errors.length)
					return { issues: result.errors.map((e) => ({ message: e.message, path: e.field === '(arguments)' ? [] : e.field.split('.') })) }
				return { value: result.value }
			},
			jsonSchema: { input: () => json, output: () => json },
		},
	} as never
}

/** Output schemas are listed for clients; results are produced by our own services (checked by tests). */
export function outputSchema(schema: TSchema): StandardSchemaWithJSON<Record<string, unknown>, Record<string, unknown>> {
	const json = publicJsonSchema(schema)
	return {
		'~standard': {
			version: 1,
			vendor: 'benchline',
			validate: (value: unknown) => ({ value: value as Record<string, unknown> }),
			jsonSchema: { input: () => json, output: () => json },
		},
	} as never
}
