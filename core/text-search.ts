/**
 * Turning what a person typed into a PostgreSQL full-text query. All words must match; the last
 * word is a prefix ("kube" finds "Kubernetes", as while typing), the others whole words (a prefix
 * of a short word such as "com" expands to thousands of index keys). Only letters and digits reach
 * `to_tsquery`, so no input can break its syntax. Search providers of every module use it.
 */

/** The `to_tsquery('english', …)` text for `q`, or null when no word of two or more characters is left; null for e-mail addresses. */
export function prefixTsQuery(q: string): string | null {
	if (q.includes('@')) return null
	const words = q
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.split(/[^\p{L}\p{N}]+/u)
		.filter((w) => w.length >= 2)
		.slice(0, 8)
	return words.length ? words.map((w, i) => (i === words.length - 1 ? `${w}:*` : w)).join(' & ') : null
}

/** `q` trimmed and collapsed, for trigram similarity against names and titles. */
export const similarityText = (q: string) => q.replace(/\s+/g, ' ').trim().toLowerCase()
