/** Public careers routes: `/careers`, a workspace's jobs, the job page, the sitemap. */
import { Elysia } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import type { HttpKit } from '../../core/module.ts'
import { careersSource, recordCareersEvent } from '../analytics/index.ts'
import { listWorkspaces } from '../auth/index.ts'
import { anonymousCsrf } from '../../core/http/csrf.ts'
import { answersUnreadableText, undecodableQueryNames } from '../../core/http/query.ts'
import { jobUrl } from '../jobs/index.ts'
import { lowerCaseRedirect } from './addresses.ts'
import { alertRoutes } from './alert-routes.ts'
import { readCriteria, searchCareers } from './search.ts'
import { applyRoutes, applySection } from './apply-routes.ts'
import { feedRoutes } from './feed-routes.ts'
import { sitemapRoutes } from './sitemap.ts'
import { publicJobAt, workspaceOr404 } from './lookup.ts'
import { closedJobPage, jobListPage, jobPage, workspacesPage } from './pages.ts'

export function careersRoutes(deps: AppDeps, { auth }: HttpKit) {
	return (
		new Elysia({ name: 'careers.routes' })
			// Every careers address in capitals leads to its lower-case form, before any route reads it (addresses.ts).
			.onRequest(({ request }) => lowerCaseRedirect(request))
			.use(auth)
			.use(applyRoutes(deps, auth))
			.use(alertRoutes(deps, auth))
			.use(feedRoutes(deps, auth))
			.use(sitemapRoutes(deps, auth))
			.get('/', ({ redirect }) => redirect('/careers', 302), { auth: 'public' })
			.get(
				'/careers',
				async ({ redirect }) => {
					const list = await listWorkspaces(deps.db)
					if (list.length === 1) return redirect(`/careers/${list[0]!.slug}`, 302)
					return workspacesPage(list)
				},
				{ auth: 'public' },
			)
			.get(
				'/careers/:workspace',
				async ({ params, query, cookie, request }) => {
					const ws = await workspaceOr404(deps, params.workspace)
					const { criteria, page, errors } = readCriteria(query, undecodableQueryNames(request.url))
					// A refused search shows the form with what is wrong, and no results rather than a guess.
					const results = errors.length ? { jobs: [], total: 0, page: 1 } : await searchCareers(deps, ws.id, criteria, page)
					return jobListPage(ws, { results, criteria, errors, alert: { csrf: anonymousCsrf(deps, cookie) } })
				},
				// A parameter that cannot be read is refused on the search form, with its summary (`readCriteria`).
				{ auth: 'public', transform: answersUnreadableText },
			)
			.get(
				'/careers/:workspace/jobs/:slug',
				async ({ params, request, cookie }) => {
					const { ws, job } = await publicJobAt(deps, params.workspace, params.slug)
					// An address by id (what assistants are given) leads to the job's own address.
					if (job.slug !== params.slug) return new Response(null, { status: 301, headers: { location: jobUrl(deps.config.baseUrl, ws.slug, job.slug) } })
					if (job.status !== 'Open') return closedJobPage(ws, job)
					const source = careersSource(request, deps.config.baseUrl)
					await recordCareersEvent(deps, { workspaceId: ws.id, jobId: job.id, kind: 'view', source })
					return jobPage(ws, job, jobUrl(deps.config.baseUrl, ws.slug, job.slug), await applySection(deps, ws, job, cookie, source))
				},
				{ auth: 'public' },
			)
			.get(
				'/robots.txt',
				() =>
					new Response(`User-agent: *\nAllow: /careers\nDisallow: /api/\nSitemap: ${deps.config.baseUrl}/sitemap.xml\n`, {
						headers: { 'content-type': 'text/plain' },
					}),
				{ auth: 'public' },
			)
	)
}
