import { describe, expect, test } from 'bun:test'
import { AppError, invalid, MAX_FIELD_ERRORS, MAX_MESSAGE_LENGTH } from './errors.ts'

describe('an answer to bad input never grows with the input', () => {
	test('past MAX_FIELD_ERRORS problems the rest are counted, not listed', () => {
		const fields = Array.from({ length: 5_000 }, (_, i) => ({ field: `f${i}`, message: 'is wrong' }))
		const error = invalid(fields)
		expect(error.fields).toHaveLength(MAX_FIELD_ERRORS)
		expect(error.fields!.slice(0, 2)).toEqual(fields.slice(0, 2))
		expect(error.fields!.at(-1)).toEqual({ field: `f${MAX_FIELD_ERRORS - 1}`, message: `and ${5_000 - MAX_FIELD_ERRORS + 1} more problems like these` })
		expect(invalid(fields.slice(0, MAX_FIELD_ERRORS)).fields).toEqual(fields.slice(0, MAX_FIELD_ERRORS))
	})

	test('a message is cut at MAX_MESSAGE_LENGTH characters, never inside a character', () => {
		const long = new AppError('VALIDATION', `${'a'.repeat(MAX_MESSAGE_LENGTH - 2)}😀 and more`)
		expect(long.message).toBe(`${'a'.repeat(MAX_MESSAGE_LENGTH - 2)}…`)
		expect(long.message.isWellFormed()).toBe(true)
		expect(long.message.endsWith('…')).toBe(true)
		expect(new AppError('VALIDATION', 'short').message).toBe('short')
	})
})
