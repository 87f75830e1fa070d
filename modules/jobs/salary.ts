/**
 * A job's pay as stored: whole amounts in the workspace currency (USD), no period. Amounts up to
 * 1,000 can only be hourly rates; larger ones are yearly salaries. 0 is no amount (a form or feed
 * that sends 0 for "not given"): 0-0 is no pay, 0-120,000 is "up to $120,000". A range is in one
 * unit: 50-150,000 (an hourly rate to a yearly salary) is refused (`mixedPayUnits`), as it was
 * published as "$50 - $150,000 per year".
 */
import type { FieldError } from '../../core/errors.ts'

/** The largest amount that is an hourly rate. */
export const HOURLY_MAX = 1000

interface Pay {
	salaryMin: number | null
	salaryMax: number | null
}

export type PayUnit = 'HOUR' | 'YEAR'

/** An amount that says something: above 0. */
const given = (n: number | null) => (n !== null && n > 0 ? n : null)

export function payUnit(job: Pay): PayUnit | null {
	const top = given(job.salaryMax) ?? given(job.salaryMin)
	if (top === null) return null
	return top <= HOURLY_MAX ? 'HOUR' : 'YEAR'
}

const money = (n: number) => `$${n.toLocaleString('en-US')}`

/**
 * The amounts that say something (above 0), lowest first: every door refuses a range stored upside
 * down, but a row stored before that rule (or by a writer that skipped it) is shown low to high, as a
 * candidate reads a range, never "$120,000 - $90,000" (Google's baseSalary wants minValue ≤ maxValue).
 */
export function payBounds(job: Pay): { min: number | null; max: number | null } {
	const [min, max] = [given(job.salaryMin), given(job.salaryMax)]
	return min !== null && max !== null && min > max ? { min: max, max: min } : { min, max }
}

/** "$90,000 - $120,000 per year", "from $60 per hour", or null without pay. */
export function payText(job: Pay): string | null {
	const unit = payUnit(job)
	if (!unit) return null
	const per = unit === 'HOUR' ? 'per hour' : 'per year'
	const { min, max } = payBounds(job)
	if (min !== null && max !== null) return `${money(min)} - ${money(max)} ${per}`
	if (min !== null) return `from ${money(min)} ${per}`
	return `up to ${money(max!)} ${per}`
}

/** The problem (on salaryMin) of a range whose bounds are in different units, one hourly and one yearly; null otherwise. */
export function mixedPayUnits(job: Pay): FieldError | null {
	const [min, max] = [given(job.salaryMin), given(job.salaryMax)]
	if (min === null || max === null || min <= HOURLY_MAX === max <= HOURLY_MAX) return null
	return {
		field: 'salaryMin',
		message: `must be in the same unit as salaryMax: amounts up to ${HOURLY_MAX.toLocaleString('en-US')} are hourly rates and larger ones yearly salaries, so ${min} to ${max} mixes the two`,
	}
}
