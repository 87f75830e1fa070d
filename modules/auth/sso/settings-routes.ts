/**
 * `/settings/sso` (owners): the provider is saved and its domains verified here
 * (domain-verification.ts); SCIM tokens are created and revoked here; a new token crosses the
 * redirect that follows its creation sealed, and is shown once (core/http/reveal-cookie.ts).
 */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../../core/deps.ts'
import type { PageSession } from '../../../core/http/auth.ts'
import { formBody, formText } from '../../../core/http/form.ts'
import { revealCookie } from '../../../core/http/reveal-cookie.ts'
import type { HttpKit } from '../../../core/module.ts'
import { AppError } from '../../../core/errors.ts'
import { createScimToken, listScimTokens, MANAGE_SSO, revokeScimToken, tokensRevokedWithCreator } from './scim-tokens.ts'
import { ssoSettingsPage, type SsoSettingsView } from './settings-page.ts'
import { ssoSection, type SsoFormView } from './settings-sso.ts'
import { saveSsoSettings, ssoSettings } from './sso-config.ts'
import { verifyDomain } from './domain-verification.ts'
import { forgetProviderAccount } from './sso-links.ts'

const manage = { permission: MANAGE_SSO } as const

const NOTICES: Record<string, string> = {
	'scim-token-revoked': 'The SCIM token was revoked: your identity provider can no longer use it.',
	saved: 'Single sign-on is saved: the identity provider’s discovery document was read and checked.',
	'domain-verified': 'The domain is verified: single sign-on and SCIM provisioning now apply to its addresses.',
	'provider-account-forgotten': 'Their provider account is forgotten: their next sign-in with SSO links the account it comes with.',
}

/** A refusal the owner can act on (shown on the page), as opposed to a failure of the server. */
const refusal = (error: unknown): error is AppError => error instanceof AppError && ['VALIDATION', 'CONFLICT', 'NOT_FOUND', 'UNAVAILABLE'].includes(error.code)

type NewToken = { name: string; token: string }
const newToken = revealCookie<NewToken>(
	'bl_new_scim_token',
	'/settings/sso',
	(v): v is NewToken => typeof (v as NewToken)?.name === 'string' && typeof (v as NewToken)?.token === 'string',
)

type PageExtra = Partial<SsoSettingsView> & { newToken?: NewToken; form?: Partial<SsoFormView> }

/** The whole page, with what a route adds (a notice, a new token, what was typed and its refusal). */
const showPage = async (deps: AppDeps, session: PageSession, extra: PageExtra = {}) =>
	ssoSettingsPage(deps, session, {
		...extra,
		signIn: ssoSection(session, { baseUrl: deps.config.baseUrl, saved: await ssoSettings(deps, session.actor), ...extra.form }),
		scim: {
			baseUrl: deps.config.baseUrl,
			tokens: await listScimTokens(deps, session.actor),
			revokedWithCreator: await tokensRevokedWithCreator(deps, session.actor),
			newToken: extra.newToken,
		},
	})

export function ssoSettingsRoutes(deps: AppDeps, kit: HttpKit) {
	const show = (session: PageSession, extra: PageExtra = {}) => showPage(deps, session, extra)
	return new Elysia({ name: 'sso.settings' })
		.use(kit.auth)
		.use(ssoAccountRoutes(deps, kit))
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

/** **Verify domain** and **Forget their provider account**: each refusal is shown on the page. */
function ssoAccountRoutes(deps: AppDeps, { auth }: HttpKit) {
	return new Elysia({ name: 'sso.settings.accounts' })
		.use(auth)
		.post(
			'/settings/sso/domains/verify',
			async ({ session, body, redirect }) => {
				const domain = formText(body, 'domain')
				try {
					await verifyDomain(deps, session.actor, { domain })
					return redirect('/settings/sso?done=domain-verified#domain-verification', 303)
				} catch (error) {
					if (!refusal(error)) throw error
					return showPage(deps, session, { status: 422, form: { verifyError: { domain, message: error.message } } })
				}
			},
			{ session: manage, body: formBody },
		)
		.post(
			'/settings/sso/provider-accounts/forget',
			async ({ session, body, redirect }) => {
				try {
					await forgetProviderAccount(deps, session.actor, { email: formText(body, 'email') })
					return redirect('/settings/sso?done=provider-account-forgotten#provider-accounts', 303)
				} catch (error) {
					if (!refusal(error)) throw error
					return showPage(deps, session, { status: 422, form: { forgetError: error.message } })
				}
			},
			{ session: manage, body: formBody },
		)
}
