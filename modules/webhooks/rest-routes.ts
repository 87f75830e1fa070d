/**
 * A vendor's own webhook endpoints through the Job Publish REST API (`/api/v1/webhooks`), with its
 * API key: thin adapters over `service.ts`, which limits a vendor to the `job.*` events and
 * `submission.created` about its own jobs, and to its own endpoints (another vendor's is "not found").
 * Errors are the API's error body (422 with `fields`).
 */
import { Elysia } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { invalid } from '../../core/errors.ts'
import { readJsonObject } from '../../core/http/body.ts'
import { namesToShow } from '../../core/schema-check.ts'
import type { HttpKit } from '../../core/module.ts'
import { addEndpoint, getEndpoint, listEndpoints, removeEndpoint, type EndpointView } from './service.ts'

const MAX_BODY_BYTES = 16 * 1024
const FIELDS = new Set(['url', 'events', 'description'])
/** The fields of an answer: what a vendor may send back after reading an endpoint. */
const MADE_BY_SERVICE = new Set(['id', 'enabled', 'disabledReason', 'createdAt', 'secret'])

/**
 * An endpoint as the vendor sees it, the one shape of every answer (the list's items, one endpoint,
 * the 201 beside its secret): `disabledReason` says why one is off (switch-off.ts), null while on.
 */
const restEndpoint = (e: EndpointView) => ({
	id: e.id,
	url: e.url,
	events: e.events,
	// The vendor's own words as stored (direction controls and the like removed), null when none.
	description: e.description || null,
	enabled: e.enabled,
	disabledReason: e.enabled ? null : e.disabledCause,
	createdAt: e.createdAt.toISOString(),
})

/**
 * The endpoint a POST asks for. Fields the API does not know are ignored with a warning naming them, as
 * on every Job Publish API body (the spec's rule); the fields of an answer (an endpoint read and sent
 * back, its secret) are ignored with a warning saying why: the service makes them.
 */
function endpointInput(body: Record<string, unknown>) {
	const fields = []
	if (typeof body.url !== 'string') fields.push({ field: 'url', message: 'is required: an https:// address' })
	if (!Array.isArray(body.events)) fields.push({ field: 'events', message: 'is required: a list of event types' })
	// null is no description, as every answer shows none: what a read returns can be sent back.
	if (body.description !== undefined && body.description !== null && typeof body.description !== 'string')
		fields.push({ field: 'description', message: 'must be text or null' })
	if (fields.length) throw invalid(fields)
	const sent = Object.keys(body).filter((k) => !FIELDS.has(k))
	const made = sent.filter((k) => MADE_BY_SERVICE.has(k))
	const unknown = sent.filter((k) => !MADE_BY_SERVICE.has(k))
	const warnings = [
		...(made.length
			? [`${namesToShow(made)} ${made.length === 1 ? 'is' : 'are'} made by the service, not sent, and ${made.length === 1 ? 'was' : 'were'} ignored`]
			: []),
		...(unknown.length ? [`Unknown fields were ignored: ${namesToShow(unknown)}`] : []),
	]
	const input = { url: body.url as string, events: body.events as string[], description: (body.description as string | null | undefined) ?? undefined }
	return { input, warnings }
}

export function webhookRestRoutes(deps: AppDeps, { auth }: HttpKit) {
	return new Elysia({ name: 'webhooks.rest' })
		.use(auth)
		.post(
			'/api/v1/webhooks',
			async ({ actor, request, set }) => {
				const { input, warnings: ignored } = endpointInput(await readJsonObject(request, MAX_BODY_BYTES))
				const { endpoint, secret, warnings: adjusted } = await addEndpoint(deps, actor, input)
				const warnings = [...adjusted, ...ignored]
				set.status = 201
				// A 201 names what it created (RFC 9110 §15.3.2): the endpoint's own address, which GET reads.
				set.headers.location = `/api/v1/webhooks/${endpoint.id}`
				// The secret is given out here only.
				return warnings.length ? { ...restEndpoint(endpoint), secret, warnings } : { ...restEndpoint(endpoint), secret }
			},
			{ vendor: true, parse: 'none' },
		)
		.get('/api/v1/webhooks', async ({ actor }) => ({ webhooks: (await listEndpoints(deps, actor)).map(restEndpoint) }), { vendor: true, parse: 'none' })
		.get('/api/v1/webhooks/:id', async ({ actor, params }) => restEndpoint(await getEndpoint(deps, actor, params.id)), { vendor: true, parse: 'none' })
		.delete(
			'/api/v1/webhooks/:id',
			async ({ actor, params, set }) => {
				await removeEndpoint(deps, actor, params.id)
				set.status = 204
				return null
			},
			{ vendor: true, parse: 'none' },
		)
}
