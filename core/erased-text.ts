/**
 * Copies of an erased person's name, e-mail address and phone number in free text written about
 * them (mail sent, a search typed, a to-do's title in the activity log): found case-insensitively
 * (a phone number however it is written) and replaced by `ERASED`, so nothing kept elsewhere still
 * names them. Used by the modules whose rows are not the person's but may mention them. A name is
 * found as search finds it (core/folded-pattern.ts): without its accents, in capitals, full width.
 */
import { type SQL, sql } from 'drizzle-orm'
import type { Database, Db } from '../db/client.ts'
import { foldedWordPattern, type TextForm } from './folded-pattern.ts'

/** What an erased person's name and details become wherever they stay mentioned. */
export const ERASED = 'Erased candidate'

/**
 * A space, for PostgreSQL's regular expressions: `\s` and the Unicode spaces it leaves out under the
 * C locale (the embedded database's `C.UTF-8`): the no-break space U+00A0 (a word processor's between
 * a first name and a surname, or in a phone number), U+2000–U+200A, U+202F, U+205F and U+3000, all
 * of which JavaScript's `\s` (which split the needle into words) matches. Inside a bracket expression.
 */
const SPACE = String.raw`\s\u00a0\u2000-\u200a\u202f\u205f\u3000`

/**
 * Between two words of a needle: any run of what is neither a letter nor a digit, as search reads
 * the words of what is typed (`queryWords`, core/text-search.ts): spaces (`SPACE`), tabs or line
 * breaks (as typed, or escaped in JSON text: `\t`), a comma ("Wilson, Fatima"), a hyphen, a slash, a
 * plus ("fatima-wilson", "Wilson/Fatima"). A search typed "fatima   wilson" found the person and kept
 * their name after the erasure, which matched the name only as stored; so did "fatima-wilson". Never a
 * quote or a backslash but a JSON escape: in JSON text those end a string or start an escape, and a
 * match across them would take JSON apart.
 */
const BETWEEN_WORDS = String.raw`(?:[^[:alnum:]"\\]|\\[tnr])+`

/**
 * Between two digits of a phone number, as people write them: "(555) 014-2299", "555.014.2299",
 * "5550142299"; the brackets, dot and dash in full width too (（５５５）０１４－２２９９), as search reads them.
 */
const PHONE_GAP = `[${SPACE}().（）．－-]*`

/** A digit as search reads it: ASCII or full width (`５`), which search folds to the same number. */
const phoneDigit = (d: string) => `[${d}${String.fromCodePoint(0xff10 + Number(d))}]`

/** A needle that is a phone number: digits with `+ ( ) . -` and spaces, 7 to 15 digits. */
const isPhone = (needle: string) => /^[+\d\s().-]+$/.test(needle) && /^(?:\D*\d){7,15}\D*$/.test(needle)

/**
 * A phone number however it is written: its digits (ASCII or full width) with any of `PHONE_GAP`
 * between them, not inside a longer number. A North American number (ten digits, or eleven starting with 1) is its last ten
 * digits, with or without `+1` or `1` before them: `+1 555 014 2299` is also "(555) 014-2299".
 */
function phonePattern(needle: string): string {
	const digits = needle.replace(/\D/g, '')
	const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits.length === 10 ? digits : null
	const prefix = national ? `(?:[+＋]?${phoneDigit('1')}${PHONE_GAP})?[(（]?` : '[+＋]?[(（]?'
	return `(?<![0-9０-９])${prefix}${[...(national ?? digits)].map(phoneDigit).join(PHONE_GAP)}(?![0-9０-９])`
}

/**
 * Scripts written without spaces between words, or with particles and honorifics joined to a name
 * (kana, CJK ideographs, Hangul, Thai, Lao, Khmer, Myanmar): a letter of theirs next to a name does not
 * make it part of a longer word ("マリアさん" is マリア and an honorific, "김민준씨" 김민준 and one).
 * Inside a bracket expression.
 */
const UNSPACED = String.raw`\u0e00-\u0eff\u1000-\u109f\u1100-\u11ff\u1780-\u17ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f`

/**
 * Before and after a needle (a surname, a name, an address): no letter of a script that separates
 * words, so "Vesk" is not found inside "Veskovic"; a JSON escape (`\n`) before it counts as no
 * letter, and so does a letter of an `UNSPACED` script.
 */
const WORD_START = String.raw`(?:(?<![[:alpha:]])|(?<=\\[tnr])|(?<=[${UNSPACED}]))`
const WORD_END = String.raw`(?:(?![[:alpha:]])|(?=[${UNSPACED}]))`
const isOneWord = (needle: string) => /^\p{L}[\p{L}'’-]*$/u.test(needle)

/**
 * Where the text is searched: as written, or as JSON text (`jsonb::text`), where a string's `"` is
 * written `\"`, `\` is `\\` and a control character an escape. A name with a quote in it (`Annika
 * "Nika" Johnson`) matched as written was never found in a search's criteria or an activity line's
 * detail, and stayed there after the erasure.
 */
type Form = TextForm

/**
 * The pattern (PostgreSQL's regular expressions) that finds `needle` in text of `form`: a phone
 * number however it is written (`phonePattern`); one word as a whole word; otherwise its words in
 * order, whatever separates them, not inside a longer word ("Ann Lee" was found inside "Joann Leeds",
 * which the erasure turned into "JoErased candidateds"). Each word is found as search finds it (`foldedWordPattern`:
 * accents, case, width, ß and Ł, invisible characters aside): a search typed "tomas
 * lukaszewski-gross" found Tomás Łukaszewski-Groß and kept her name after the erasure, which matched
 * the name only as stored.
 */
function needlePattern(needle: string, form: Form): string {
	const trimmed = needle.trim()
	if (isPhone(trimmed)) return phonePattern(trimmed)
	if (isOneWord(trimmed)) return `${WORD_START}${foldedWordPattern(trimmed, form)}${WORD_END}`
	const words = trimmed
		.split(/\s+/)
		.map((word) => foldedWordPattern(word, form))
		.join(BETWEEN_WORDS)
	// Words where they stand as words, as a one-word needle is: "Ann Lee" is not in "Joann Leeds".
	const letter = (c: string | undefined) => c !== undefined && /\p{L}/u.test(c)
	return `${letter(trimmed[0]) ? WORD_START : ''}${words}${letter([...trimmed].at(-1)) ? WORD_END : ''}`
}

/**
 * A person's name as text holds it: as written, with the last word first ("Wilson Fatima", and with
 * a comma "Wilson, Fatima", as lists and searches put it), and as a file name made from it (an
 * attachment's `Quillon_Erasewell-Resume.pdf`: accents and punctuation dropped, spaces as
 * underscores, at most 60 characters — the same steps as documents' `attachmentName`).
 */
export function nameForms(name: string): string[] {
	const words = name.trim().split(/\s+/)
	const lastFirst = words.length > 1 ? [words.at(-1)!, ...words.slice(0, -1)].join(' ') : ''
	const file = name
		.normalize('NFKD')
		.replace(/[^\w\s-]/g, '')
		.trim()
		.replace(/\s+/g, '_')
		.slice(0, 60)
	return [...new Set([name, lastFirst, file].filter(Boolean))]
}

function matchesAny(text: SQL, needles: readonly string[], form: Form): SQL {
	if (!needles.length) return sql`false`
	return sql`${text} ~* any(${sql.param(needles.map((n) => needlePattern(n, form)))}::text[])`
}

function replaced(text: SQL, needles: readonly string[], form: Form): SQL {
	return needles.reduce<SQL>((inner, needle) => sql`regexp_replace(${inner}, ${needlePattern(needle, form)}, ${ERASED}, 'gi')`, text)
}

/** True (SQL) when `text` holds one of `needles`, in any case. */
export const mentionsAny = (text: SQL, needles: readonly string[]): SQL => matchesAny(text, needles, 'text')

/** `text` (SQL) with every one of `needles` replaced by `ERASED`, in any case. */
export const withoutMentions = (text: SQL, needles: readonly string[]): SQL => replaced(text, needles, 'text')

/** True (SQL) when a text of the jsonb `value` holds one of `needles`, in any case (found in its JSON text, escapes and all). */
export const jsonMentionsAny = (value: SQL, needles: readonly string[]): SQL => matchesAny(sql`${value}::text`, needles, 'json')

/**
 * A jsonb `value` (SQL) with every one of `needles` replaced by `ERASED` in its texts. Found in its
 * JSON text as escaped there, so a match never takes a quote that ends a string (a needle's `"` is
 * only ever found as `\"`) and what is left is JSON.
 */
export const jsonWithoutMentions = (value: SQL, needles: readonly string[]): SQL => sql`(${replaced(sql`${value}::text`, needles, 'json')})::jsonb`

/**
 * One statement that rids free text people wrote on any record (a note on someone else, a to-do, a
 * comment) of the person: each text column of `columns` in `table` without `needles`, in the rows
 * `where` selects that hold one. Null when there is nothing to look for.
 */
export function withoutMentionsIn(table: string, columns: readonly string[], where: SQL, needles: readonly string[]): SQL | null {
	if (!needles.length || !columns.length) return null
	const column = (name: string) => sql`${sql.identifier(name)}`
	const set = sql.join(
		columns.map((c) => sql`${column(c)} = ${withoutMentions(column(c), needles)}`),
		sql`, `,
	)
	const named = sql.join(
		columns.map((c) => mentionsAny(column(c), needles)),
		sql` or `,
	)
	return sql`update ${sql.identifier(table)} set ${set} where ${where} and (${named})`
}

/** Runs, in the erasure's transaction, each `withoutMentionsIn` statement that has something to look for. */
export async function eraseMentions(database: Database, tx: Db, statements: readonly (SQL | null)[]): Promise<void> {
	for (const statement of statements) if (statement) await database.rows(statement, tx)
}
