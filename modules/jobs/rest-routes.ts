/** The Job Publish REST API (`/api/v1`): thin adapters over `vendor-service.ts`. */
import { answersUnreadableText } from '../../core/http/query.ts'
import { Elysia } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { readJsonObject } from '../../core/http/body.ts'
import type { HttpKit } from '../../core/module.ts'
import { contributionsTo } from '../../core/registry.ts'
import { openApiDocument, renderApiDocs } from './openapi.ts'
import { apiOperations } from './port.ts'
import { changeVendorJob, closeVendorJob, getVendorJob, jobNotFound, listVendorJobs, publishJob, type WriteResult } from './vendor-service.ts'

/** 200 KB, counted in bytes while the body is read (chunked bodies too). */
export const MAX_BODY_BYTES = 200 * 1024

const answer = (result: WriteResult) => (result.warnings.length ? { job: result.job, warnings: result.warnings } : { job: result.job })

export function jobsRestRoutes(deps: AppDeps, { auth }: HttpKit) {
	const more = contributionsTo(deps.registry, apiOperations)
	const document = openApiDocument(deps.config.baseUrl, more)
	// Ids longer than the limit, that no publish could have stored (NUL, lone surrogates), or whose
	// percent-encoding is broken (the router then gives no value) cannot exist: answer as absent
	// without a query.
	const checkId = (id: string | undefined) => {
		if (typeof id !== 'string' || [...id].length > 100 || id.includes('\u0000') || !id.isWellFormed()) throw jobNotFound()
		return id
	}
	return (
		new Elysia({ name: 'jobs.rest' })
			.use(auth)
			// These operations read no query and their own body (the spec's statuses: a GET is never 400): a parameter
			// that cannot be read is never read nor shown here, so it is left alone (core/http/query.ts).
			.onTransform(answersUnreadableText)
			.post(
				'/api/v1/jobs',
				async ({ request, vendorKey, set }) => {
					const result = await publishJob(deps, vendorKey, () => readJsonObject(request, MAX_BODY_BYTES))
					set.status = result.created ? 201 : 200
					// A 201 names what it created (RFC 9110 §15.3.2), else the created job would be the address posted to.
					if (result.created) set.headers.location = `/api/v1/jobs/${encodeURIComponent(result.job.vendorJobId)}`
					return answer(result)
				},
				// The hot path: the key is looked up inside the publish statement (one round trip).
				{ vendorKey: true, parse: 'none' },
			)
			// Operations without a request body ignore whatever body is sent (never 400 or 413).
			.get('/api/v1/jobs', async ({ actor }) => ({ jobs: await listVendorJobs(deps, actor) }), { vendor: true, parse: 'none' })
			.get('/api/v1/jobs/:vendorJobId', async ({ actor, params }) => ({ job: await getVendorJob(deps, actor, checkId(params.vendorJobId)) }), {
				vendor: true,
				parse: 'none',
			})
			.patch(
				'/api/v1/jobs/:vendorJobId',
				async ({ actor, params, request }) => {
					const body = await readJsonObject(request, MAX_BODY_BYTES)
					return answer(await changeVendorJob(deps, actor, checkId(params.vendorJobId), body))
				},
				{ vendor: true, parse: 'none' },
			)
			.delete('/api/v1/jobs/:vendorJobId', async ({ actor, params }) => ({ job: await closeVendorJob(deps, actor, checkId(params.vendorJobId)) }), {
				vendor: true,
				parse: 'none',
			})
			.get('/api/v1/openapi.json', () => document, { auth: 'public' })
			.get('/api/v1/docs', () => renderApiDocs(deps.config.baseUrl, more), { auth: 'public' })
			.get('/api/v1', ({ redirect }) => redirect('/api/v1/docs', 302), { auth: 'public' })
	)
}
