/**
 * `/sitemap.xml` by the sitemaps protocol's limits (sitemaps.org): at most 50,000 URLs a file. Up
 * to that, `/sitemap.xml` lists every open job itself; past it, it is a sitemap index of
 * `/sitemaps/jobs-<n>.xml`, each at most 50,000 jobs (by id) with the last change of its jobs as its
 * `<lastmod>`. Every file is streamed a page of rows at a time.
 */
import { Elysia } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import type { AuthPlugin } from '../../core/http/auth.ts'
import { textStream } from '../../core/http/stream.ts'
import { AppError } from '../../core/errors.ts'
import { allOpenJobPages, countAllOpenJobs, jobUrl, openJobChunks, toDate } from '../jobs/index.ts'
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

export function sitemapRoutes(deps: AppDeps, auth: AuthPlugin) {
	return new Elysia({ name: 'careers.sitemap' })
		.use(auth)
		.get(
			'/sitemap.xml',
			async () => {
				if ((await countAllOpenJobs(deps)) <= SITEMAP_MAX_URLS) return new Response(textStream(urlset(deps, 0)), { headers: XML })
				return new Response(sitemapIndex(deps, await openJobChunks(deps, SITEMAP_MAX_URLS)), { headers: XML })
			},
			{ auth: 'public' },
		)
		.get(
			'/sitemaps/:file',
			async ({ params }) => {
				const n = Number(/^jobs-([1-9]\d{0,5})\.xml$/.exec(params.file)?.[1] ?? 0)
				const skip = (n - 1) * SITEMAP_MAX_URLS
				if (!n || skip >= (await countAllOpenJobs(deps))) throw new AppError('NOT_FOUND', 'There is no such sitemap.')
				return new Response(textStream(urlset(deps, skip)), { headers: XML })
			},
			{ auth: 'public' },
		)
}
