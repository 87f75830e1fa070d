/**
 * The vendors pages: thin adapters over `directory.ts` (what `list_vendors` and `get_vendor` show)
 * and, for owners and admins, `service.ts` (keys and API access, as the CLI commands). Changes
 * answer with a redirect (Post/Redirect/Get); a new key crosses it sealed, shown once.
 */
import { AppError } from '../../core/errors.ts'
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { revealCookie } from '../../core/http/reveal-cookie.ts'
import { pageSections } from '../../core/html.ts'
import type { HttpKit } from '../../core/module.ts'
import { getVendor, listVendors } from './directory.ts'
import { vendorListPage, vendorPage } from './pages.ts'
import { createKey, KEYS_PERMISSION, revokeVendorKey, setApiAccess, vendorKeys } from './service.ts'

const read = { permission: 'vendors:read' } as const
const manage = { permission: KEYS_PERMISSION } as const
const form = t.Object({ csrf: t.Optional(t.String()) }, { additionalProperties: true })
const id = t.String({ minLength: 1, maxLength: 160 })
const cursor = t.Optional(t.String({ minLength: 1, maxLength: 64, error: 'cursor is not valid: use the Next page link' }))

/** Confirmations after a redirect (`?done=`). */
const NOTICES: Record<string, string> = {
	'key-revoked':
		'The key was revoked: it stops working on its next request. The webhook endpoints the vendor added or last moved with it are switched off (Webhooks lists them).',
	'api-access-off': 'API access is off: every key of this vendor is refused until it is switched on again.',
	'api-access-on': 'API access is on: the vendor’s live keys work again.',
}

/** The new key, shown once on the vendor's page after the redirect that follows its creation. */
type NewKey = { vendorId: string; keyId: string; apiKey: string }
const newKey = revealCookie<NewKey>(
	'bl_new_vendor_key',
	'/vendors',
	(v): v is NewKey => typeof (v as NewKey)?.vendorId === 'string' && typeof (v as NewKey)?.keyId === 'string' && typeof (v as NewKey)?.apiKey === 'string',
)

export function vendorRoutes(deps: AppDeps, kit: HttpKit) {
	const managesKeys = (session: PageSession) => deps.permissions.can(session.actor, KEYS_PERMISSION)
	return new Elysia({ name: 'vendors.routes' })
		.use(kit.auth)
		.get(
			'/vendors',
			async ({ session, query }) =>
				vendorListPage(deps, session, {
					...(await listVendors(deps, session.actor, { limit: 25, cursor: query.cursor })),
					paged: Boolean(query.cursor),
					managesKeys: managesKeys(session),
				}),
			{ session: read, query: t.Object({ cursor }) },
		)
		.get(
			'/vendors/:id',
			async ({ session, params, query, cookie }) => {
				const actor = session.actor
				const vendor = await getVendor(deps, actor, params.id)
				// The open jobs (`?jobs=` pages them) and the submissions are sections of the modules that keep them.
				const [sections, keys] = await Promise.all([
					pageSections(deps, 'vendor', session, vendor.id, { query: { jobs: query.jobs } }),
					managesKeys(session) ? vendorKeys(deps, actor, vendor.id) : null,
				])
				const revealed = keys ? await newKey.open(deps, cookie, session.sessionId) : null
				return vendorPage(deps, session, {
					vendor,
					sections,
					keys,
					newKey: revealed?.vendorId === vendor.id ? revealed : undefined,
					notice: NOTICES[query.done ?? ''],
				})
			},
			{ session: read, params: t.Object({ id }), query: t.Object({ jobs: cursor, done: t.Optional(t.String({ maxLength: 40 })) }) },
		)
		.post(
			'/vendors/:id/keys',
			async ({ session, params, cookie, redirect }) => {
				const { keyId, apiKey } = await createKey(deps, session.actor, params.id)
				await newKey.seal(deps, cookie, session.sessionId, { vendorId: params.id, keyId, apiKey })
				return redirect(`/vendors/${encodeURIComponent(params.id)}#api`, 303)
			},
			{ session: manage, params: t.Object({ id }), body: form },
		)
		.post(
			'/vendors/:id/keys/:keyId/revoke',
			async ({ session, params, redirect }) => {
				await revokeVendorKey(deps, session.actor, params.id, params.keyId)
				return redirect(`/vendors/${encodeURIComponent(params.id)}?done=key-revoked#api`, 303)
			},
			{ session: manage, params: t.Object({ id, keyId: id }), body: form },
		)
		.post(
			'/vendors/:id/api-access/:state',
			async ({ session, params, redirect }) => {
				// The state is checked here, after sign-in, CSRF and permission: an address is never judged before who asks.
				if (params.state !== 'on' && params.state !== 'off') throw new AppError('NOT_FOUND', 'Not found')
				await setApiAccess(deps, session.actor, params.id, params.state === 'on')
				return redirect(`/vendors/${encodeURIComponent(params.id)}?done=api-access-${params.state}#api`, 303)
			},
			{ session: manage, params: t.Object({ id, state: t.String({ maxLength: 10 }) }), body: form },
		)
}
