/**
 * A job's lists (must-haves, nice-to-haves): every item is checked against each résumé (and shown as
 * a bullet), so an item sent twice counts twice in every score. Exact repeats are dropped, the
 * first kept in place; blank items are refused by the schemas (`x-not-blank`, model.ts and tools.ts).
 */

/** The items without exact repeats (first kept, order kept), and the items that were repeated. */
export function distinctItems(items: readonly string[]): { items: string[]; repeated: string[] } {
	const seen = new Set<string>()
	const repeated = new Set<string>()
	for (const item of items) (seen.has(item) ? repeated : seen).add(item)
	return { items: [...seen], repeated: [...repeated] }
}
