/** The webhook pages (Post/Redirect/Get; a refused form is the page again, 422, with every value kept). */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import type { AppError } from '../../core/errors.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { doneNotice, formBody, formList, formText, isRefusal } from '../../core/http/form.ts'
import { revealCookie } from '../../core/http/reveal-cookie.ts'
import type { HttpKit } from '../../core/module.ts'
import { endpointPage, endpointsPage, type Kept } from './pages.ts'
import {
	addEndpoint,
	deliveryLog,
	getEndpoint,
	listEndpoints,
	MANAGE,
	removeEndpoint,
	replayDelivery,
	rotateSecret,
	endPreviousSecrets,
	sendTestEvent,
	setEndpointEnabled,
	type EndpointView,
} from './service.ts'

const auth = { permission: MANAGE } as const
const id = t.String({ minLength: 1, maxLength: 160 })
const NOTICES: Record<string, string> = {
	deleted: 'The endpoint and its delivery log were deleted.',
	tested: 'A webhook.test event is queued for this endpoint: it shows in the delivery log below.',
	'previous-ended': 'The previous secrets no longer sign: only the current secret does.',
	enabled: 'The endpoint is on: events are sent to it again, starting with what waits.',
	disabled: 'The endpoint is off: nothing is sent to it until it is switched on.',
	replayed: 'The delivery is queued again, with the same webhook-id.',
}
const LABELS: Record<string, string> = { url: 'URL', description: 'Description', events: 'Event types' }

/** A new or rotated secret, shown once on the endpoint's page after the redirect. */
type NewSecret = { endpointId: string; secret: string; rotated: boolean }
const newSecret = revealCookie<NewSecret>(
	'bl_new_webhook_secret',
	'/settings/webhooks',
	(v): v is NewSecret =>
		typeof (v as NewSecret)?.endpointId === 'string' && typeof (v as NewSecret)?.secret === 'string' && typeof (v as NewSecret)?.rotated === 'boolean',
)

function kept(values: Kept['values'], error: AppError): Kept {
	const errors = (error.fields ?? []).map((f) => ({
		field: f.field in LABELS ? f.field : 'url',
		message: `${LABELS[f.field] ?? f.field} ${f.message.replace(/\.$/, '')}.`,
	}))
	return { values, errors: errors.length ? errors : [{ field: 'url', message: error.message }] }
}

/** The endpoints page, with a notice or a refused form kept. */
const listPage = async (deps: AppDeps, session: PageSession, o: { done?: string; kept?: Kept; status?: number } = {}) =>
	endpointsPage(deps, session, {
		endpoints: await listEndpoints(deps, session.actor),
		done: doneNotice(NOTICES, o.done) ?? null,
		kept: o.kept,
		status: o.status,
	})

/** An endpoint's page, with its delivery log, and a new secret, a notice or a refusal. */
async function onePage(deps: AppDeps, session: PageSession, endpoint: EndpointView, o: Omit<Parameters<typeof endpointPage>[2], 'endpoint' | 'deliveries'>) {
	return endpointPage(deps, session, { ...o, endpoint, deliveries: await deliveryLog(deps, session.actor, endpoint.id) })
}

/**
 * Rotates the endpoint's secret and keeps the new one to be shown once on its page; too many
 * rotations at once: that page again, saying why and until when (the refusal is returned).
 */
async function rotateShowingOnce(deps: AppDeps, session: PageSession, endpointId: string, cookie: Record<string, any>): Promise<Response | undefined> {
	try {
		const { secret } = await rotateSecret(deps, session.actor, endpointId)
		await newSecret.seal(deps, cookie, session.sessionId, { endpointId, secret, rotated: true })
		return undefined
	} catch (error) {
		if (!isRefusal(error)) throw error
		return onePage(deps, session, await getEndpoint(deps, session.actor, endpointId), { problem: { message: error.message, status: error.status } })
	}
}

/** An endpoint's page address, with a notice. */
const to = (endpointId: string, done?: string) => `/settings/webhooks/${encodeURIComponent(endpointId)}${done ? `?done=${done}` : ''}`

export function webhookRoutes(deps: AppDeps, kit: HttpKit) {
	return new Elysia({ name: 'webhooks.routes' })
		.use(kit.auth)
		.get('/settings/webhooks', ({ session, query }) => listPage(deps, session, { done: query.done }), {
			session: auth,
			query: t.Object({ done: t.Optional(t.String({ maxLength: 20 })) }),
		})
		.post(
			'/settings/webhooks',
			async ({ session, body, cookie, redirect }) => {
				const values = { url: formText(body, 'url'), description: formText(body, 'description'), events: formList(body, 'events') }
				try {
					const { endpoint, secret } = await addEndpoint(deps, session.actor, values)
					await newSecret.seal(deps, cookie, session.sessionId, { endpointId: endpoint.id, secret, rotated: false })
					return redirect(to(endpoint.id), 303)
				} catch (error) {
					if (!isRefusal(error)) throw error
					return listPage(deps, session, { kept: kept(values, error), status: 422 })
				}
			},
			{ session: auth, body: formBody },
		)
		.get(
			'/settings/webhooks/:id',
			async ({ session, params, query, cookie }) => {
				// Found first: the secret is shown once, so a page that is not found must not use up its reveal.
				const endpoint = await getEndpoint(deps, session.actor, params.id)
				const revealed = await newSecret.open(deps, cookie, session.sessionId)
				return onePage(deps, session, endpoint, {
					secret: revealed?.endpointId === endpoint.id ? { value: revealed.secret, rotated: revealed.rotated } : undefined,
					done: doneNotice(NOTICES, query.done) ?? null,
				})
			},
			{ session: auth, params: t.Object({ id }), query: t.Object({ done: t.Optional(t.String({ maxLength: 20 })) }) },
		)
		.post(
			'/settings/webhooks/:id/ping',
			async ({ session, params, redirect }) => {
				await sendTestEvent(deps, session.actor, params.id)
				return redirect(`${to(params.id, 'tested')}#deliveries`, 303)
			},
			{ session: auth, params: t.Object({ id }), body: formBody },
		)
		.post(
			'/settings/webhooks/:id/rotate',
			async ({ session, params, cookie, redirect }) => {
				const refused = await rotateShowingOnce(deps, session, params.id, cookie)
				return refused ?? redirect(to(params.id), 303)
			},
			{ session: auth, params: t.Object({ id }), body: formBody },
		)
		.post(
			'/settings/webhooks/:id/:state',
			async ({ session, params, redirect }) => {
				if (params.state === 'delete') {
					await removeEndpoint(deps, session.actor, params.id)
					return redirect('/settings/webhooks?done=deleted', 303)
				}
				if (params.state === 'end-previous') {
					await endPreviousSecrets(deps, session.actor, params.id)
					return redirect(to(params.id, 'previous-ended'), 303)
				}
				// The state is checked here, after sign-in, CSRF and permission: an address is never judged before who asks.
				if (params.state !== 'enable' && params.state !== 'disable') return redirect(to(params.id), 303)
				await setEndpointEnabled(deps, session.actor, params.id, params.state === 'enable')
				return redirect(to(params.id, `${params.state}d`), 303)
			},
			{ session: auth, params: t.Object({ id, state: t.String({ maxLength: 12 }) }), body: formBody },
		)
		.post(
			'/settings/webhooks/:id/deliveries/:deliveryId/replay',
			async ({ session, params, redirect }) => {
				const delivery = await replayDelivery(deps, session.actor, params.deliveryId)
				return redirect(`${to(delivery.endpointId, 'replayed')}#deliveries`, 303)
			},
			{ session: auth, params: t.Object({ id, deliveryId: id }), body: formBody },
		)
}
