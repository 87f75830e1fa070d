import { ownEntry } from '../../core/own-entry.ts'

/**
 * Where a careers-site visitor came from: the `utm_source` of the address when there is one,
 * else the referring site mapped to a known name (google.com, google.co.uk → `google`), else
 * `direct`. Crawlers are not visitors and are not counted, and neither is a HEAD request (link
 * checkers, uptime monitors): it shows the page to nobody.
 */

const KNOWN: [RegExp, string][] = [
	[/(^|\.)linkedin\.com$|(^|\.)lnkd\.in$/, 'linkedin'],
	[/(^|\.)indeed\.[a-z.]+$/, 'indeed'],
	[/(^|\.)google\.[a-z.]+$/, 'google'],
	[/(^|\.)bing\.com$/, 'bing'],
	[/(^|\.)duckduckgo\.com$/, 'duckduckgo'],
	[/(^|\.)glassdoor\.[a-z.]+$/, 'glassdoor'],
	[/(^|\.)dice\.com$/, 'dice'],
	[/(^|\.)ziprecruiter\.com$/, 'ziprecruiter'],
	[/(^|\.)facebook\.com$|(^|\.)fb\.com$/, 'facebook'],
	[/(^|\.)twitter\.com$|(^|\.)x\.com$|^t\.co$/, 'x'],
]

export const SOURCE_LABELS: Record<string, string> = {
	linkedin: 'LinkedIn',
	indeed: 'Indeed',
	google: 'Google',
	bing: 'Bing',
	duckduckgo: 'DuckDuckGo',
	glassdoor: 'Glassdoor',
	dice: 'Dice',
	ziprecruiter: 'ZipRecruiter',
	facebook: 'Facebook',
	x: 'X (Twitter)',
	direct: 'Direct visits',
	careers_site: 'Your careers site',
	email: 'E-mail',
}

export const sourceLabel = (source: string) => ownEntry(SOURCE_LABELS, source) ?? source

const BOT = /bot|crawl|spider|slurp|preview|facebookexternalhit|headless|lighthouse|monitor|curl\/|wget\//i

/** A source name: lower-case letters, digits, `_`, `-` and `.`, at most 60 characters; `direct` when empty. */
export function normalizeSource(raw: string | null | undefined): string {
	const s = (raw ?? '')
		.trim()
		.toLowerCase()
		.replace(/[\s+]+/g, '_')
		.replace(/[^a-z0-9_.-]/g, '')
		.slice(0, 60)
	if (!s) return 'direct'
	for (const [pattern, name] of KNOWN) if (pattern.test(s)) return name
	return s
}

/** The source of a careers page request; null for crawlers (their visits are not counted). */
export function careersSource(request: Request, baseUrl?: string): string | null {
	if (request.method === 'HEAD' || BOT.test(request.headers.get('user-agent') ?? '')) return null
	const url = new URL(request.url)
	const utm = url.searchParams.get('utm_source')
	if (utm?.trim()) return normalizeSource(utm)
	const referrer = request.headers.get('referer')
	if (!referrer) return 'direct'
	let host: string
	try {
		host = new URL(referrer).hostname.toLowerCase()
	} catch {
		return 'direct'
	}
	const own = [url.hostname, baseUrl ? new URL(baseUrl).hostname : ''].filter(Boolean)
	if (own.includes(host)) return 'careers_site'
	for (const [pattern, name] of KNOWN) if (pattern.test(host)) return name
	return normalizeSource(host.replace(/^www\./, ''))
}
