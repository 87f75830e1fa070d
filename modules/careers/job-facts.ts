/** A public job's facts in the vocabularies of search engines and job boards. */
import { sql } from 'drizzle-orm'
import { parseLocation, type JobRow, type ParsedLocation } from '../jobs/index.ts'

/** Google's employmentType values (the JobPosting guidelines). */
export type EmploymentType = 'FULL_TIME' | 'PART_TIME' | 'CONTRACTOR' | 'TEMPORARY' | 'INTERN' | 'VOLUNTEER' | 'PER_DIEM' | 'OTHER'

/** From the contract type shown to candidates, else the vendor's own words for the engagement. */
export function employmentType(job: Pick<JobRow, 'contractType' | 'employment'>): EmploymentType | null {
	if (job.contractType === 'Fulltime') return 'FULL_TIME'
	if (job.contractType) return 'CONTRACTOR'
	const words = job.employment ?? ''
	if (/part[\s-]?time/i.test(words)) return 'PART_TIME'
	if (/intern/i.test(words)) return 'INTERN'
	if (/per[\s-]?diem/i.test(words)) return 'PER_DIEM'
	if (/temp/i.test(words)) return 'TEMPORARY'
	if (/contract|c2c|w2|1099|corp[\s-]?to[\s-]?corp/i.test(words)) return 'CONTRACTOR'
	if (/full[\s-]?time|perm/i.test(words)) return 'FULL_TIME'
	return null
}

const INDEED_JOB_TYPES: Record<EmploymentType, string> = {
	FULL_TIME: 'fulltime',
	PART_TIME: 'parttime',
	CONTRACTOR: 'contract',
	TEMPORARY: 'temporary',
	INTERN: 'internship',
	VOLUNTEER: 'volunteer',
	PER_DIEM: 'temporary',
	OTHER: 'other',
}

export function indeedJobType(job: Pick<JobRow, 'contractType' | 'employment'>): string | null {
	const type = employmentType(job)
	return type ? INDEED_JOB_TYPES[type] : null
}

/** Where the job is: its parsed address, and whether it is remote (by schedule or by its text). */
export function jobPlace(job: Pick<JobRow, 'location' | 'schedule'>): ParsedLocation & { fullyRemote: boolean; hybrid: boolean } {
	const place = parseLocation(job.location)
	return { ...place, fullyRemote: job.schedule === 'Remote' || (place.remote && job.schedule !== 'Hybrid'), hybrid: job.schedule === 'Hybrid' }
}

/**
 * `employmentType` as SQL over a job row `j`, for the careers search's type filter: the same rules
 * in the same order (job-search.test.ts holds the two to the same answers).
 */
export const employmentTypeSql = sql`case
	when j.contract_type = 'Fulltime' then 'FULL_TIME'
	when coalesce(j.contract_type, '') <> '' then 'CONTRACTOR'
	when j.employment ~* ${'part[\\s-]?time'} then 'PART_TIME'
	when j.employment ~* ${'intern'} then 'INTERN'
	when j.employment ~* ${'per[\\s-]?diem'} then 'PER_DIEM'
	when j.employment ~* ${'temp'} then 'TEMPORARY'
	when j.employment ~* ${'contract|c2c|w2|1099|corp[\\s-]?to[\\s-]?corp'} then 'CONTRACTOR'
	when j.employment ~* ${'full[\\s-]?time|perm'} then 'FULL_TIME'
end`

/** `jobPlace(job).fullyRemote` as SQL over `j`: remote by schedule, or by its location's words unless hybrid. */
export const fullyRemoteSql = sql`(j.schedule = 'Remote' or (j.location ~* ${'\\y(remote|anywhere|work from home|wfh)\\y'} and j.schedule is distinct from 'Hybrid'))`
