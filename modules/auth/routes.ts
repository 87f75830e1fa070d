/** Sign-in, sign-out, the portal home, API access settings and the people page. */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { anonymousCsrf } from '../../core/http/csrf.ts'
import type { HttpKit } from '../../core/module.ts'
import { apiAccessPage, homePage, peoplePage, signInPage } from './pages.ts'
import { addPerson, listPeople, removePerson } from './people.ts'
import { clearSessionCookie, sessionCookieName, setSessionCookie, signIn, signOut } from './sessions.ts'
import { createPersonalToken, listPersonalTokens, revokePersonalToken } from './tokens.ts'
import { openReveal, sealReveal } from './reveal.ts'
import { disconnectApp, listConnections } from './oauth/connections.ts'
import { connectedAppsSection } from './oauth/pages.ts'
import { oauthRoutes } from './oauth/routes.ts'

/** Only same-site relative paths may be a `next` target (no open redirect). */
export const safeNext = (next: unknown) => (typeof next === 'string' && /^\/(?![/\\])[^\s]*$/.test(next) ? next : '/portal')

function clientAddress(deps: AppDeps, request: Request, server: { requestIP(r: Request): { address: string } | null } | null): string {
	if (deps.config.trustProxy) {
		// The last entry is the one our proxy added; earlier ones are whatever the client sent.
		const forwarded = request.headers.get('x-forwarded-for')?.split(',').at(-1)?.trim()
		if (forwarded) return forwarded
	}
	return server?.requestIP(request)?.address ?? 'unknown'
}

const form = t.Object({ csrf: t.Optional(t.String()) }, { additionalProperties: true })

export function authRoutes(deps: AppDeps, { auth }: HttpKit) {
	const apiAccess = async (session: Parameters<typeof apiAccessPage>[1], extra: Partial<Parameters<typeof apiAccessPage>[2]> = {}) =>
		apiAccessPage(deps, session, { tokens: await listPersonalTokens(deps, session.actor), sections: [connectedAppsSection(session, await listConnections(deps, session.actor))], ...extra })
	return new Elysia({ name: 'auth.routes' })
		.use(auth)
		.use(oauthRoutes(deps, { auth }))
		.get('/sign-in', ({ cookie, query }) => signInPage({ csrf: anonymousCsrf(deps, cookie), next: safeNext(query.next) }), { auth: 'form', query: t.Object({ next: t.Optional(t.String({ maxLength: 8000 })) }) })
		.post(
			'/sign-in',
			async ({ body, cookie, request, server, redirect }) => {
				const fields = body as Record<string, string>
				const next = safeNext(fields.next)
				try {
					const result = await signIn(deps, { email: String(fields.email ?? ''), password: String(fields.password ?? ''), address: clientAddress(deps, request, server) })
					setSessionCookie(deps, cookie, result.token, result.expiresAt)
					return redirect(next, 303)
				} catch (error) {
					if (!(error instanceof AppError) || (error.code !== 'UNAUTHORIZED' && error.code !== 'RATE_LIMITED')) throw error
					return signInPage({ csrf: anonymousCsrf(deps, cookie), next, email: String(fields.email ?? ''), error: error.message, status: error.status })
				}
			},
			{ auth: 'form', body: form },
		)
		.post(
			'/sign-out',
			async ({ cookie, redirect }) => {
				const token = cookie[sessionCookieName(deps)]?.value
				if (typeof token === 'string' && token) await signOut(deps, token)
				clearSessionCookie(deps, cookie)
				return redirect('/sign-in', 303)
			},
			{ auth: 'signed-in', body: form },
		)
		.get('/portal', ({ session }) => homePage(deps, session!), { auth: 'signed-in' })
		// Creating and revoking answer with a redirect (Post/Redirect/Get): reloading the page never
		// posts the form again. The new token crosses the redirect sealed in a cookie (reveal.ts).
		.get(
			'/settings/api',
			async ({ session, cookie, query }) =>
				apiAccess(session!, { newToken: (await openReveal(deps, cookie, session!.sessionId)) ?? undefined, notice: query.done === 'revoked' ? 'The token was revoked; apps using it stop working at once.' : undefined }),
			{ auth: 'signed-in', query: t.Object({ done: t.Optional(t.String()) }) },
		)
		.post(
			'/settings/api/tokens',
			async ({ session, body, cookie, redirect }) => {
				const name = String((body as Record<string, unknown>).name ?? '')
				try {
					const { token } = await createPersonalToken(deps, session!.actor, { name })
					await sealReveal(deps, cookie, session!.sessionId, { name: name.trim(), token })
					return redirect('/settings/api', 303)
				} catch (error) {
					if (error instanceof AppError && error.code === 'VALIDATION') return apiAccess(session!, { error: `Token name ${error.fields?.[0]?.message ?? 'is not valid'}.` })
					throw error
				}
			},
			{ auth: 'signed-in', body: form },
		)
		.post(
			'/settings/api/tokens/:id/revoke',
			async ({ session, params, redirect }) => {
				await revokePersonalToken(deps, session!.actor, params.id)
				return redirect('/settings/api?done=revoked', 303)
			},
			{ auth: 'signed-in', body: form },
		)
		.post(
			'/settings/api/apps/:clientId/:userId/disconnect',
			async ({ session, params }) => {
				await disconnectApp(deps, session!.actor, params.clientId, params.userId)
				return apiAccess(session!, { notice: 'The app was disconnected; its tokens stopped working.' })
			},
			{ auth: 'signed-in', body: form },
		)
		.get('/people', async ({ session }) => peoplePage(deps, session!, await listPeople(deps.db, session!.actor.workspaceId)), { auth: { permission: 'auth:manage_people' } })
		.post(
			'/people',
			async ({ session, body }) => {
				const f = body as Record<string, string>
				const ws = { id: session!.actor.workspaceId, slug: session!.actor.workspaceSlug }
				let message: { error?: string; notice?: string }
				try {
					await addPerson(deps, session!.actor, ws, { email: String(f.email ?? ''), name: String(f.name ?? ''), role: String(f.role ?? ''), password: String(f.password ?? '') })
					message = { notice: `${f.name} was added.` }
				} catch (error) {
					if (!(error instanceof AppError) || error.status >= 500) throw error
					message = { error: error.fields?.map((x) => `${x.field} ${x.message}`).join('; ') || error.message }
				}
				return peoplePage(deps, session!, await listPeople(deps.db, ws.id), message)
			},
			{ auth: { permission: 'auth:manage_people' }, body: form },
		)
		.post(
			'/people/:userId/remove',
			async ({ session, params }) => {
				const ws = { id: session!.actor.workspaceId, slug: session!.actor.workspaceSlug }
				let message: { error?: string; notice?: string }
				try {
					await removePerson(deps, session!.actor, ws, { userId: params.userId })
					message = { notice: 'The person was removed; their sessions, tokens and app connections stopped working.' }
				} catch (error) {
					if (!(error instanceof AppError) || error.status >= 500) throw error
					message = { error: error.message }
				}
				return peoplePage(deps, session!, await listPeople(deps.db, ws.id), message)
			},
			{ auth: { permission: 'auth:manage_people' }, body: form },
		)
}
