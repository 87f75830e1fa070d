/**
 * Privacy requests' routes: the public page (`/careers/<slug>/privacy`), its confirmation link and
 * download link, and the owners' list (`/privacy-requests`) with Send data, Erase and Decline.
 * Rules live in `requests.ts` and `request-actions.ts`; every form is Post/Redirect/Get.
 */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { clientAddress } from '../../core/http/client-address.ts'
import { anonymousCsrf } from '../../core/http/csrf.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { formBody, formText, isRefusal, seeOther } from '../../core/http/form.ts'
import type { HttpKit } from '../../core/module.ts'
import { downloadDisposition } from '../../core/http/file-response.ts'
import { findWorkspace } from '../auth/index.ts'
import { declineRequest, downloadRequested, eraseRequested, sendRequestedData } from './request-actions.ts'
import { confirmPage, requestFormPage, requestsPage } from './request-pages.ts'
import { confirmPath, confirmPrivacyRequest, listPrivacyRequests, privacyPagePath, requestToConfirm, submitPrivacyRequest } from './requests.ts'

const SLUG = /^[a-z0-9-]{1,80}$/
const token = t.String({ maxLength: 100 })
const id = t.String({ maxLength: 160 })

/** The workspace of a careers site's address (none: 404). */
async function careersWorkspace(deps: AppDeps, slug: string) {
	const ws = SLUG.test(slug) ? await findWorkspace(deps.db, slug) : null
	if (!ws) throw new AppError('NOT_FOUND', 'There is no careers site at this address.')
	return ws
}

/** The public side: the request form, its confirmation link and the download link. */
function publicRequestRoutes(deps: AppDeps, auth: HttpKit['auth']) {
	return new Elysia({ name: 'privacy.requests.public' })
		.use(auth)
		.get(
			'/careers/:workspace/privacy',
			async ({ params, cookie, query }) =>
				requestFormPage(await careersWorkspace(deps, params.workspace), { csrf: anonymousCsrf(deps, cookie), done: query.done }),
			{ auth: 'form', query: t.Object({ done: t.Optional(t.String({ maxLength: 20 })) }) },
		)
		.post(
			'/careers/:workspace/privacy',
			async ({ params, body, cookie, request }) => {
				const ws = await careersWorkspace(deps, params.workspace)
				const values = { email: formText(body, 'email').slice(0, 320), kind: formText(body, 'kind'), note: formText(body, 'note').slice(0, 4000) }
				try {
					await submitPrivacyRequest(deps, ws, { ...values, address: clientAddress(deps.config, request) })
					return seeOther(privacyPagePath(ws.slug), 'sent')
				} catch (error) {
					if (!isRefusal(error)) throw error
					return requestFormPage(ws, {
						csrf: anonymousCsrf(deps, cookie),
						values,
						errors: error.fields?.length ? error.fields : [{ field: 'email', message: error.message }],
						status: error.status,
						retryAfter: error.retryAfter,
					})
				}
			},
			{ auth: 'form', body: formBody },
		)
		.get(
			'/careers/:workspace/privacy/confirm/:token',
			async ({ params, cookie }) => {
				const ws = await careersWorkspace(deps, params.workspace)
				const asked = await requestToConfirm(deps, ws, params.token)
				return confirmPage(ws, { csrf: anonymousCsrf(deps, cookie), action: confirmPath(ws.slug, params.token), ...asked })
			},
			{ auth: 'form', params: t.Object({ workspace: t.String(), token }) },
		)
		.post(
			'/careers/:workspace/privacy/confirm/:token',
			async ({ params }) => {
				const ws = await careersWorkspace(deps, params.workspace)
				await confirmPrivacyRequest(deps, ws, params.token)
				return seeOther(privacyPagePath(ws.slug), 'confirmed')
			},
			{ auth: 'form', params: t.Object({ workspace: t.String(), token }), body: formBody },
		)
		.get(
			'/careers/:workspace/privacy/download/:token',
			async ({ params, request }) => {
				const out = await downloadRequested(deps, await careersWorkspace(deps, params.workspace), params.token, clientAddress(deps.config, request))
				return new Response(out.bytes as Uint8Array<ArrayBuffer>, {
					headers: {
						'Content-Type': 'application/zip',
						'Content-Disposition': downloadDisposition(out.fileName),
						'Cache-Control': 'no-store',
						'X-Content-Type-Options': 'nosniff',
						'Referrer-Policy': 'no-referrer',
					},
				})
			},
			{ auth: 'public', params: t.Object({ workspace: t.String(), token }) },
		)
}

/** The owners' list, with Send data, Erase and Decline. */
function ownerRequestRoutes(deps: AppDeps, auth: HttpKit['auth']) {
	/** One owner's answer: the list again with what went wrong (on the request's card), or back to it with the notice. */
	const answer =
		(done: string, run: (session: PageSession, id: string, body: unknown, request: Request) => Promise<void>) =>
		async ({ session, params, body, request }: { session: PageSession; params: { id: string }; body: unknown; request: Request }) => {
			try {
				await run(session, params.id, body, request)
				return seeOther('/privacy-requests', done)
			} catch (error) {
				if (!isRefusal(error)) throw error
				const errors = error.fields?.length ? error.fields : [{ field: `req-${params.id}`, message: error.message }]
				return requestsPage(deps, session, { rows: await listPrivacyRequests(deps, session.actor.workspaceId), errors, status: error.status })
			}
		}
	const owner = { session: { permission: 'privacy:requests' as const }, params: t.Object({ id }), body: formBody }
	return new Elysia({ name: 'privacy.requests.owners' })
		.use(auth)
		.get(
			'/privacy-requests',
			async ({ session, query }) => requestsPage(deps, session, { rows: await listPrivacyRequests(deps, session.actor.workspaceId), done: query.done }),
			{ session: { permission: 'privacy:requests' }, query: t.Object({ done: t.Optional(t.String({ maxLength: 20 })) }) },
		)
		.post(
			'/privacy-requests/:id/send',
			answer('sent', (session, id) => sendRequestedData(deps, session.actor, id)),
			owner,
		)
		.post(
			'/privacy-requests/:id/erase',
			answer('erased', (session, id, _body, request) => eraseRequested(deps, session.actor, id, clientAddress(deps.config, request))),
			owner,
		)
		.post(
			'/privacy-requests/:id/decline',
			answer('declined', (session, id, body) => declineRequest(deps, session.actor, id, formText(body, 'reason').slice(0, 4000))),
			owner,
		)
}

export function requestRoutes(deps: AppDeps, { auth }: HttpKit) {
	return new Elysia({ name: 'privacy.requests' }).use(publicRequestRoutes(deps, auth)).use(ownerRequestRoutes(deps, auth))
}
