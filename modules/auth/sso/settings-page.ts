/** Single sign-on settings (`/settings/sso`, owners only): the OpenID Connect provider and SCIM provisioning. */
import type { AppDeps } from '../../../core/deps.ts'
import type { PageSession } from '../../../core/http/auth.ts'
import { html, portalPage, type SafeHtml } from '../../../core/html.ts'
import { notice } from '../../../core/ui.ts'
import { scimSection, type ScimSectionView } from './settings-scim.ts'

export interface SsoSettingsView {
	scim: ScimSectionView
	/** The sign-in part (settings-sso.ts), once drawn. */
	signIn?: SafeHtml
	notice?: string
	status?: number
}

export function ssoSettingsPage(deps: AppDeps, session: PageSession, view: SsoSettingsView): Response {
	return portalPage(
		deps,
		session,
		{ title: 'Single sign-on', current: '/settings/sso', status: view.status ?? 200 },
		html`<section class="card"><h1>Single sign-on</h1>
${notice(view.notice)}
<p>Connect your firm’s identity provider: people sign in with it, and it adds and removes them here. The README’s guide “Connecting Okta, Microsoft Entra ID and Google Workspace” says what to enter at each.</p></section>
${view.signIn ?? ''}
${scimSection(session, view.scim)}`,
	)
}
