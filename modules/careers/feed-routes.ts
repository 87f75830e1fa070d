/**
 * `/careers/<slug>/feeds/indeed.xml` and `/careers/<slug>/feeds/jobs.rss`: a workspace's open jobs
 * for job boards and feed readers. Streamed a page of rows at a time; ETag and Last-Modified follow
 * every change to the workspace's jobs (a close or re-open is one) and a move of the portal to another
 * address (`addressSince`), and caches must revalidate.
 */
import { createHash } from 'node:crypto'
import { Elysia } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { addressSince } from '../../core/http/address-since.ts'
import { lastModifiedOf, notModified, notModifiedResponse, validatorHeaders, type Validators } from '../../core/http/conditional.ts'
import type { AuthPlugin } from '../../core/http/auth.ts'
import { textStream } from '../../core/http/stream.ts'
import { openJobPages, openJobsVersion } from '../jobs/index.ts'
import { type FeedContext, indeedFeed, rssFeed } from './feeds.ts'
import { workspaceOr404 } from './lookup.ts'

const FEEDS = {
	indeed: { type: 'application/xml; charset=utf-8', render: indeedFeed },
	rss: { type: 'application/rss+xml; charset=utf-8', render: rssFeed },
} as const

async function feedResponse(deps: AppDeps, request: Request, slug: string, kind: keyof typeof FEEDS): Promise<Response> {
	const ws = await workspaceOr404(deps, slug)
	const version = await openJobsVersion(deps, ws.id)
	const lastModified = lastModifiedOf(version.lastChange, await addressSince(deps))
	const tag = createHash('sha256')
		.update(JSON.stringify([kind, ws.name, ws.slug, deps.config.baseUrl, version.open, version.digest]))
		.digest('base64url')
	const validators: Validators = { etag: `"${tag.slice(0, 27)}"`, lastModified }
	const headers = { 'Cache-Control': 'no-cache' }
	const now = deps.now()
	if (notModified(request, validators, now)) return notModifiedResponse(validators, now, headers)
	const context: FeedContext = { baseUrl: deps.config.baseUrl, ws, built: lastModified }
	const body = await textStream(FEEDS[kind].render(context, openJobPages(deps, ws.id)), deps.log)
	return new Response(body, { headers: { 'Content-Type': FEEDS[kind].type, ...headers, ...validatorHeaders(validators, now) } })
}

export function feedRoutes(deps: AppDeps, auth: AuthPlugin) {
	return new Elysia({ name: 'careers.feeds' })
		.use(auth)
		.get('/careers/:workspace/feeds/indeed.xml', ({ params, request }) => feedResponse(deps, request, params.workspace, 'indeed'), { auth: 'public' })
		.get('/careers/:workspace/feeds/jobs.rss', ({ params, request }) => feedResponse(deps, request, params.workspace, 'rss'), { auth: 'public' })
}
