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

/** Only same-site relative paths may be a `next` target (no open redirect). */
export const safeNext = (next: unknown) => (typeof next === 'string' && /^\/(?![/\\])[^\s]*$/.test(next) ? next : '/portal')

function clientAddress(deps: AppDeps, request: Request, server: { requestIP(r: Request): { address: string } | null } | null): string {
	if (deps.config.trustProxy) {
		const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim()
		if (forwarded) return forwarded
	}
	return server?.requestIP(request)?.address ?? 'unknown'
}

const form = t.Object({ csrf: t.Optional(t.String()) }, { additionalProperties: true })

export function authRoutes(deps: AppDeps, { auth }: HttpKit) {
	const apiAccess = async (session: Parameters<typeof apiAccessPage>[1], extra: Partial<Parameters<typeof apiAccessPage>[2]> = {}) =>
		apiAccessPage(deps, session, { tokens: await listPersonalTokens(deps, session.actor), sections: [], ...extra })
	return new Elysia({ name: 'auth.routes' })
		.use(auth)
		.get('/sign-in', ({ cookie, query }) => signInPage({ csrf: anonymousCsrf(deps, cookie), next: safeNext(query.next) }), { auth: 'form', query: t.Object({ next: t.Optional(t.String({ maxLength: 2000 })) }) })
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
		.get('/settings/api', async ({ session }) => apiAccess(session!), { auth: 'signed-in' })
		.post(
			'/settings/api/tokens',
			async ({ session, body }) => {
				const name = String((body as Record<string, unknown>).name ?? '')
				try {
					const { token } = await createPersonalToken(deps, session!.actor, { name })
					return apiAccess(session!, { newToken: { name: name.trim(), token } })
				} catch (error) {
					if (error instanceof AppError && error.code === 'VALIDATION') return apiAccess(session!, { error: `Token name ${error.fields?.[0]?.message ?? 'is not valid'}.` })
					throw error
				}
			},
			{ auth: 'signed-in', body: form },
		)
		.post(
			'/settings/api/tokens/:id/revoke',
			async ({ session, params }) => {
				await revokePersonalToken(deps, session!.actor, params.id)
				return apiAccess(session!, { notice: 'The token was revoked; apps using it stop working at once.' })
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
