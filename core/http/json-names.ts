/**
 * A name a JSON object holds twice (`{"title":"A","title":"B"}`). JSON.parse keeps the last and drops
 * the others without a word, and parsers disagree on which one wins (RFC 8259 §4: names SHOULD be
 * unique; "many implementations report the last"), so a body with one is refused rather than read
 * as some value the client may not have meant: a proxy or log that reads the first would see another
 * request than the one served.
 */

const QUOTE = 0x22
const BACKSLASH = 0x5c

/** Whether the character at `at` is escaped: an odd number of backslashes before it. */
function escaped(json: string, at: number): boolean {
	let before = at - 1
	while (json.charCodeAt(before) === BACKSLASH) before--
	return (at - 1 - before) % 2 === 1
}

/** Where the string opened by the quote at `open` ends (found by search, not character by character: strings are most of a body). */
function closingQuote(json: string, open: number): number {
	let end = json.indexOf('"', open + 1)
	while (escaped(json, end)) end = json.indexOf('"', end + 1)
	return end
}

/**
 * The first name that an object of `json` holds twice, decoded (`"\u0061"` is `a`), or null. For text
 * JSON.parse accepted: it is scanned once, without recursion (any depth), not checked again.
 */
export function repeatedName(json: string): string | null {
	// One entry per open object (its names so far) or array (null).
	const open: (Set<string> | null)[] = []
	let atName = false
	for (let i = 0; i < json.length; i++) {
		const c = json.charCodeAt(i)
		if (c === QUOTE) {
			const start = i
			i = closingQuote(json, i)
			if (!atName) continue
			const name = JSON.parse(json.slice(start, i + 1)) as string
			const names = open.at(-1)!
			if (names.has(name)) return name
			names.add(name)
			atName = false
		} else if (c === 0x7b) {
			open.push(new Set())
			atName = true
		} else if (c === 0x5b) open.push(null)
		else if (c === 0x7d || c === 0x5d) open.pop()
		else if (c === 0x2c) atName = open.at(-1) != null
	}
	return null
}
