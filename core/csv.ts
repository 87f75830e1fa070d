/**
 * CSV for spreadsheets (RFC 4180, csv-stringify), the one way every download and export writes it
 * (the audit trail, the EEO report). Its cells hold text other people wrote (job titles from vendors,
 * the names of apps and tokens, stage names), and a spreadsheet runs a cell that looks like a formula
 * (OWASP, CSV Injection). So each text cell:
 *
 * - loses the characters that are not text (control characters but tab and line feed, direction
 *   overrides, zero-width characters, noncharacters, lone surrogates): a NUL or a zero-width space
 *   before `=` hid the formula from the check below, and a spreadsheet may drop them and run it;
 * - starts with `'` when its first visible character is `=`, `+`, `-` or `@` (their full-width forms
 *   too), or when it starts with a tab or a line break: a spreadsheet shows the text as text. Spaces
 *   before the sign do not make it safe (some spreadsheets trim them on import);
 * - is quoted when it holds `;` or a tab, as it is for `,`, `"` and line breaks: where the list
 *   separator is `;` (much of Europe), Excel splits an unquoted `Dev;=cmd|'/c calc'!A0` in two, and
 *   the second cell would start with `=`.
 *
 * Numbers are written as numbers (a negative one stays a number).
 */
import { stringify } from 'csv-stringify/sync'
import { fileText } from './untrusted.ts'

export type CsvValue = string | number | null | undefined

// A formula's first character after any white space, or a tab or line break that a spreadsheet may read as a cell of its own.
const RUNS_AS_FORMULA = /^(?:[\s\p{Z}]*[=+\-@\uff1d\uff0b\uff0d\uff20]|[\t\r\n])/u

/** One cell's text as a spreadsheet must read it: only text, never a formula. */
export function csvText(value: string): string {
	const text = fileText(value)
	return RUNS_AS_FORMULA.test(text) ? `'${text}` : text
}

const cell = (value: CsvValue) => (typeof value === 'string' ? csvText(value) : value)

/** Rows as CSV lines (each ending with a line break); `bom` starts the text with a byte-order mark (for Excel). */
export function csvRows(rows: readonly (readonly CsvValue[])[], { bom = false } = {}): string {
	return stringify(
		rows.map((row) => row.map(cell)),
		// `escape_formulas` stays on as a second guard; `quoted_match` quotes a cell holding `;` or a tab.
		{ bom, escape_formulas: true, quoted_match: /[;\t]/ },
	)
}
