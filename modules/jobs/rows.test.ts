/** Every statement that reads a job reads every column of the table (derived from table.ts), bar the write statements' own state. */
import { expect, test } from 'bun:test'
import { getTableColumns } from 'drizzle-orm'
import { JOB_COLUMNS } from './rows.ts'
import { jobs } from './table.ts'

test('JOB_COLUMNS names each column of jobs once, by its JobRow name, except the write state', () => {
	const text = JOB_COLUMNS.queryChunks.map((c) => (c as { value: string[] }).value.join('')).join('')
	const listed = [...text.matchAll(/j\.(\w+) as "(\w+)"/g)].map(([, column, key]) => `${column}:${key}`)
	const expected = Object.entries(getTableColumns(jobs))
		.filter(([key]) => key !== 'lastWriteChanged' && key !== 'lastWriteEvent')
		.map(([key, column]) => `${column.name}:${key}`)
	expect(listed).toEqual(expected)
	expect(listed).toContain('min_years:minYears')
})
