/**
 * Return addresses (`next`): where a person goes after signing in, choosing a workspace or a
 * password. The one rule for every page that takes one, because each ends in a `Location` header.
 *
 * Only a path on this site: it starts with one `/` (never `//` or `/\`, which browsers read as
 * another host), and holds printable ASCII only. Control characters (NUL, CR, LF, tab, DEL…), spaces
 * and any other character are refused: a header cannot carry them (a NUL answered 500, issue 26),
 * URL parsers silently drop some of them (`/\t/evil.example` is `//evil.example` to a browser), and
 * a browser sends every address percent-encoded anyway, so no real address is lost. Anything
 * refused is the fallback, never an error: a bad `next` only changes where the person lands.
 */
const RETURN_PATH = /^\/(?![/\\])[\x21-\x7e]*$/

/** The 8,000 characters an address may take in a query (`next` in every page's query schema). */
export const RETURN_ADDRESS_MAX = 8000

/** `next` when it is a safe return address, else `fallback`. */
export function safeNext(next: unknown, fallback = '/portal'): string {
	return typeof next === 'string' && next.length <= RETURN_ADDRESS_MAX && RETURN_PATH.test(next) ? next : fallback
}
