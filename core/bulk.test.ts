/** A bulk report always fits its cookie: 50 records with long names and notes are shortened, never dropped. */
import { expect, test } from 'bun:test'
import { BULK_LIMIT, compactReport } from './bulk.ts'

test('a report of the most records, with long names and notes, is made small enough for a cookie', () => {
	const lines = Array.from({ length: BULK_LIMIT }, (_, i) => ({ name: `Candidate ${i} ${'x'.repeat(120)}`, result: 'refused' as const, note: 'y'.repeat(200) }))
	const small = compactReport({ action: 'Mark as read', back: '/inbox', lines })
	expect(new TextEncoder().encode(JSON.stringify(small)).length).toBeLessThanOrEqual(2400)
	expect(small.lines).toHaveLength(BULK_LIMIT)
	expect(small.lines[3]!.name.startsWith('Candidate 3')).toBe(true)
	const few = { action: 'Move to Screening', back: '/jobs/x', lines: [{ name: 'Ana Souza', result: 'done' as const }] }
	expect(compactReport(few)).toEqual(few)
})
