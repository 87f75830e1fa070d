/** A public job's facts in the vocabularies of search engines and job boards. */
import { sql } from 'drizzle-orm'
import {
	isUnitedStates,
	parseLocation,
	payBounds,
	placeParts,
	payText,
	payUnit,
	REMOTE_LOCATION_WORDS,
	type JobRow,
	type ParsedLocation,
	type PayUnit,
	toDate,
} from '../jobs/index.ts'

/** Google's employmentType values (the JobPosting guidelines). */
export type EmploymentType = 'FULL_TIME' | 'PART_TIME' | 'CONTRACTOR' | 'TEMPORARY' | 'INTERN' | 'VOLUNTEER' | 'PER_DIEM' | 'OTHER'

/**
 * The vendor's words for each type, in the order they are tried. Written once for both engines that
 * read them (JavaScript here, PostgreSQL in `employmentTypeSql`): explicit classes, never `\s`, which
 * takes a no-break space in JavaScript and not in PostgreSQL (a job shown as Part-time was missing
 * from the Part-time filter). Whole words only (`wholeWords`): "intern" inside "internal" or
 * "international", "temp" inside "contemporary" made a full-time job an internship or temporary.
 */
const GAP = '[ \\t\\n\\r\\u00a0-]?'
/** Words bounded by anything but an ASCII letter, digit or underscore, as `REMOTE_LOCATION_WORDS` is (`\b` and PostgreSQL's `\y` disagree on letters such as Å). */
const wholeWords = (words: string) => `(^|[^a-z0-9_])(${words})([^a-z0-9_]|$)`
const TYPE_WORDS: readonly (readonly [EmploymentType, string])[] = (
	[
		['PART_TIME', `part${GAP}time`],
		['INTERN', 'interns?|internships?'],
		['PER_DIEM', `per${GAP}diem`],
		['TEMPORARY', 'temps?|temporary'],
		['CONTRACTOR', `contract(s|ors?|ing)?|c2c|w2|1099|corp${GAP}to${GAP}corp`],
		['FULL_TIME', `full${GAP}time|perm|permanent`],
	] as const
).map(([type, words]) => [type, wholeWords(words)] as const)
const TYPE_PATTERNS = TYPE_WORDS.map(([type, words]) => [type, new RegExp(words, 'i')] as const)

/** From the contract type shown to candidates, else the vendor's own words for the engagement. */
export function employmentType(job: Pick<JobRow, 'contractType' | 'employment'>): EmploymentType | null {
	if (job.contractType === 'Fulltime') return 'FULL_TIME'
	if (job.contractType) return 'CONTRACTOR'
	const words = job.employment ?? ''
	return TYPE_PATTERNS.find(([, pattern]) => pattern.test(words))?.[0] ?? null
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

export const indeedJobType = (type: EmploymentType | null): string | null => (type ? INDEED_JOB_TYPES[type] : null)

/** How candidates read each employment type (the careers search's type filter offers the first five). */
export const EMPLOYMENT_TYPE_LABELS: Readonly<Record<EmploymentType, string>> = {
	FULL_TIME: 'Full-time',
	PART_TIME: 'Part-time',
	CONTRACTOR: 'Contract',
	TEMPORARY: 'Temporary',
	INTERN: 'Internship',
	VOLUNTEER: 'Volunteer',
	PER_DIEM: 'Per diem',
	OTHER: 'Other',
}

/**
 * Codes Intl still names that are no country today: withdrawn ones (their country has its own
 * code, which must win the name) and groupings or private use.
 */
const NOT_COUNTRIES = new Set([
	'AN',
	'BU',
	'CS',
	'DD',
	'DY',
	'EU',
	'EZ',
	'FX',
	'HV',
	'NH',
	'QO',
	'RH',
	'SU',
	'TP',
	'UK',
	'UN',
	'VD',
	'XA',
	'XB',
	'YD',
	'YU',
	'ZR',
	'ZZ',
])
/** What people write that Intl's English names are not. */
const COUNTRY_ALIASES: Readonly<Record<string, string>> = {
	uk: 'GB',
	'u.k.': 'GB',
	'great britain': 'GB',
	britain: 'GB',
	england: 'GB',
	scotland: 'GB',
	wales: 'GB',
	uae: 'AE',
	'czech republic': 'CZ',
	turkey: 'TR',
	'hong kong': 'HK',
	macau: 'MO',
	'the netherlands': 'NL',
}
const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region' })
const normalName = (name: string) =>
	name
		.trim()
		.toLowerCase()
		.replace(/\s*&\s*/g, ' and ')
		.replace(/\s+/g, ' ')

/** English country name → ISO 3166-1 alpha-2, from Intl's region names (every ISO country, no list to keep). */
const COUNTRIES: ReadonlyMap<string, string> = (() => {
	const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
	const byName = new Map(Object.entries(COUNTRY_ALIASES))
	for (const a of letters)
		for (const b of letters) {
			const code = a + b
			const name = REGION_NAMES.of(code)
			if (name && name !== code && !NOT_COUNTRIES.has(code)) byName.set(normalName(name), code)
		}
	return byName
})()

/** The English name of a country code ("CA" → "Canada"). */
export const countryName = (code: string): string => REGION_NAMES.of(code) ?? code

/** A country written out ("Canada", "United Kingdom", "UK"); never a two-letter code: CA, IN, DE are US states too. */
const countryCode = (part: string): string | null => COUNTRIES.get(normalName(part)) ?? null

const REMOTE_WORDS = /\b(?:100% |fully |hybrid )?(?:remote|anywhere|work from home|wfh)\b\s*[-–:/]?\s*/gi

/** The location's parts, remote words and brackets aside: "Remote (Toronto, Canada)" → Toronto, Canada. */
function addressParts(text: string): string[] {
	return text
		.replace(/[()]/g, ',')
		.replace(REMOTE_WORDS, '')
		.split(/[,;|]/)
		.map((p) => p.trim().replace(/^[-–\s]+|[-–\s]+$/g, ''))
		.filter(Boolean)
}

/** Words that join a country to what comes before it ("Anywhere in Canada", "based in Germany"): no place of their own. */
const JOINING_WORDS = /^(?:in|within|from|across|throughout|based in|located in|only)?$/i

/** A country closing a part ("in Canada", "United States"), and the words before it. */
function countryAtEnd(part: string): { code: string; before: string } | null {
	const words = part.split(/\s+/)
	for (let n = Math.min(4, words.length); n >= 1; n--) {
		const code = countryCode(words.slice(-n).join(' '))
		if (code) return { code, before: words.slice(0, -n).join(' ') }
	}
	return null
}

/**
 * The location parser knows US addresses only. Elsewhere, a country is read here, the last part that
 * ends with one: "Toronto, ON, Canada" → Toronto / ON / CA, "Remote - Canada" and "Anywhere in Canada" →
 * CA alone; the region is the part before the country, as written. What follows the country is a
 * note, not a place ("United States (EST hours)"). Without a country named, nothing is guessed from a city;
 * a Canadian province closing the address names its country (`canadianProvince`).
 */
function foreignAddress(text: string | null): Pick<ParsedLocation, 'locality' | 'region' | 'country' | 'postalCode'> | null {
	const province = canadianProvince(placeParts(text ?? ''))
	if (province) return province
	const parts = addressParts(text ?? '')
	for (let i = parts.length - 1; i >= 0; i--) {
		const found = countryAtEnd(parts[i]!)
		if (!found) continue
		const rest = [...parts.slice(0, i), ...(JOINING_WORDS.test(found.before) ? [] : [found.before])]
		return {
			locality: rest.length > 1 ? rest.at(-2)! : (rest[0] ?? null),
			region: rest.length > 1 ? rest.at(-1)! : null,
			country: found.code,
			postalCode: null,
		}
	}
	return null
}

/** Canada's provinces and territories: Canada Post's code → name. No code is also a US state's. */
const CANADIAN_PROVINCES: Readonly<Record<string, string>> = {
	AB: 'Alberta',
	BC: 'British Columbia',
	MB: 'Manitoba',
	NB: 'New Brunswick',
	NL: 'Newfoundland and Labrador',
	NS: 'Nova Scotia',
	NT: 'Northwest Territories',
	NU: 'Nunavut',
	ON: 'Ontario',
	PE: 'Prince Edward Island',
	QC: 'Quebec',
	SK: 'Saskatchewan',
	YT: 'Yukon',
}
const PROVINCE_BY_NAME = new Map(Object.entries(CANADIAN_PROVINCES).map(([code, name]) => [name.toLowerCase(), code]))
/** A Canadian postal code after the province ("Toronto, ON M5V 2T6"). */
const CANADIAN_POSTAL_CODE = /\s+[A-Za-z]\d[A-Za-z]\s?\d[A-Za-z]\d$/

/**
 * A town and its province with no country written ("Toronto, ON", "Montreal, Quebec", "Calgary, AB
 * T2P 1J9"): the province names the country, as a US state does. Read from the location's parts as the
 * US reading splits them (work arrangements and remote words aside); the code in capitals, as a state's
 * code at the end of a part must be; the last part only. A US state comes first ("Ontario, CA" is California's).
 */
function canadianProvince(parts: string[]): Pick<ParsedLocation, 'locality' | 'region' | 'country' | 'postalCode'> | null {
	if (parts.length < 2) return null
	const last = parts.at(-1)!.replace(CANADIAN_POSTAL_CODE, '')
	const code = /^[A-Z]{2}$/.test(last) && CANADIAN_PROVINCES[last] ? last : (PROVINCE_BY_NAME.get(last.toLowerCase()) ?? null)
	return code ? { locality: parts.at(-2)!, region: code, country: 'CA', postalCode: null } : null
}

/** An area of several countries ("Remote (EU)", "EMEA"): no locality, and no single country for its applicants. */
const AREAS =
	/^(?:the )?(?:eu|european union|europe|emea|apac|latam|americas|north america|latin america|south america|asia|asia pacific|africa|middle east|worldwide|global|international)$/i

/** A part naming several countries ("US or Canada", "USA/Canada", "UK and Ireland"): where the job is, is no one of them. */
function severalCountries(text: string | null): boolean {
	return addressParts(text ?? '').some((part) => {
		const names = part.split(/\s+(?:or|and|&)\s+|\s*\/\s*/i).filter(Boolean)
		return names.length > 1 && names.every((n) => isUnitedStates(n) || countryCode(n) !== null)
	})
}

export type JobPlace = ParsedLocation & {
	fullyRemote: boolean
	hybrid: boolean
	/** The location names an area of several countries (`AREAS`), so where applicants must live is no one country. */
	area: boolean
}

/** Where the job is: its parsed address, and whether it is remote (by schedule or by its text). */
export function jobPlace(job: Pick<JobRow, 'location' | 'schedule'>): JobPlace {
	const parsed = parseLocation(job.location)
	const several = severalCountries(job.location)
	const found = several
		? { ...parsed, locality: null, region: null, country: null, postalCode: null }
		: parsed.country
			? parsed
			: { ...parsed, ...foreignAddress(job.location) }
	const area = several || (!found.country && !found.region && Boolean(found.locality && AREAS.test(found.locality)))
	const place = area ? { ...found, locality: null } : found
	return { ...place, area, fullyRemote: job.schedule === 'Remote' || (place.remote && job.schedule !== 'Hybrid'), hybrid: job.schedule === 'Hybrid' }
}

/** The pay as shown ("$90,000 - $120,000 per year") and as data (amounts and unit). */
export interface JobPay {
	text: string
	unit: PayUnit
	min: number | null
	max: number | null
}

/**
 * Everything a public job tells about itself, read once: the job page shows each fact, the
 * JobPosting data and the feeds carry them in their own vocabularies. Built in one place so that no
 * public output says something another leaves out (Google asks that structured data describe what
 * the page shows; pay-transparency laws ask that the range be shown).
 */
export interface JobFacts {
	/** The location as written (for people) and read as an address (for search engines and boards). */
	location: string | null
	place: JobPlace
	pay: JobPay | null
	employmentType: EmploymentType | null
	schedule: string | null
	contractType: string | null
	visa: string | null
	minYears: number | null
	department: string | null
	posted: Date
}

export function jobFacts(job: JobRow): JobFacts {
	const unit = payUnit(job)
	const text = payText(job)
	return {
		location: job.location,
		place: jobPlace(job),
		pay: unit && text ? { text, unit, ...payBounds(job) } : null,
		employmentType: employmentType(job),
		schedule: job.schedule,
		contractType: job.contractType,
		visa: job.visa,
		minYears: job.minYears,
		department: job.department,
		posted: toDate(job.publishedAt ?? job.createdAt),
	}
}

/**
 * `employmentType` as SQL over a job row `j`, for the careers search's type filter: the same rules
 * in the same order (job-search.test.ts holds the two to the same answers).
 */
export const employmentTypeSql = sql`case
	when j.contract_type = 'Fulltime' then 'FULL_TIME'
	when coalesce(j.contract_type, '') <> '' then 'CONTRACTOR'
	${sql.join(
		TYPE_WORDS.map(([type, words]) => sql`when j.employment ~* ${words} then ${type}`),
		sql` `,
	)}
end`

/** `jobPlace(job).fullyRemote` as SQL over `j`: remote by schedule, or by its location's words unless hybrid. */
export const fullyRemoteSql = sql`(j.schedule = 'Remote' or (j.location ~* ${REMOTE_LOCATION_WORDS} and j.schedule is distinct from 'Hybrid'))`
