/**
 * One rule for the case of every public careers address: the careers pages, a workspace's site and
 * everything under it (job pages, the apply form, the feeds, job alerts, the privacy page), the
 * sitemaps and robots.txt are written in lower case, as every link the product makes writes them. An
 * address typed with capitals (from a flyer, a slide, a vendor's e-mail) is answered with a permanent
 * redirect to the same address in lower case, query kept: 301 for reading, 308 for a form sent there (the
 * method and the form kept). A link's token (the segment after `confirm/` or `download/`) is its
 * credential and keeps its case; percent-escapes keep theirs (`%2F` is `%2f`).
 *
 * Before this, `/careers/DEMO` was redirected while `/careers/DEMO/feeds/indeed.xml`, its privacy page and
 * its job alerts were 404: each handler had its own rule.
 */

/** The paths under this rule: the careers module's, and the privacy page of a careers site. */
const CAREERS_PATH = /^\/(careers(\/|$)|sitemap\.xml$|sitemaps\/|robots\.txt$)/i
/** The segment after these is a link's token. */
const BEFORE_TOKEN = new Set(['confirm', 'download'])

/** Whether the path holds a link's token (its segment after `confirm/` or `download/`). */
const holdsToken = (segments: string[]) => segments.slice(0, -1).some((segment) => BEFORE_TOKEN.has(segment.toLowerCase()))

/** The lower-case address of a careers path with capitals outside its tokens, or null when it has none. */
export function lowerCaseCareersPath(pathname: string): string | null {
	if (!CAREERS_PATH.test(pathname)) return null
	const segments = pathname.split('/')
	const lowered = segments.map((segment, i) =>
		i > 0 && BEFORE_TOKEN.has(segments[i - 1]!.toLowerCase())
			? segment
			: segment.replace(/%[0-9A-Fa-f]{2}|[A-Z]+/g, (m) => (m[0] === '%' ? m : m.toLowerCase())),
	)
	const path = lowered.join('/')
	return path === pathname ? null : path
}

/** The redirect to a careers address's lower-case form, or undefined when it is already in lower case. */
export function lowerCaseRedirect(request: Request): Response | undefined {
	const url = new URL(request.url)
	const path = lowerCaseCareersPath(url.pathname)
	if (path === null) return undefined
	const reads = request.method === 'GET' || request.method === 'HEAD'
	// A link whose path is its credential is never kept by a cache nor indexed, redirected or not (as core/app.ts marks its route).
	const headers: Record<string, string> = { location: path + url.search }
	if (holdsToken(path.split('/'))) Object.assign(headers, { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex, nofollow' })
	return new Response(null, { status: reads ? 301 : 308, headers })
}
