/**
 * Merge fields: `{{candidate.firstName}}` and the like in a template's subject and body, filled in
 * from the record a message is about when it is written. Pure functions, no database.
 *
 * Rules:
 * - Only the fields listed here exist: a template naming another (or with an unclosed `{{`) is
 *   refused when it is saved, naming the field.
 * - Spaces inside the braces are allowed (`{{ job.title }}`); names are case-sensitive.
 * - A field with no value for the record (no job chosen, no signature set) is left as it was and
 *   named, so the person sees what is missing before sending; a message is not sent with one.
 * - A one-line text (an e-mail's subject: it becomes a mail header) is filled with `fillInLine`:
 *   each value on one line (a two-line signature, a title sent with a line break), so a value can
 *   never add a line (or a header) to it. Its user still checks the filled text (its length).
 * - Every value is cleaned as the message around it is (`cleanText`): a name saved with a
 *   right-to-left override cannot turn the words that follow it around in what is sent.
 */
import { cleanLine, cleanText } from '../../core/untrusted.ts'

export const MERGE_FIELDS = {
	'candidate.firstName': 'The candidate’s first name',
	'candidate.lastName': 'The candidate’s last name',
	'candidate.name': 'The candidate’s full name',
	'job.title': 'The job’s title (of the application the message is about)',
	'job.url': 'The job’s page on the careers site (while the job is open)',
	'vendor.name': 'The vendor’s name',
	'vendor.contactName': 'The vendor’s contact person',
	'recruiter.name': 'Your name (the person sending)',
	'recruiter.email': 'Your e-mail address',
	'recruiter.signature': 'Your signature (set it on your profile page)',
	'firm.name': 'The firm’s name',
} as const

export type MergeField = keyof typeof MERGE_FIELDS
export type MergeValues = Partial<Record<MergeField, string | null>>

export const isMergeField = (name: string): name is MergeField => Object.hasOwn(MERGE_FIELDS, name)

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g

/** The field names written in a text, in order of first appearance (known or not). */
export function fieldsIn(text: string): string[] {
	return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]!))]
}

/** What is wrong with the merge fields of a text: unknown names and braces that do not close; [] when none. */
export function fieldProblems(text: string): string[] {
	const problems = fieldsIn(text)
		.filter((name) => !isMergeField(name))
		.map((name) => `{{${name}}} is not a merge field`)
	const rest = text.replace(PLACEHOLDER, '')
	if (rest.includes('{{') || rest.includes('}}')) problems.push('has “{{” or “}}” that is not a whole merge field such as {{candidate.firstName}}')
	return problems
}

/** How a text is filled: `oneLine` puts each value on one line (a subject); `inert` keeps every value from making a field when the text is filled in again. */
export interface FillOptions {
	oneLine?: boolean
	/**
	 * The filled text is filled in again later (the compose form's text, when sent: the person may type
	 * fields of their own), so no brace a value brings may be read as part of a field then: braces
	 * doubled in a value are spaced apart (`{ {`), and a value whose first or last brace meets the
	 * same brace beside it (`{{{candidate.name}}}` for a candidate named `{recruiter.email}`) is spaced
	 * from it. Fields are filled exactly once.
	 */
	inert?: boolean
}

const BRACE = /[{}]/

/** The text with each known field's value put in; fields without a value stay as written and are listed in `missing`. */
export function fillIn(text: string, values: MergeValues, options: FillOptions = {}): { text: string; missing: MergeField[] } {
	const missing = new Set<MergeField>()
	let out = ''
	let lastWasValue = false
	const append = (segment: string, value: boolean) => {
		const before = out[out.length - 1]
		if (options.inert && (value || lastWasValue) && before && BRACE.test(before) && segment[0] === before) out += ' '
		out += segment
		if (segment) lastWasValue = value
	}
	let last = 0
	for (const m of text.matchAll(PLACEHOLDER)) {
		append(text.slice(last, m.index), false)
		last = m.index + m[0].length
		const name = m[1]!
		const raw = isMergeField(name) ? values[name] : null
		const value = options.oneLine && raw ? cleanLine(raw, 1000) : raw && cleanText(raw).trim()
		if (value) append(options.inert ? value.replace(/\{(?=\{)/g, '{ ').replace(/\}(?=\})/g, '} ') : value, true)
		else {
			if (isMergeField(name)) missing.add(name)
			append(m[0], false)
		}
	}
	append(text.slice(last), false)
	return { text: out, missing: [...missing] }
}

/** `fillIn` for a one-line text (a subject): each value collapsed to one line, control characters removed. */
export const fillInLine = (text: string, values: MergeValues, options: Omit<FillOptions, 'oneLine'> = {}) => fillIn(text, values, { ...options, oneLine: true })
