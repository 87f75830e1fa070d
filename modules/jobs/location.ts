/**
 * A job's free-text location read as a postal address: "Charlotte, NC" → Charlotte / NC / US,
 * "Austin, Texas 78701" → Austin / TX / US with its postal code. Only US states and DC are known;
 * anything else keeps its first part as the locality and no region or country.
 */

/** US states and DC: USPS code → name. */
export const US_STATES: Readonly<Record<string, string>> = {
	AL: 'Alabama',
	AK: 'Alaska',
	AZ: 'Arizona',
	AR: 'Arkansas',
	CA: 'California',
	CO: 'Colorado',
	CT: 'Connecticut',
	DE: 'Delaware',
	DC: 'District of Columbia',
	FL: 'Florida',
	GA: 'Georgia',
	HI: 'Hawaii',
	ID: 'Idaho',
	IL: 'Illinois',
	IN: 'Indiana',
	IA: 'Iowa',
	KS: 'Kansas',
	KY: 'Kentucky',
	LA: 'Louisiana',
	ME: 'Maine',
	MD: 'Maryland',
	MA: 'Massachusetts',
	MI: 'Michigan',
	MN: 'Minnesota',
	MS: 'Mississippi',
	MO: 'Missouri',
	MT: 'Montana',
	NE: 'Nebraska',
	NV: 'Nevada',
	NH: 'New Hampshire',
	NJ: 'New Jersey',
	NM: 'New Mexico',
	NY: 'New York',
	NC: 'North Carolina',
	ND: 'North Dakota',
	OH: 'Ohio',
	OK: 'Oklahoma',
	OR: 'Oregon',
	PA: 'Pennsylvania',
	RI: 'Rhode Island',
	SC: 'South Carolina',
	SD: 'South Dakota',
	TN: 'Tennessee',
	TX: 'Texas',
	UT: 'Utah',
	VT: 'Vermont',
	VA: 'Virginia',
	WA: 'Washington',
	WV: 'West Virginia',
	WI: 'Wisconsin',
	WY: 'Wyoming',
}

const BY_NAME = new Map(Object.entries(US_STATES).map(([code, name]) => [name.toLowerCase(), code]))
const US = /^(us|usa|u\.s\.a?\.?|united states( of america)?)$/i
/**
 * A location's words for remote work, as a pattern JavaScript and PostgreSQL read the same (the
 * careers search filters with it in SQL): words bounded by anything but an ASCII letter, digit or
 * underscore, where `\b` and PostgreSQL's `\y` disagree on letters such as Å.
 */
export const REMOTE_LOCATION_WORDS = '(^|[^a-z0-9_])(remote|anywhere|work[ \\t\\u00a0]+from[ \\t\\u00a0]+home|wfh)([^a-z0-9_]|$)'
const REMOTE = new RegExp(REMOTE_LOCATION_WORDS, 'i')

export interface ParsedLocation {
	locality: string | null
	/** USPS state code. */
	region: string | null
	/** ISO 3166-1 alpha-2 (only `US` is recognised). */
	country: string | null
	postalCode: string | null
	/** The text names remote work ("Remote", "Remote - US", "Denver, CO (remote)"). */
	remote: boolean
}

function stateCode(part: string): string | null {
	const upper = part.toUpperCase()
	if (US_STATES[upper]) return upper
	return BY_NAME.get(part.toLowerCase()) ?? null
}

export function parseLocation(text: string | null | undefined): ParsedLocation {
	const out: ParsedLocation = { locality: null, region: null, country: null, postalCode: null, remote: false }
	if (!text?.trim()) return out
	out.remote = REMOTE.test(text)
	const cleaned = text
		.replace(/\((?:[^)]*)\)/g, (m) => (REMOTE.test(m) ? '' : m.slice(1, -1)))
		.replace(/\b(100% |fully |hybrid )?(remote|anywhere|work from home|wfh)\b\s*[-–:/]?\s*/gi, '')
	const parts = cleaned
		.split(/[,;|]/)
		.map((p) => p.trim().replace(/^[-–\s]+|[-–\s]+$/g, ''))
		.filter(Boolean)
	if (parts.length && US.test(parts[parts.length - 1]!)) {
		out.country = 'US'
		parts.pop()
	}
	for (let i = parts.length - 1; i >= 0 && !out.region; i--) {
		// `s`: a part may hold a line break (any text reaches here); without it the pattern matched nothing.
		const m = /^(.*?)\s*(\d{5}(?:-\d{4})?)?$/s.exec(parts[i]!)
		if (!m) continue
		const code = stateCode(m[1]!.trim())
		if (!code) continue
		out.region = code
		out.country = 'US'
		if (m[2]) out.postalCode = m[2]
		if (i > 0) out.locality = parts[i - 1]!
	}
	if (!out.region && parts.length && !out.locality) out.locality = parts[0]!
	return out
}
