/**
 * A minimal, valid PDF of plain text lines (header, catalog, pages, one font, a correct
 * cross-reference table): for demo documents and résumés, and for tests that need real PDF files.
 *
 * Every character given is on a page: a line longer than the page is wide is wrapped (at a space
 * when it has one), and lines past the foot of a page go on the next. Text drawn past a page's edge
 * is not part of the page: PDF readers (pdf.js, which reads résumés) leave it out, so a long demo
 * résumé lost its end when read back. Courier, whose characters are all as wide, makes the width exact.
 */

/** Courier 11 pt: 6.6 pt a character, 512 pt between the 50 pt margins of a US Letter page (612 pt). */
const LINE_CHARS = 77
/** From 780 pt down to the 50 pt margin, 14 pt apart. */
const PAGE_LINES = 53

/** One line as it fits the page's width: cut at the last space that fits, else at the width. */
function wrapped(line: string): string[] {
	const out: string[] = []
	let rest = line
	while (rest.length > LINE_CHARS) {
		const space = rest.lastIndexOf(' ', LINE_CHARS)
		const cut = space > 0 ? space : LINE_CHARS
		out.push(rest.slice(0, cut))
		rest = rest.slice(space > 0 ? cut + 1 : cut)
	}
	out.push(rest)
	return out
}

export function textPdf(lines: string[]): Uint8Array {
	const esc = (s: string) => s.replace(/[^\x20-\x7e]/g, '?').replace(/[\\()]/g, (c) => `\\${c}`)
	// Replaced before wrapping, so that a line is measured as it is drawn (one character each).
	const all = lines.flatMap((l) => wrapped(l.replace(/[^\x20-\x7e]/g, '?')))
	const pages: string[][] = []
	for (let i = 0; i < all.length || pages.length === 0; i += PAGE_LINES) pages.push(all.slice(i, i + PAGE_LINES))
	const pageObject = (i: number) => 4 + 2 * i
	const objects = [
		'<< /Type /Catalog /Pages 2 0 R >>',
		`<< /Type /Pages /Kids [${pages.map((_, i) => `${pageObject(i)} 0 R`).join(' ')}] /Count ${pages.length} >>`,
		'<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>',
		...pages.flatMap((page, i) => {
			const stream = `BT /F1 11 Tf 50 780 Td 14 TL ${page.map((l) => `(${esc(l)}) Tj T*`).join(' ')} ET`
			return [
				`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${pageObject(i) + 1} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`,
				`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
			]
		}),
	]
	let out = '%PDF-1.4\n'
	const offsets: number[] = []
	objects.forEach((o, i) => {
		offsets.push(out.length)
		out += `${i + 1} 0 obj\n${o}\nendobj\n`
	})
	const xref = out.length
	out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`
	out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
	return new TextEncoder().encode(out)
}
