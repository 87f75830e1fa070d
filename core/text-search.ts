/**
 * Turning what a person typed into a PostgreSQL full-text query. Each word becomes a prefix term
 * ("kube" finds "Kubernetes"), all words must match, and only letters and digits reach
 * `to_tsquery`, so no input can break its syntax. Search providers of every module use it.
 */

/** The `to_tsquery('english', …)` text for `q`, or null when no word of two or more characters is left. */
export function prefixTsQuery(q: string): string | null {
	const words = q
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.split(/[^\p{L}\p{N}]+/u)
		.filter((w) => w.length >= 2)
		.slice(0, 8)
	return words.length ? words.map((w) => `${w}:*`).join(' & ') : null
}

/** `q` trimmed and collapsed, for trigram similarity against names and titles. */
export const similarityText = (q: string) => q.replace(/\s+/g, ' ').trim().toLowerCase()
