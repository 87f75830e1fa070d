/** The sign-in part of `/settings/sso`: the identity provider's issuer, client, domains, new people's role, Require single sign-on. */
import type { FieldError } from '../../../core/errors.ts'
import type { PageSession } from '../../../core/http/auth.ts'
import { html, raw, type SafeHtml } from '../../../core/html.ts'
import { copyButton, csrfField, errorSummary, selectField, textArea, textField } from '../../../core/ui.ts'
import { GROUP_NAMES } from './scim-model.ts'
import { NEW_PERSON_ROLES, type SsoSettings } from './sso-config.ts'

export interface SsoFormView {
	baseUrl: string
	saved: SsoSettings | null
	/** What was typed, shown again after a refusal (the secret never is). */
	values?: Record<string, string>
	errors?: FieldError[]
}

export function ssoSection(session: PageSession, view: SsoFormView): SafeHtml {
	const saved = view.saved
	const v = view.values ?? {
		issuer: saved?.issuer ?? '',
		clientId: saved?.clientId ?? '',
		domains: saved?.domains.join(', ') ?? '',
		newPersonRole: saved?.newPersonRole ?? 'recruiter',
		requireSso: saved?.requireSso ? 'on' : '',
	}
	return html`<section class="card" id="oidc" aria-labelledby="oidc-h"><h2 id="oidc-h">Sign-in with your identity provider (OpenID Connect)</h2>
${errorSummary(view.errors)}
<p>Register Benchline as a web application at your provider, with this redirect URI and the scopes <code>openid email profile</code>:</p>
<p><code id="sso-redirect">${view.baseUrl}/sign-in/sso/callback</code> ${copyButton('sso-redirect', 'Copy the redirect URI')}</p>
<p>${saved ? html`Single sign-on is on for ${saved.domains.join(', ')}: people there choose <strong>Sign in with SSO</strong>.` : 'Single sign-on is not set up yet.'}</p>
<form method="post" action="/settings/sso" class="stack">
${csrfField(session)}
${textField({ id: 'issuer', label: 'Issuer URL', value: v.issuer, errors: view.errors, maxlength: 500, type: 'url', hint: 'e.g. https://yourfirm.okta.com, https://login.microsoftonline.com/<tenant id>/v2.0 or https://accounts.google.com' })}
${textField({ id: 'clientId', label: 'Client ID', value: v.clientId, errors: view.errors, maxlength: 255 })}
${textField({ id: 'clientSecret', label: 'Client secret', value: '', errors: view.errors, maxlength: 1000, type: 'password', autocomplete: 'off', hint: saved ? 'Saved, and never shown again: leave blank to keep it' : 'Stored encrypted, and never shown again' })}
${textArea({ id: 'domains', label: 'E-mail domains', value: v.domains, errors: view.errors, rows: 2, maxlength: 2000, hint: 'The domains of your people’s work addresses, separated by commas, e.g. yourfirm.com' })}
${selectField({ id: 'newPersonRole', label: 'Role for new people', value: v.newPersonRole, errors: view.errors, options: NEW_PERSON_ROLES.map((r) => [r, GROUP_NAMES[r]] as const), hint: 'The role of a person the first time they sign in with SSO, or are provisioned by SCIM' })}
<div class="field"><label class="check" for="requireSso"><input type="checkbox" id="requireSso" name="requireSso" value="on"${v.requireSso ? raw(' checked') : ''} aria-describedby="requireSso-hint"> Require single sign-on</label><span class="hint" id="requireSso-hint">Then only owners keep a password here, as a way back in if the provider fails</span></div>
<button type="submit">Save and check</button>
</form></section>`
}
