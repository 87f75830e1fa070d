/**
 * A job's free-text location read as a postal address: "Charlotte, NC" → Charlotte / NC / US,
 * "Austin, Texas 78701" → Austin / TX / US with its postal code, "Seattle WA" or "Denver CO 80202"
 * (the state at the end after a space) alike; the first state named is the place ("Baltimore, md, TX"
 * is in MD; "Remote (CA) Denver, CO" in CA, brackets included). Vendors' shorthands are addresses too:
 * "US-CA-San Jose" is San Jose / CA, "NYC", "New York City", "NY, NY" and "New York" alone are the city
 * New York / NY. Remote words and work arrangements are no place ("Austin, TX/Remote" is in Austin, TX).
 * This is the one reading of a place: the pay-transparency check, the feeds and JSON-LD read it here, and
 * the careers search reads what it stored for each location (modules/careers/places.ts). Only US states
 * and DC are known; anything else keeps its first part as the locality and no region or country (the
 * careers module adds countries written out: `jobPlace`).
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
	// "Washington State", "New York State": the state, as its name alone is.
	return BY_NAME.get(part.toLowerCase().replace(/\s+state$/, '')) ?? null
}

/**
 * A state at the end of a part after a space ("Seattle WA", "Kansas City Missouri", "Charleston West
 * Virginia"), and the words before it. The longest name wins (West Virginia, not Virginia); a code
 * there must be written in capitals, so "Remote or Hybrid" or "Portland me" name no state.
 */
function trailingState(part: string): { code: string; before: string } | null {
	const words = part.split(/\s+/)
	for (let k = Math.min(3, words.length - 1); k >= 1; k--) {
		const suffix = words.slice(-k).join(' ')
		const code = k === 1 && /^[A-Z]{2}$/.test(suffix) && US_STATES[suffix] ? suffix : (BY_NAME.get(suffix.toLowerCase()) ?? null)
		if (code)
			return {
				code,
				before: words
					.slice(0, -k)
					.join(' ')
					.replace(/[-–\s]+$/, ''),
			}
	}
	return null
}

/** The District of Columbia's code written with dots ("Washington, D.C."), as a pattern: read as `DC`. */
const DC_DOTTED = 'D\\.\\s?C\\.?'
/** Every state's code, as alternatives of a pattern. */
const ALL_CODES = Object.keys(US_STATES).join('|')
/**
 * Other states after a slash ("Kansas City, MO/KS"): the first state written is the place, the others
 * name no place of their own. Codes in any case, as a code that is the whole part is read.
 */
const OTHER_STATES = `(\\s*/\\s*(${ALL_CODES.replace(/[A-Z]/g, (c) => `[${c.toLowerCase()}${c}]`)}))*`

/** Words of a work arrangement, not of a place. */
const WORK_MODE_WORDS = 'hybrid|on[- ]?site|in[- ]office|in[- ]person'

const DC_WITH_DOTS = new RegExp(`(^|[\\s,;|(])${DC_DOTTED}(?=$|[^A-Za-z])`, 'g')

/**
 * Whether a name is the United States ("US", "U.S.A.", "United States of America"), also as a
 * restriction ("US only", "in the US", "within the USA").
 */
export const isUnitedStates = (name: string): boolean =>
	US.test(
		name
			.trim()
			.replace(/^(in|within|across|throughout|from)\s+(the\s+)?/i, '')
			.replace(/^the\s+/i, '')
			.replace(/\s+only$/i, ''),
	)
/** The United States closing a part after a space ("Austin TX USA"). */
const US_AT_END = /\s+(US|USA|U\.S\.A?\.?|United States( of America)?)$/i

/**
 * Vendors' shorthands rewritten as an address: applicant-tracking systems' "US-CA-San Jose",
 * "USA-TX-Austin" and "TX-Austin" (country, state in capitals, city), "NY, NY" and "New York" alone as
 * "New York, NY" (the city; "NYC" and "New York City" are read as parts: `placeParts`).
 */
function vendorForms(text: string): string {
	const coded = /^\s*(?:(?:US|USA)\s*-\s*)?([A-Z]{2})\s*-\s*([^,;|()-][^,;|()]*?)\s*$/.exec(text)
	if (coded && US_STATES[coded[1]!]) return `${coded[2]}, ${coded[1]}`
	return text.replace(/^\s*(NY\s*,\s*NY\b|new york\s*$)/i, 'New York, NY')
}

/**
 * A work arrangement set apart from the place, before it, after it or in brackets: "Hybrid - Seattle,
 * WA", "Hybrid (Chicago, IL)", "Austin, TX - Onsite", "Seattle, WA (hybrid)". Only when set apart: in
 * "Remote OR Hybrid" no state is named.
 */
const WORK_MODE_APART = new RegExp(
	`^\\s*(${WORK_MODE_WORDS})\\s*([-–:/]\\s*|(?=\\())|\\(\\s*(${WORK_MODE_WORDS})\\s*\\)|\\s*[-–:/]\\s*(${WORK_MODE_WORDS})\\s*(?=[,;|()]|$)`,
	'gi',
)
/** Text that says no place: "N/A", "TBD", "Multiple locations". */
const NOT_A_PLACE =
	/^(n\/?a|tbd|tba|to be (determined|announced|confirmed)|(multiple|various|several)( locations| cities| sites)?|nationwide|(us )?(east|west) coast|midwest|flexible|unknown|none|any|[-–?.]+|([ecmp][sd]?t|utc|gmt)( time( ?zone)?| hours)?)$/i
/** Words of a sentence, never of a town's name: "US - must be in CA", "relocation required". */
const INSTRUCTION = new RegExp(
	`\\b(must|should|required|requires|preferred|relocat\\w*|willing|candidates?|residents?|only|based|located|within|near|eligible|${WORK_MODE_WORDS})\\b`,
	'i',
)
/** Several places in one part: "Portland or Seattle", "US/Canada" (a town's own name may hold "or" when its state follows: Truth or Consequences, NM). */
const SEVERAL_PLACES = /\s(or|and|&)\s|\//i

/**
 * The part read as a town, or null when it is none: no-place words, an instruction, digits, more
 * words than a town's name has, or (without a state after it) several places. A locality published
 * in JobPosting data and the feeds must be a place a search engine can find.
 */
function townName(part: string, stateFollows: boolean): string | null {
	const name = part.trim()
	if (!name || NOT_A_PLACE.test(name) || INSTRUCTION.test(name) || /\d/.test(name) || name.split(/\s+/).length > 5) return null
	if (!stateFollows && SEVERAL_PLACES.test(name)) return null
	return name
}

/** A part's text without its ZIP code and the other states after a slash ("MO/KS 64105" → MO), and the ZIP code. */
function partText(part: string): { rest: string; postalCode: string | null } {
	// `s`: a part may hold a line break (any text reaches here); without it the pattern matched nothing.
	const m = /^(.*?)\s*(\d{5}(?:-\d{4})?)?$/s.exec(part)
	return { rest: (m?.[1] ?? part).trim().replace(OTHER_STATES_AT_END, ''), postalCode: m?.[2] ?? null }
}
const OTHER_STATES_AT_END = new RegExp(`${OTHER_STATES}$`)

/** The part when it is the state `code` and nothing else, written either way ("New York" after "New York"), or null. */
function sameState(part: string, code: string): { code: string; postalCode: string | null } | null {
	const { rest, postalCode } = partText(part)
	return stateCode(rest) === code ? { code, postalCode } : null
}

/** The state a whole part is written as a code ("NC", "md", "DC 20001"), or null. */
function codePart(part: string): { code: string; postalCode: string | null } | null {
	const { rest, postalCode } = partText(part)
	return /^[A-Za-z]{2}$/.test(rest) && US_STATES[rest.toUpperCase()] ? { code: rest.toUpperCase(), postalCode } : null
}

/** A time zone or a note on hours ("PST", "EST hours", "PST/MST"): no place. */
const TIME_ZONE = /^(([ecmp][sd]?t|utc|gmt)(\s*\/\s*([ecmp][sd]?t|utc|gmt))*)( time( ?zone)?| hours)?$/i

/**
 * The parts of a location that may name a place, in order: vendors' shorthands rewritten
 * (`vendorForms`), remote words and work arrangements and the separators around them removed
 * ("Austin, TX/Remote", "Remote—US", "Boston or Remote"), brackets set apart as parts of their own,
 * New York City's names as "New York, NY", time zones dropped.
 */
export function placeParts(text: string): string[] {
	const cleaned = vendorForms(text)
		.replace(DC_WITH_DOTS, '$1DC')
		.replace(WORK_MODE_APART, '')
		// Brackets set a place apart ("Remote (CA) Denver, CO": CA is named first), unless they say remote work.
		.replace(/\((?:[^)]*)\)/g, (m) => (REMOTE.test(m) ? ',' : `,${m.slice(1, -1)},`))
		// A remote word is no place, nor are the separators around it ("Austin, TX/Remote", "Remote - US").
		.replace(/\s*[-–—:/]?\s*\b(100% |fully |hybrid )?(remote|anywhere|work from home|wfh)\b\s*[-–—:/]?\s*/gi, ',')
	return (
		cleaned
			// " / " before a place is a list ("Jersey City, NJ / New York, NY"); "MO/KS", "MO / KS" and "Dallas/Fort Worth" are not.
			.split(/[,;|]|\s+\/\s+(?![A-Za-z]{2}(?![A-Za-z]))/)
			.map((p) =>
				p
					.trim()
					.replace(/^[-–—\s]+|[-–—\s]+$/g, '')
					.replace(/^(or|and|&)\s+|\s+(or|and|&)$/gi, ''),
			)
			.filter((p) => p && !TIME_ZONE.test(p))
			.flatMap((p) => (/^(nyc|new york city)$/i.test(p) ? ['New York', 'NY'] : [p]))
	)
}

/**
 * The place is the first state the location names, with the town before it: "Baltimore, md, TX" is
 * in Maryland (a second state, or a country after it, is no place of its own), "Kansas City, MO/KS" in
 * Missouri. A state's name followed by a part that is a state's code is a town in that state
 * ("Washington, DC", "Fort Washington, MD", "Indiana, PA"), as it is before the same state ("New York,
 * New York"). The careers search reads the place stored from this reading (modules/careers/places.ts).
 */
export function parseLocation(text: string | null | undefined): ParsedLocation {
	const out: ParsedLocation = { locality: null, region: null, country: null, postalCode: null, remote: false }
	if (!text?.trim()) return out
	out.remote = REMOTE.test(text)
	const parts = placeParts(text)
	// The United States, as a part of its own anywhere ("Remote (USA) - NYC preferred") or closing the last one ("Austin TX USA").
	const us = parts.findIndex((part) => isUnitedStates(part))
	if (us >= 0) {
		out.country = 'US'
		parts.splice(us, 1)
	} else if (parts.length && US_AT_END.test(parts.at(-1)!)) {
		out.country = 'US'
		parts[parts.length - 1] = parts.at(-1)!.replace(US_AT_END, '')
	}
	for (let i = 0; i < parts.length && !out.region; i++) {
		const { rest, postalCode } = partText(parts[i]!)
		// The whole part ("CO", "Texas 78701"), else its last words after a space ("Denver CO 80202").
		const whole = stateCode(rest)
		const state = whole ? { code: whole, before: '' } : trailingState(rest)
		if (!state) continue
		const next = i + 1 < parts.length ? (codePart(parts[i + 1]!) ?? sameState(parts[i + 1]!, state.code)) : null
		// Its state written as a name (no state's name ends in a two-letter word), and the next part a state: the whole part is the town.
		if (next && !/(^|\s)[A-Za-z]{2}$/.test(rest)) {
			out.region = next.code
			out.postalCode = next.postalCode
			out.locality = townName(rest, true)
		} else {
			out.region = state.code
			out.postalCode = postalCode
			if (state.before) out.locality = townName(state.before, true)
			else if (i > 0) out.locality = townName(parts[i - 1]!, true)
		}
		out.country = 'US'
	}
	if (!out.region && parts.length && !out.locality) out.locality = townName(parts[0]!, false)
	return out
}
