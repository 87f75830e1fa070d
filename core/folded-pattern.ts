/**
 * A word as search reads it, as a PostgreSQL regular expression: search folds accents, case, width,
 * letters such as Ł and ß, and invisible characters on both sides (`foldText`, core/text-search.ts),
 * so "tomas lukaszewski-gross" finds Tomás Łukaszewski-Groß. What must find every copy of a word that
 * search would match (an erasure: core/erased-text.ts) matches each of its characters as written or
 * as any character that folds as it does: `a` is `[aAáÁàÀâ…ａＡ]`, `ss` is also `ß`, and an accent
 * written apart (a combining mark) or an invisible character may follow any of them. A character is
 * always found as written too: folding writes a Hangul syllable as its jamo and ガ as カ and a mark,
 * and text holds them whole. Written out character by character because a regular expression
 * matches case alone, never accents, width or letters spelled with two (Tomás and TOMAS).
 */
import { escapeRegExp, foldText } from './text-search.ts'

/**
 * The blocks whose characters people type in names and words: ASCII, Latin-1, Latin Extended A and
 * B, Greek and Cyrillic, Latin Extended Additional and Greek Extended, letter-like symbols (the
 * Kelvin sign, Å as the ångström sign), the Latin ligatures (ﬁ), the full-width forms and half-width kana.
 */
const TYPED_BLOCKS: readonly (readonly [number, number])[] = [
	[0x21, 0x7e],
	[0xa1, 0x24f],
	[0x370, 0x52f],
	[0x1e00, 0x1fff],
	[0x2100, 0x214f],
	[0xfb00, 0xfb06],
	[0xff01, 0xff5e],
	[0xff61, 0xff9f],
]

/** Characters by what they fold to, in lower case: one character (`a`: á, Á, ａ…), or two (`ss`: ß; `ae`: æ; `fi`: ﬁ). */
function foldedForms(): { single: Map<string, Set<string>>; pairs: Map<string, Set<string>> } {
	const single = new Map<string, Set<string>>()
	const pairs = new Map<string, Set<string>>()
	const add = (map: Map<string, Set<string>>, key: string, char: string) => {
		const set = map.get(key) ?? map.set(key, new Set()).get(key)!
		set.add(char)
	}
	for (const [from, to] of TYPED_BLOCKS)
		for (let code = from; code <= to; code++) {
			const char = String.fromCodePoint(code)
			const folded = [...foldText(char).toLowerCase()]
			if (folded.some((c) => /\s/.test(c))) continue
			if (folded.length === 1) {
				// The fold itself is always among its characters (`a` of `a`), whatever block it is in.
				add(single, folded[0]!, folded[0]!)
				add(single, folded[0]!, char)
			} else if (folded.length === 2 && folded.every((c) => /\p{L}/u.test(c))) add(pairs, folded.join(''), char)
		}
	return { single, pairs }
}

const { single: SINGLE, pairs: PAIRS } = foldedForms()

/**
 * What folding drops and may therefore stand between two characters of a word: combining marks and
 * the invisible characters of `foldText`'s class (its BMP part). Inside a bracket expression.
 */
const IGNORED = String.raw`[\u0300-\u036f\u00ad\u061c\u115f-\u1160\u17b4-\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8]*`

/** Where the word is searched: as written, or as JSON text (`jsonb::text`: `"` written `\"`, `\` as `\\`, controls escaped). */
export type TextForm = 'text' | 'json'

const inJson = (c: string) => JSON.stringify(c).slice(1, -1)

/** A bracket expression of `chars`, the characters special inside one escaped. */
const bracket = (chars: Iterable<string>) => `[${[...chars].map((c) => (/[\\\][^-]/.test(c) ? `\\${c}` : c)).join('')}]`

/** The characters of `chars` in both cases (a character whose case has several is left as it is). */
const bothCases = (chars: Iterable<string>) => [...chars].flatMap((c) => [c, c.toLowerCase(), c.toUpperCase()].filter((v) => [...v].length === 1))

/** `chars` as a pattern for text of `form`: one bracket expression; in JSON text a character JSON escapes (a quote, a backslash) as it is written there. */
function anyOf(chars: Iterable<string>, form: TextForm): string {
	const variants = [...new Set(bothCases(chars))]
	if (form === 'text') return bracket(variants)
	const plain = variants.filter((v) => inJson(v) === v)
	const escaped = variants.filter((v) => inJson(v) !== v).map((v) => escapeRegExp(inJson(v)))
	return escaped.length ? `(?:${[...escaped, ...(plain.length ? [bracket(plain)] : [])].join('|')})` : bracket(plain)
}

/** A folded character `c` (lower case): any character that folds to it. */
const foldedChar = (c: string, form: TextForm, also: readonly string[] = []) => anyOf([c, ...(SINGLE.get(c) ?? []), ...also], form)

/**
 * One character of the needle as written: itself, in either case, or any character that folds as it
 * does; one that folds to several (ß to ss, ﬁ to fi, a Hangul syllable to its jamo, ガ to カ and a
 * combining mark) also as those several, each read as it folds, and as the characters that fold to
 * the same pair (ß for ss).
 */
function writtenChar(char: string, folded: readonly string[], form: TextForm): string {
	if (folded.length === 1) return foldedChar(folded[0]!, form, [char])
	const spelled = folded.map((c) => foldedChar(c, form)).join(IGNORED)
	return `(?:${anyOf([char, ...(PAIRS.get(folded.join('')) ?? [])], form)}|${spelled})`
}

/**
 * `word` (no white space in it) as a pattern that finds it wherever search would: each character as
 * written or as any that folds as it does (`writtenChar`), two that one character folds to (`ss`)
 * also as that character (`ß`), and what folding drops allowed after each. Pairs are taken from the
 * left ("sss" is `ß` then `s`, or three `s`). A character folding drops (an invisible one) is left to
 * what may follow any character.
 */
export function foldedWordPattern(word: string, form: TextForm): string {
	const chars = [...word]
	const folds = chars.map((c) => [...foldText(c).toLowerCase()])
	let out = ''
	for (let i = 0; i < chars.length; i++) {
		const folded = folds[i]!
		if (!folded.length) continue
		const next = folds[i + 1]
		const pair = folded.length === 1 && next?.length === 1 ? PAIRS.get(folded[0]! + next[0]!) : undefined
		if (pair) {
			out += `(?:${anyOf(pair, form)}|${writtenChar(chars[i]!, folded, form)}${IGNORED}${writtenChar(chars[i + 1]!, next!, form)})${IGNORED}`
			i++
		} else out += `${writtenChar(chars[i]!, folded, form)}${IGNORED}`
	}
	return out
}
