/**
 * Reading a portal page as a browser parses it (parse5, the HTML standard's algorithm): a section by
 * its heading's id, the bars or columns its charts draw (`data-label`, `data-value` and their size),
 * and the rows of its tables as text. Page tests compare these with counts taken from the database.
 */
import { parse } from 'parse5'

type Node = { nodeName: string; tagName?: string; attrs?: { name: string; value: string }[]; childNodes?: Node[]; value?: string; content?: Node }

const attr = (n: Node, name: string) => n.attrs?.find((a) => a.name === name)?.value

function* walk(n: Node): Generator<Node> {
	yield n
	for (const c of n.childNodes ?? []) yield* walk(c)
	if (n.content) yield* walk(n.content)
}

/** The text of a node, its elements' texts apart by a space (as a reader would hear them), spaces collapsed. */
export function textOf(n: Node): string {
	const parts: string[] = []
	for (const x of walk(n)) if (x.nodeName === '#text') parts.push(x.value ?? '')
	return parts
		.join(' ')
		.replace(/\s+/g, ' ')
		.replace(/ ([.,:;])/g, '$1')
		.trim()
}

export function parsePage(html: string): Node {
	return parse(html) as unknown as Node
}

/** The element labelled by the heading with this id (`aria-labelledby`), e.g. a section card. */
export function section(page: Node, headingId: string): Node {
	for (const n of walk(page)) if (n.tagName && attr(n, 'aria-labelledby') === headingId) return n
	throw new Error(`no element labelled by #${headingId}`)
}

export interface Bar {
	label: string
	value: number
	/** `width` (horizontal bars) or `height` (columns), as drawn. */
	width: string
	height: string
	/** The series of a column (`data-series`). */
	series?: string
	broken: boolean
}

/** Every bar or column drawn in this part of the page, in order. */
export function bars(n: Node): Bar[] {
	const out: Bar[] = []
	for (const x of walk(n))
		if (x.tagName === 'rect' && attr(x, 'data-value') !== undefined)
			out.push({
				label: attr(x, 'data-label')!,
				value: Number(attr(x, 'data-value')),
				width: attr(x, 'width')!,
				height: attr(x, 'height')!,
				series: attr(x, 'data-series'),
				broken: attr(x, 'data-broken') === 'true',
			})
	return out
}

/** The rows of the tables in this part of the page (body rows), each as its cells' text. */
export function tableRows(n: Node): string[][] {
	const rows: string[][] = []
	for (const x of walk(n))
		if (x.tagName === 'tbody')
			for (const tr of x.childNodes ?? []) if (tr.tagName === 'tr') rows.push((tr.childNodes ?? []).filter((td) => td.tagName === 'td').map(textOf))
	return rows
}

/** Links (`href`) in this part of the page. */
export function links(n: Node): string[] {
	const out: string[] = []
	for (const x of walk(n)) if (x.tagName === 'a' && attr(x, 'href')) out.push(attr(x, 'href')!)
	return out
}

/** The number in a table cell ("1,234" → 1234). */
export const count = (cell: string) => Number(cell.replace(/,/g, ''))
