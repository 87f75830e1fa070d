/**
 * A job's pay as stored: whole amounts in the workspace currency (USD), no period. Amounts up to
 * 1,000 can only be hourly rates; larger ones are yearly salaries.
 */

interface Pay {
	salaryMin: number | null
	salaryMax: number | null
}

export type PayUnit = 'HOUR' | 'YEAR'

export function payUnit(job: Pay): PayUnit | null {
	const top = job.salaryMax ?? job.salaryMin
	if (top === null) return null
	return top <= 1000 ? 'HOUR' : 'YEAR'
}

const money = (n: number) => `$${n.toLocaleString('en-US')}`

/** "$90,000 - $120,000 per year", "from $60 per hour", or null without pay. */
export function payText(job: Pay): string | null {
	const unit = payUnit(job)
	if (!unit) return null
	const per = unit === 'HOUR' ? 'per hour' : 'per year'
	if (job.salaryMin !== null && job.salaryMax !== null) return `${money(job.salaryMin)} - ${money(job.salaryMax)} ${per}`
	if (job.salaryMin !== null) return `from ${money(job.salaryMin)} ${per}`
	return `up to ${money(job.salaryMax!)} ${per}`
}
