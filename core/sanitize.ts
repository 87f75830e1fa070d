/**
 * Vendor-supplied job descriptions: plain text or simple HTML. Only headings, paragraphs, lists,
 * bold, italics and line breaks survive, with no attributes at all; script, style and other
 * active content is dropped with its text.
 */
import sanitizeHtml from 'sanitize-html'

const ALLOWED_TAGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'ul', 'ol', 'li', 'b', 'strong', 'i', 'em', 'br']
const DROP_WITH_CONTENT = [
	'script',
	'style',
	'textarea',
	'option',
	'noscript',
	'iframe',
	'object',
	'embed',
	'svg',
	'math',
	'template',
	'title',
	'head',
	'xmp',
	'noembed',
	'noframes',
	'select',
]

export interface Sanitized {
	html: string
	/** True when markup other than the allowlist (or any attribute) was removed. */
	removedMarkup: boolean
}

/**
 * Vendors re-publish the same description again and again (every update of any field sends it);
 * sanitising is the costliest step of a publish, so recent results are kept (a small LRU).
 */
const recent = new Map<string, Sanitized>()
const RECENT_MAX = 500

export function sanitizeDescription(input: string): Sanitized {
	// Fast path: text without markup or entities is already safe HTML.
	if (!/[<&>]/.test(input)) return { html: input, removedMarkup: false }
	const hit = recent.get(input)
	if (hit) {
		recent.delete(input)
		recent.set(input, hit)
		return hit
	}
	const result = sanitizeUncached(input)
	recent.set(input, result)
	if (recent.size > RECENT_MAX) recent.delete(recent.keys().next().value!)
	return result
}

function sanitizeUncached(input: string): Sanitized {
	let removedMarkup = false
	const html = sanitizeHtml(input, {
		allowedTags: ALLOWED_TAGS,
		allowedAttributes: {},
		disallowedTagsMode: 'discard',
		nonTextTags: DROP_WITH_CONTENT,
		allowedSchemes: [],
		allowProtocolRelative: false,
		onOpenTag: (name: string, attribs: Record<string, string>) => {
			if (!ALLOWED_TAGS.includes(name) || Object.keys(attribs).length > 0) removedMarkup = true
		},
	} as sanitizeHtml.IOptions)
	if (!removedMarkup && /<!--/.test(input)) removedMarkup = true
	return { html, removedMarkup }
}

/**
 * The escapes sanitize-html writes into text (it decodes every entity it reads, then escapes only
 * these), and the characters they stand for.
 */
const ESCAPED: Readonly<Record<string, string>> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" }
const ESCAPE = /&(?:amp|lt|gt|quot|#39);/g

/**
 * Plain text of HTML (for search, résumé checks, JSON-LD, the assistant and inbound mail): what a
 * browser shows for it. Entities are decoded in one pass: decoding `&amp;` first and then `&lt;`
 * turned the text `&lt;br&gt;` (written `&amp;lt;br&amp;gt;`) into a tag, so the assistant read
 * other words than the careers page showed.
 */
export function htmlToText(html: string): string {
	return sanitizeHtml(html.replace(/<(br|\/p|\/li|\/h[1-6])\s*\/?>/gi, '\n'), { allowedTags: [], allowedAttributes: {} })
		.replace(ESCAPE, (entity) => ESCAPED[entity]!)
		.replace(/\n{3,}/g, '\n\n')
		.trim()
}

/** Markup other than the allowlist's bare tags (a tag with an attribute, another tag, a comment): sanitising has work to do. */
const OTHER_MARKUP = new RegExp(`<(?!/?(?:${ALLOWED_TAGS.join('|')})\\s*/?>)`, 'i')

/**
 * A description stored as HTML, made safe to show: what every door stores is already sanitised and
 * returned as is (no cost, so a feed of 100,000 jobs pays nothing); a row written another way (stored
 * before a rule, or by a writer that skipped it) is sanitised as a door would have.
 */
export const safeDescriptionHtml = (html: string): string => (OTHER_MARKUP.test(html) ? sanitizeDescription(html).html : html)
