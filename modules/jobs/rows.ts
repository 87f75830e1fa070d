/** The job row as raw SQL returns it (camel-cased aliases), and public addresses of jobs. */
import { getTableColumns, sql } from 'drizzle-orm'
import { jobs } from './table.ts'

/**
 * Columns the REST publish and change statements set and read for themselves (whether the write changed
 * the row, which event it made): not part of a job as the rest of the code sees it.
 */
const WRITE_STATE = ['lastWriteChanged', 'lastWriteEvent'] as const

/** A job as raw SQL returns it with `JOB_COLUMNS`: every column of the table, by its drizzle name. */
export type JobRow = Omit<typeof jobs.$inferSelect, (typeof WRITE_STATE)[number] | 'status'> & { status: 'Draft' | 'Open' | 'Closed' }

// Derived from the table: a column added to `table.ts` is read by every statement that selects a job.
const COLUMN_ALIASES = Object.entries(getTableColumns(jobs))
	.filter(([key]) => !(WRITE_STATE as readonly string[]).includes(key))
	.map(([key, column]) => [column.name, key] as const)

/** Every column of `jobs` aliased to its JobRow name; the table must be aliased `j`. */
export const JOB_COLUMNS = sql.raw(COLUMN_ALIASES.map(([c, a]) => `j.${c} as "${a}"`).join(', '))

/** The same columns unaliased, for `returning` (a write's CTE need not copy `search_vector`). */
export const JOB_COLUMN_NAMES = sql.raw(COLUMN_ALIASES.map(([c]) => c).join(', '))

export const toDate = (v: Date | string) => (v instanceof Date ? v : new Date(v))

export function jobUrl(baseUrl: string, workspaceSlug: string, slug: string): string {
	return `${baseUrl}/careers/${workspaceSlug}/jobs/${slug}`
}

/**
 * A job's careers address by its id (`…/jobs/job_…`), which the careers site answers with a permanent
 * redirect to the job's page. Answers that reach an assistant carry this one: the page's own address
 * holds words of the title, which a vendor or a colleague wrote, and an address is not a labelled text.
 */
export function jobAddress(baseUrl: string, workspaceSlug: string, jobId: string): string {
	return jobUrl(baseUrl, workspaceSlug, jobId)
}

/**
 * Latin letters that have no decomposition (so dropping accents leaves them as they are), spelled as
 * they are written in ASCII: "Straße" is strasse in an address, not stra-e.
 */
const ASCII_SPELLING: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', ł: 'l', þ: 'th', ı: 'i' }

/** A readable address segment from a title: lower-case ASCII words joined by dashes. */
export function slugify(title: string): string {
	const slug = title
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/[ßæœøđðłþı]/g, (letter) => ASCII_SPELLING[letter]!)
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '')
		.slice(0, 60)
		.replace(/-+$/, '')
	return slug || 'job'
}
