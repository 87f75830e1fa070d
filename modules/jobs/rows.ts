/** The job row as raw SQL returns it (camel-cased aliases), and public addresses of jobs. */
import { sql } from 'drizzle-orm'

export interface JobRow {
	id: string
	workspaceId: string
	vendorId: string | null
	vendorJobId: string | null
	slug: string
	title: string
	location: string | null
	employment: string | null
	contractType: string | null
	summary: string | null
	description: string | null
	mustHave: string[] | null
	niceToHave: string[] | null
	visa: string | null
	interview: string | null
	schedule: string | null
	minYears: number | null
	department: string
	salaryMin: number | null
	salaryMax: number | null
	status: 'Draft' | 'Open' | 'Closed'
	activelyHiring: boolean
	createdByUserId: string | null
	createdAt: Date | string
	updatedAt: Date | string
	publishedAt: Date | string | null
	closedAt: Date | string | null
}

const COLUMN_ALIASES = [
	['id', 'id'],
	['workspace_id', 'workspaceId'],
	['vendor_id', 'vendorId'],
	['vendor_job_id', 'vendorJobId'],
	['slug', 'slug'],
	['title', 'title'],
	['location', 'location'],
	['employment', 'employment'],
	['contract_type', 'contractType'],
	['summary', 'summary'],
	['description', 'description'],
	['must_have', 'mustHave'],
	['nice_to_have', 'niceToHave'],
	['visa', 'visa'],
	['interview', 'interview'],
	['schedule', 'schedule'],
	['min_years', 'minYears'],
	['department', 'department'],
	['salary_min', 'salaryMin'],
	['salary_max', 'salaryMax'],
	['status', 'status'],
	['actively_hiring', 'activelyHiring'],
	['created_by_user_id', 'createdByUserId'],
	['created_at', 'createdAt'],
	['updated_at', 'updatedAt'],
	['published_at', 'publishedAt'],
	['closed_at', 'closedAt'],
]

/** Every column of `jobs` aliased to its JobRow name; the table must be aliased `j`. */
export const JOB_COLUMNS = sql.raw(COLUMN_ALIASES.map(([c, a]) => `j.${c} as "${a}"`).join(', '))

/** The same columns unaliased, for `returning` (a write's CTE need not copy `search_vector`). */
export const JOB_COLUMN_NAMES = sql.raw(COLUMN_ALIASES.map(([c]) => c).join(', '))

export const toDate = (v: Date | string) => (v instanceof Date ? v : new Date(v))

export function jobUrl(baseUrl: string, workspaceSlug: string, slug: string): string {
	return `${baseUrl}/careers/${workspaceSlug}/jobs/${slug}`
}

/** A readable address segment from a title: lower-case ASCII words joined by dashes. */
export function slugify(title: string): string {
	const slug = title
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '')
		.slice(0, 60)
		.replace(/-+$/, '')
	return slug || 'job'
}
