/**
 * A bulk report always fits its cookie: 50 records with long names and notes are shortened, never
 * dropped. More than the limit is refused as a whole; an unexpected failure of one record is that
 * record's refusal (logged, no details) and the others go on.
 */
import { expect, test } from 'bun:test'
import { BULK_LIMIT, bulkIds, compactReport, overBulkLimit, runBulk, UNEXPECTED_NOTE } from './bulk.ts'
import type { AppDeps } from './deps.ts'
import { AppError } from './errors.ts'

test('a report of the most records, with long names and notes, is made small enough for a cookie', () => {
	const lines = Array.from({ length: BULK_LIMIT }, (_, i) => ({ name: `Candidate ${i} ${'x'.repeat(120)}`, result: 'refused' as const, note: 'y'.repeat(200) }))
	const small = compactReport({ action: 'Mark as read', back: '/inbox', lines })
	expect(new TextEncoder().encode(JSON.stringify(small)).length).toBeLessThanOrEqual(2400)
	expect(small.lines).toHaveLength(BULK_LIMIT)
	expect(small.lines[3]!.name.startsWith('Candidate 3')).toBe(true)
	const few = { action: 'Move to Screening', back: '/jobs/x', lines: [{ name: 'Ana Souza', result: 'done' as const }] }
	expect(compactReport(few)).toEqual(few)
})

test('more than the limit is refused as a whole, never cut; the same id twice counts once', () => {
	const ids = Array.from({ length: BULK_LIMIT }, (_, i) => `id${i}`)
	expect(bulkIds([...ids, 'id0'], 'application', 'applications')).toEqual(ids)
	expect(overBulkLimit(BULK_LIMIT, 'candidates')).toBeNull()
	const refused = (() => {
		try {
			bulkIds([...ids, 'one more'], 'application', 'applications')
		} catch (error) {
			return error
		}
	})() as AppError
	expect(refused).toBeInstanceOf(AppError)
	expect(refused.code).toBe('VALIDATION')
	expect(refused.message).toBe(`choose at most ${BULK_LIMIT} applications at once (${BULK_LIMIT + 1} were ticked)`)
	expect(refused.fields![0]!.field).toBe('application')
})

test('an unexpected failure of one record is logged and reported as its refusal, without details; the others go on', async () => {
	const logged: { message: string; fields?: Record<string, unknown> }[] = []
	const log = { debug() {}, info() {}, warn() {}, error: (message: string, fields?: Record<string, unknown>) => logged.push({ message, fields }) }
	const deps = { log } as unknown as AppDeps
	const lines = await runBulk(deps, ['a', 'b', 'c', 'd'], {
		action: 'test.bulk',
		name: (id) => `Record ${id}`,
		step: async (id, record) => {
			if (id === 'b') throw new TypeError('secret internal detail')
			if (id === 'c') throw new AppError('NOT_FOUND', 'No such record')
			record.name = `Named ${id}`
			return { result: 'done' }
		},
	})
	expect(lines).toEqual([
		{ name: 'Named a', result: 'done' },
		{ name: 'Record b', result: 'refused', note: UNEXPECTED_NOTE },
		{ name: 'Record c', result: 'refused', note: 'Not found, or not yours to change.' },
		{ name: 'Named d', result: 'done' },
	])
	expect(UNEXPECTED_NOTE).not.toContain('secret')
	expect(logged).toHaveLength(1)
	expect(logged[0]!.fields).toMatchObject({ action: 'test.bulk', index: 1, of: 4 })
	expect((logged[0]!.fields!.error as Error).message).toBe('secret internal detail')
})
