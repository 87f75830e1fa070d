/**
 * `/settings/sso` (owners): SCIM tokens are created and revoked here; a new token crosses the
 * redirect that follows its creation sealed, and is shown once (core/http/reveal-cookie.ts).
 */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../../core/deps.ts'
import type { PageSession } from '../../../core/http/auth.ts'
import { formBody, formText } from '../../../core/http/form.ts'
import { revealCookie } from '../../../core/http/reveal-cookie.ts'
import type { HttpKit } from '../../../core/module.ts'
import { AppError } from '../../../core/errors.ts'
import { createScimToken, listScimTokens, MANAGE_SSO, revokeScimToken } from './scim-tokens.ts'
import { ssoSettingsPage, type SsoSettingsView } from './settings-page.ts'
import { ssoSection, type SsoFormView } from './settings-sso.ts'
import { saveSsoSettings, ssoSettings } from './sso-config.ts'

const manage = { permission: MANAGE_SSO } as const

const NOTICES: Record<string, string> = {
	'scim-token-revoked': 'The SCIM token was revoked: your identity provider can no longer use it.',
	saved: 'Single sign-on is saved: the identity provider’s discovery document was read and checked.',
}

type NewToken = { name: string; token: string }
const newToken = revealCookie<NewToken>(
	'bl_new_scim_token',
	'/settings/sso',
	(v): v is NewToken => typeof (v as NewToken)?.name === 'string' && typeof (v as NewToken)?.token === 'string',
)

export function ssoSettingsRoutes(deps: AppDeps, { auth }: HttpKit) {
	const show = async (session: PageSession, extra: Partial<SsoSettingsView> & { newToken?: NewToken; form?: Partial<SsoFormView> } = {}) =>
		ssoSettingsPage(deps, session, {
			...extra,
			signIn: ssoSection(session, { baseUrl: deps.config.baseUrl, saved: await ssoSettings(deps, session.actor), ...extra.form }),
			scim: { baseUrl: deps.config.baseUrl, tokens: await listScimTokens(deps, session.actor), newToken: extra.newToken },
		})
	return new Elysia({ name: 'sso.settings' })
		.use(auth)
		.get(
			'/settings/sso',
			async ({ session, query, cookie }) =>
				show(session, { notice: NOTICES[query.done ?? ''], newToken: (await newToken.open(deps, cookie, session.sessionId)) ?? undefined }),
			{ session: manage, query: t.Object({ done: t.Optional(t.String({ maxLength: 40 })) }) },
		)
		.post(
			'/settings/sso',
			async ({ session, body, redirect }) => {
				const values = Object.fromEntries(['issuer', 'clientId', 'domains', 'newPersonRole', 'requireSso'].map((k) => [k, formText(body, k)]))
				try {
					await saveSsoSettings(deps, session.actor, {
						issuer: values.issuer!,
						clientId: values.clientId!,
						clientSecret: formText(body, 'clientSecret'),
						domains: values.domains!,
						newPersonRole: values.newPersonRole!,
						requireSso: values.requireSso === 'on',
					})
					return redirect('/settings/sso?done=saved', 303)
				} catch (error) {
					if (!(error instanceof AppError) || (error.code !== 'VALIDATION' && error.code !== 'CONFLICT')) throw error
					const errors = error.fields?.length ? error.fields : [{ field: 'domains', message: error.message }]
					return show(session, { status: 422, form: { values, errors } })
				}
			},
			{ session: manage, body: formBody },
		)
		.post(
			'/settings/sso/scim-tokens',
			async ({ session, body, cookie, redirect }) => {
				const name = formText(body, 'name')
				const { token } = await createScimToken(deps, session.actor, { name })
				await newToken.seal(deps, cookie, session.sessionId, { name: name.trim() || 'Identity provider', token })
				return redirect('/settings/sso#scim', 303)
			},
			{ session: manage, body: formBody },
		)
		.post(
			'/settings/sso/scim-tokens/:id/revoke',
			async ({ session, params, redirect }) => {
				await revokeScimToken(deps, session.actor, params.id)
				return redirect('/settings/sso?done=scim-token-revoked#scim', 303)
			},
			{ session: manage, body: formBody, params: t.Object({ id: t.String({ maxLength: 64 }) }) },
		)
}
