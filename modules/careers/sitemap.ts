/**
 * `/sitemap.xml` by the sitemaps protocol's limits (sitemaps.org): at most 50,000 URLs a file. Up
 * to that, `/sitemap.xml` lists every open job itself; past it, it is a sitemap index of
 * `/sitemaps/jobs-<n>.xml`, each at most 50,000 jobs (by id) with the last change of its jobs as its
 * `<lastmod>`. Every file is streamed a page of rows at a time, with an ETag and Last-Modified of what
 * it lists (a crawler's `If-None-Match` gets a 304 until one of its jobs changes).
 */
import { createHash } from 'node:crypto'
import { Elysia } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import type { AuthPlugin } from '../../core/http/auth.ts'
import { addressSince } from '../../core/http/address-since.ts'
import { lastModifiedOf, notModified, notModifiedResponse, validatorHeaders } from '../../core/http/conditional.ts'
import { textStream } from '../../core/http/stream.ts'
import { AppError } from '../../core/errors.ts'
import { allOpenJobPages, countAllOpenJobs, jobUrl, openJobChunks, openJobsSitemapVersion, toDate } from '../jobs/index.ts'
import { xmlEscape } from './xml.ts'

export const SITEMAP_MAX_URLS = 50_000
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9'
const XML = { 'Content-Type': 'application/xml; charset=utf-8' }

async function* urlset(deps: AppDeps, skip: number): AsyncGenerator<string> {
	yield `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${NS}">\n`
	for await (const rows of allOpenJobPages(deps, skip, SITEMAP_MAX_URLS))
		yield rows
			.map(
				(job) =>
					`<url><loc>${xmlEscape(jobUrl(deps.config.baseUrl, job.workspaceSlug, job.slug))}</loc><lastmod>${toDate(job.updatedAt).toISOString()}</lastmod></url>\n`,
			)
			.join('')
	yield '</urlset>\n'
}

function sitemapIndex(deps: AppDeps, lastmods: Date[]): string {
	const files = lastmods.map(
		(last, i) => `<sitemap><loc>${xmlEscape(`${deps.config.baseUrl}/sitemaps/jobs-${i + 1}.xml`)}</loc><lastmod>${last.toISOString()}</lastmod></sitemap>\n`,
	)
	return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${NS}">\n${files.join('')}</sitemapindex>\n`
}

/** Each sitemap file's `<lastmod>` in the index: its Last-Modified. */
async function fileLastmods(deps: AppDeps): Promise<Date[]> {
	const since = await addressSince(deps)
	return (await openJobChunks(deps, SITEMAP_MAX_URLS)).map((last) => lastModifiedOf(last, since))
}

/**
 * A sitemap file's answer: 304 when the crawler's copy is current, else `body()`. The index depends on
 * every open job (how many files, each one's last change), a file on its own run of jobs; both on the
 * address the portal is served at (`BASE_URL`): every `<loc>` is under it, so a move to another
 * address is a new copy, and its Last-Modified is never before the move (`addressSince`).
 */
async function sitemapResponse(deps: AppDeps, request: Request, skip: number, limit: number | undefined, body: () => Promise<BodyInit>): Promise<Response> {
	const version = await openJobsSitemapVersion(deps, skip, limit)
	const tag = createHash('sha256')
		.update(JSON.stringify([deps.config.baseUrl, version.digest]))
		.digest('hex')
		.slice(0, 32)
	const validators = { etag: `"${tag}"`, lastModified: lastModifiedOf(version.lastChange, await addressSince(deps)) }
	const headers = { ...XML, 'Cache-Control': 'no-cache' }
	const now = deps.now()
	if (notModified(request, validators, now)) return notModifiedResponse(validators, now, { 'Cache-Control': 'no-cache' })
	return new Response(await body(), { headers: { ...headers, ...validatorHeaders(validators, now) } })
}

export function sitemapRoutes(deps: AppDeps, auth: AuthPlugin) {
	return new Elysia({ name: 'careers.sitemap' })
		.use(auth)
		.get(
			'/sitemap.xml',
			async ({ request }) =>
				sitemapResponse(deps, request, 0, undefined, async () =>
					(await countAllOpenJobs(deps)) <= SITEMAP_MAX_URLS ? await textStream(urlset(deps, 0), deps.log) : sitemapIndex(deps, await fileLastmods(deps)),
				),
			{ auth: 'public' },
		)
		.get(
			'/sitemaps/:file',
			async ({ params, request }) => {
				const n = Number(/^jobs-([1-9]\d{0,5})\.xml$/.exec(params.file)?.[1] ?? 0)
				const skip = (n - 1) * SITEMAP_MAX_URLS
				if (!n || skip >= (await countAllOpenJobs(deps))) throw new AppError('NOT_FOUND', 'There is no such sitemap.')
				return sitemapResponse(deps, request, skip, SITEMAP_MAX_URLS, () => textStream(urlset(deps, skip), deps.log))
			},
			{ auth: 'public' },
		)
}
