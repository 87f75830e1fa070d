/** Text made safe for XML 1.0: the characters it forbids or discourages are dropped, markup characters escaped. */

// C0 controls other than tab, newline and carriage return; DEL and the C1 controls (XML 1.0 section
// 2.2 discourages them; the API refuses them, jobs stored before may hold them); U+FFFE and U+FFFF;
// lone surrogates.
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

export const xmlText = (value: string): string => value.replace(NOT_XML, '')

export function xmlEscape(value: string | number): string {
	return xmlText(String(value)).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')
}

/** A CDATA section; a `]]>` inside is split across two sections so it cannot end the first. */
export function cdata(value: string): string {
	return `<![CDATA[${xmlText(value).replace(/]]>/g, ']]]]><![CDATA[>')}]]>`
}

/** `<name>escaped value</name>`, or nothing when there is no value. */
export function element(name: string, value: string | number | null | undefined): string {
	return value === null || value === undefined || value === '' ? '' : `<${name}>${xmlEscape(value)}</${name}>`
}
