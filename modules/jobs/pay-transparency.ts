/**
 * US pay-transparency laws: a job posting that can be filled in these states must show a pay
 * range. Source: the states' statutes, list as of 2026-12-02: Colorado (Equal Pay for Equal Work
 * Act, C.R.S. 8-5-201), California (Labor Code 432.3), Washington (RCW 49.58.110), New York (Labor Law
 * 194-b; New York City has its own), Illinois (Equal Pay Act, 820 ILCS 112/10, 2025), Maryland (Labor
 * and Employment 3-304.2, 2024), Minnesota (Stat. 181.173, 2025), Massachusetts (c. 149 s. 105E, 2025),
 * New Jersey (N.J.S.A. 34:11-56a52, 2025), Vermont (21 V.S.A. 495o, 2025), Hawaii (HRS 378-2.4, 2024),
 * District of Columbia (Wage Transparency Omnibus Amendment Act, 2025). A remote job can usually be
 * filled in any of them, so it is covered too. This is the one list: change it here.
 */
import { parseLocation, US_STATES } from './location.ts'

export const PAY_TRANSPARENCY_STATES: readonly string[] = ['CO', 'CA', 'WA', 'NY', 'IL', 'MD', 'MN', 'MA', 'NJ', 'VT', 'HI', 'DC']

interface PayFacts {
	location: string | null
	schedule: string | null
	salaryMin: number | null
	salaryMax: number | null
}

/** Where a job that lacks a pay range can be filled under such a law: a state (its name and code), or remote work. */
export function missingPayRange(job: PayFacts): { state: string; code: string } | { remote: true } | null {
	if (job.salaryMin !== null && job.salaryMax !== null) return null
	const place = parseLocation(job.location)
	if (place.region && PAY_TRANSPARENCY_STATES.includes(place.region)) return { state: US_STATES[place.region]!, code: place.region }
	if (job.schedule === 'Remote' || place.remote) return { remote: true }
	return null
}

/** The same as one sentence naming the state (or saying remote), for warnings and pages. */
export function payRangeRule(job: PayFacts): string | null {
	const missing = missingPayRange(job)
	if (!missing) return null
	if ('remote' in missing)
		return `A remote job can be filled from states whose law requires a pay range on job postings (${PAY_TRANSPARENCY_STATES.join(', ')}), and this job has none.`
	return `${missing.state} (${missing.code}) requires a pay range on job postings that can be filled there, and this job has none.`
}

/** The same in a few words, for the portal's job page: "Illinois (IL) law requires one". */
export function payRangeLaw(job: PayFacts): string | null {
	const missing = missingPayRange(job)
	if (!missing) return null
	return 'remote' in missing ? 'Remote: state laws require one' : `${missing.state} (${missing.code}) law requires one`
}

/** The publish warning for an open job that needs a pay range and has none. */
export function payRangeWarning(job: PayFacts): string | null {
	const rule = payRangeRule(job)
	return rule ? `Pay transparency: ${rule} It is published all the same, without pay: this API takes no pay range, and none is shown or invented.` : null
}
