/** Sign-in, sign-out, the portal home and API access settings (the choice step, switching and people: their own files). */
import { formText, refusedForm } from '../../core/http/form.ts'
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { clientAddress } from '../../core/http/client-address.ts'
import { AppError } from '../../core/errors.ts'
import { anonymousCsrf } from '../../core/http/csrf.ts'
import type { HttpKit } from '../../core/module.ts'
import { page } from '../../core/html.ts'
import { assistantsHelp } from './connect.ts'
import { apiAccessPage, homePage, signInPage, TOKEN_FORM } from './pages.ts'
import { passwordRoutes } from './password-routes.ts'
import { profileRoutes } from './profile-routes.ts'
import { peopleRoutes } from './people-routes.ts'
import { securityRoutes } from './security-routes.ts'
import { clearSessionCookie, sessionCookieName, setSessionCookie, signIn, signOut } from './sessions.ts'
import { signInChoiceRoutes, setChoiceCookie } from './sign-in-routes.ts'
import { invitationsOpenTo, switchableWorkspaces } from './workspace-switch.ts'
import { createPersonalToken, listPersonalTokens, revokePersonalToken } from './tokens.ts'
import { openReveal, sealReveal } from './reveal.ts'
import { disconnectApp, listConnections } from './oauth/connections.ts'
import { connectedAppsSection } from './oauth/pages.ts'
import { oauthRoutes } from './oauth/routes.ts'
import { scimRoutes } from './sso/scim-routes.ts'
import { ssoSettingsRoutes } from './sso/settings-routes.ts'
import { ssoSignInRoutes } from './sso/sign-in-routes.ts'
import { safeNext } from '../../core/http/return-address.ts'

const form = t.Object({ csrf: t.Optional(t.String()) }, { additionalProperties: true })

const SIGN_IN_NOTICES: Record<string, string> = {
	'password-reset': 'Your new password is saved and you were signed out everywhere. Sign in with it now.',
}

/** Confirmations shown after a redirect (Post/Redirect/Get: reloading never repeats a change). */
const API_NOTICES: Record<string, string> = {
	revoked: 'The token was revoked; apps using it stop working at once.',
	disconnected: 'The app was disconnected; its tokens stopped working.',
}

/** Signing in and out with a password, and the public help for assistant apps. */
function passwordSignInRoutes(deps: AppDeps, auth: HttpKit['auth']) {
	return (
		new Elysia({ name: 'auth.sign-in' })
			.use(auth)
			.get(
				'/sign-in',
				({ cookie, query }) => signInPage({ csrf: anonymousCsrf(deps, cookie), next: safeNext(query.next), notice: SIGN_IN_NOTICES[query.done ?? ''] }),
				{
					auth: 'form',
					query: t.Object({ next: t.Optional(t.String({ maxLength: 8000 })), done: t.Optional(t.String({ maxLength: 40 })) }),
				},
			)
			.post(
				'/sign-in',
				async ({ body, cookie, request, redirect }) => {
					const fields = body as Record<string, string>
					const next = safeNext(fields.next)
					try {
						const result = await signIn(deps, {
							email: String(fields.email ?? ''),
							password: String(fields.password ?? ''),
							address: clientAddress(deps.config, request),
							timeZone: String(fields.timeZone ?? ''),
						})
						// Several workspaces (or only invitations): the person chooses next (Post/Redirect/Get).
						if ('choice' in result) {
							setChoiceCookie(deps, cookie, result.choice, result.expiresAt)
							return redirect(`/sign-in/workspace?next=${encodeURIComponent(next)}`, 303)
						}
						setSessionCookie(deps, cookie, result.token, result.expiresAt)
						return redirect(next, 303)
					} catch (error) {
						if (!(error instanceof AppError) || (error.code !== 'UNAUTHORIZED' && error.code !== 'RATE_LIMITED')) throw error
						const res = signInPage({ csrf: anonymousCsrf(deps, cookie), next, email: String(fields.email ?? ''), error: error.message, status: error.status })
						if (error.retryAfter) res.headers.set('Retry-After', String(error.retryAfter))
						return res
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
				{ session: 'signed-in', body: form },
			)
			// Public: the protected resource metadata points assistant apps' users here.
			.get('/help/assistants', () => page({ title: 'Connect an assistant app' }, assistantsHelp(deps.config.baseUrl)), { auth: 'public' })
	)
}

/** Settings → API access: personal tokens and connected apps. */
function apiAccessRoutes(deps: AppDeps, auth: HttpKit['auth']) {
	const apiAccess = async (session: Parameters<typeof apiAccessPage>[1], extra: Partial<Parameters<typeof apiAccessPage>[2]> = {}) =>
		apiAccessPage(deps, session, {
			tokens: await listPersonalTokens(deps, session.actor),
			sections: [connectedAppsSection(session, await listConnections(deps, session.actor))],
			...extra,
		})
	return (
		new Elysia({ name: 'auth.api-access' })
			.use(auth)
			// Creating and revoking answer with a redirect (Post/Redirect/Get): reloading the page never
			// posts the form again. The new token crosses the redirect sealed in a cookie (reveal.ts).
			.get(
				'/settings/api',
				async ({ session, cookie, query }) =>
					apiAccess(session, { newToken: (await openReveal(deps, cookie, session.sessionId)) ?? undefined, notice: API_NOTICES[query.done ?? ''] }),
				{ session: 'signed-in', query: t.Object({ done: t.Optional(t.String()) }) },
			)
			.post(
				'/settings/api/tokens',
				async ({ session, body, cookie, redirect }) => {
					const name = formText(body, 'name')
					try {
						const created = await createPersonalToken(deps, session.actor, { name })
						await sealReveal(deps, cookie, session.sessionId, { name: created.name, token: created.token })
						return redirect('/settings/api', 303)
					} catch (error) {
						// Shown next to the field, with the name as typed kept to correct.
						if (error instanceof AppError && error.code === 'VALIDATION')
							return apiAccess(session, { refused: refusedForm(TOKEN_FORM, { name }, error, { name: ['token-name', 'Token name'] }) })
						throw error
					}
				},
				{ session: 'signed-in', body: form },
			)
			.post(
				'/settings/api/tokens/:id/revoke',
				async ({ session, params, redirect }) => {
					await revokePersonalToken(deps, session.actor, params.id)
					return redirect('/settings/api?done=revoked', 303)
				},
				{ session: 'signed-in', body: form },
			)
			.post(
				'/settings/api/apps/:clientId/:userId/disconnect',
				async ({ session, params, redirect }) => {
					await disconnectApp(deps, session.actor, params.clientId, params.userId)
					return redirect('/settings/api?done=disconnected', 303)
				},
				{ session: 'signed-in', body: form },
			)
	)
}

export function authRoutes(deps: AppDeps, { auth }: HttpKit) {
	return new Elysia({ name: 'auth.routes' })
		.use(auth)
		.use(oauthRoutes(deps, { auth }))
		.use(ssoSettingsRoutes(deps, { auth }))
		.use(scimRoutes(deps, { auth }))
		.use(ssoSignInRoutes(deps, { auth }))
		.use(passwordSignInRoutes(deps, auth))
		.use(signInChoiceRoutes(deps, { auth }))
		.get(
			'/portal',
			async ({ session, query }) =>
				homePage(deps, session, {
					workspaces: await switchableWorkspaces(deps, session),
					invitations: (await invitationsOpenTo(deps, session)).length,
					notice: query.done === 'switched' ? `You are now in ${session.actor.workspaceSlug}.` : undefined,
				}),
			{ session: 'signed-in', query: t.Object({ done: t.Optional(t.String()) }) },
		)
		.use(apiAccessRoutes(deps, auth))
		.use(peopleRoutes(deps, { auth }))
		.use(passwordRoutes(deps, { auth }))
		.use(securityRoutes(deps, { auth }))
		.use(profileRoutes(deps, { auth }))
}
