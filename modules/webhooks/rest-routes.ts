/**
 * A vendor's own webhook endpoints through the Job Publish REST API (`/api/v1/webhooks`), with its
 * API key: thin adapters over `service.ts`, which limits a vendor to the `job.*` events and
 * `submission.created` about its own jobs, and to its own endpoints (another vendor's is "not found"):
 * add, list, read, change in place (PATCH: its secret kept; `enabled` switches on or pauses), rotate the
 * signing secret, delete. Errors are the API's error body (422 with `fields`).
 */
import { answersUnreadableText } from '../../core/http/query.ts'
import { Elysia } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { invalid } from '../../core/errors.ts'
import { readJsonObject } from '../../core/http/body.ts'
import { namesToShow } from '../../core/schema-check.ts'
import type { HttpKit } from '../../core/module.ts'
import { addEndpoint, changeEndpoint, getEndpoint, listEndpoints, removeEndpoint, rotateSecret, type EndpointChange, type EndpointView } from './service.ts'

const MAX_BODY_BYTES = 16 * 1024
const FIELDS = new Set(['url', 'events', 'description'])
/** The fields of an answer: what a vendor may send back after reading an endpoint. */
const MADE_BY_SERVICE = new Set(['id', 'enabled', 'disabledReason', 'createdAt', 'secret'])
/** A change takes the settings and `enabled`. */
const CHANGE_FIELDS = new Set([...FIELDS, 'enabled'])

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
 * What a body's other fields mean to the vendor, as on every Job Publish API body (the spec's rule):
 * fields the API does not know are ignored with a warning naming them; the fields of an answer (an
 * endpoint read and sent back, its secret) are ignored with a warning saying why: the service makes them.
 */
function ignoredFields(body: Record<string, unknown>, accepted: ReadonlySet<string>): string[] {
	const sent = Object.keys(body).filter((k) => !accepted.has(k))
	const made = sent.filter((k) => MADE_BY_SERVICE.has(k))
	const unknown = sent.filter((k) => !MADE_BY_SERVICE.has(k))
	return [
		...(made.length
			? [`${namesToShow(made)} ${made.length === 1 ? 'is' : 'are'} made by the service, not sent, and ${made.length === 1 ? 'was' : 'were'} ignored`]
			: []),
		...(unknown.length ? [`Unknown fields were ignored: ${namesToShow(unknown)}`] : []),
	]
}

/** null is no description, as every answer shows none: what a read returns can be sent back. */
const descriptionProblem = (body: Record<string, unknown>) =>
	body.description !== undefined && body.description !== null && typeof body.description !== 'string'
		? [{ field: 'description', message: 'must be text or null' }]
		: []

/** The endpoint a POST asks for, and the warnings for the fields ignored. */
function endpointInput(body: Record<string, unknown>) {
	const fields = []
	if (typeof body.url !== 'string') fields.push({ field: 'url', message: 'is required: an https:// address' })
	if (!Array.isArray(body.events)) fields.push({ field: 'events', message: 'is required: a list of event types' })
	fields.push(...descriptionProblem(body))
	if (fields.length) throw invalid(fields)
	const input = { url: body.url as string, events: body.events as string[], description: (body.description as string | null | undefined) ?? undefined }
	return { input, warnings: ignoredFields(body, FIELDS) }
}

/**
 * The change a PATCH asks for: only the fields sent, each of its type when sent (a field sent as null
 * is not a way to leave it out: only `description` may be null, which is none). `enabled` is the
 * vendor's here (switch on, pause), where a POST ignores it with the other fields of an answer.
 */
function endpointChange(body: Record<string, unknown>): { change: EndpointChange; warnings: string[] } {
	const fields = []
	if (body.url !== undefined && typeof body.url !== 'string') fields.push({ field: 'url', message: 'must be an https:// address' })
	if (body.events !== undefined && !Array.isArray(body.events)) fields.push({ field: 'events', message: 'must be a list of event types' })
	if (body.enabled !== undefined && typeof body.enabled !== 'boolean') fields.push({ field: 'enabled', message: 'must be true or false' })
	fields.push(...descriptionProblem(body))
	if (fields.length) throw invalid(fields)
	const change: EndpointChange = {
		url: body.url as string | undefined,
		events: body.events as unknown[] | undefined,
		description: body.description as string | null | undefined,
		enabled: body.enabled as boolean | undefined,
	}
	return { change, warnings: ignoredFields(body, CHANGE_FIELDS) }
}

const withWarnings = <T extends object>(answer: T, warnings: string[]) => (warnings.length ? { ...answer, warnings } : answer)

export function webhookRestRoutes(deps: AppDeps, { auth }: HttpKit) {
	// These operations read no query and their own body (as the Job Publish API's: a GET is never 400): a parameter
	// that cannot be read is never read nor shown here, so it is left alone (core/http/query.ts).
	return new Elysia({ name: 'webhooks.rest' })
		.use(auth)
		.onTransform(answersUnreadableText)
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
				return withWarnings({ ...restEndpoint(endpoint), secret }, warnings)
			},
			{ vendor: true, parse: 'none' },
		)
		.get('/api/v1/webhooks', async ({ actor }) => ({ webhooks: (await listEndpoints(deps, actor)).map(restEndpoint) }), { vendor: true, parse: 'none' })
		.get('/api/v1/webhooks/:id', async ({ actor, params }) => restEndpoint(await getEndpoint(deps, actor, params.id)), { vendor: true, parse: 'none' })
		.patch(
			'/api/v1/webhooks/:id',
			async ({ actor, params, request }) => {
				const body = await readJsonObject(request, MAX_BODY_BYTES)
				// The API's precedence (design.md): 400, then 404, then 422 — an id out of reach is 404 whatever the body holds.
				await getEndpoint(deps, actor, params.id)
				const { change, warnings: ignored } = endpointChange(body)
				const { endpoint, warnings: adjusted } = await changeEndpoint(deps, actor, params.id, change)
				return withWarnings(restEndpoint(endpoint), [...adjusted, ...ignored])
			},
			{ vendor: true, parse: 'none' },
		)
		.post(
			'/api/v1/webhooks/:id/rotate-secret',
			async ({ actor, params }) => {
				const { secret, previousValidUntil } = await rotateSecret(deps, actor, params.id)
				// The new secret is given out here only; the one it replaced signs beside it until previousValidUntil.
				return { ...restEndpoint(await getEndpoint(deps, actor, params.id)), secret, previousSecretValidUntil: previousValidUntil.toISOString() }
			},
			{ vendor: true, parse: 'none' },
		)
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
