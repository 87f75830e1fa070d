/**
 * The sign-in part of `/settings/sso`: the identity provider's issuer, client, domains (with their
 * verification, settings-domains.ts), new people's role, Require single sign-on; and forgetting a
 * person's provider account (sso-links.ts).
 */
import type { FieldError } from '../../../core/errors.ts'
import type { PageSession } from '../../../core/http/auth.ts'
import { html, raw, type SafeHtml } from '../../../core/html.ts'
import { copyButton, csrfField, errorSummary, selectField, textArea, textField } from '../../../core/ui.ts'
import { GROUP_NAMES } from './scim-model.ts'
import { domainsPart, type DomainsView } from './settings-domains.ts'
import { NEW_PERSON_ROLES, type SsoSettings } from './sso-config.ts'
import { unicodeDomain } from '../../../core/email.ts'

export interface SsoFormView {
	baseUrl: string
	saved: SsoSettings | null
	/** What was typed, shown again after a refusal (the secret never is). */
	values?: Record<string, string>
	errors?: FieldError[]
	verifyError?: DomainsView['verifyError']
	/** The refusal of the last **Forget their provider account**. */
	forgetError?: string
}

export function ssoSection(session: PageSession, view: SsoFormView): SafeHtml {
	const saved = view.saved
	const v = view.values ?? {
		issuer: saved?.issuer ?? '',
		clientId: saved?.clientId ?? '',
		domains: saved?.domains.map(unicodeDomain).join(', ') ?? '',
		newPersonRole: saved?.newPersonRole ?? 'recruiter',
		requireSso: saved?.requireSso ? 'on' : '',
	}
	return html`<section class="card" id="oidc" aria-labelledby="oidc-h"><h2 id="oidc-h">Sign-in with your identity provider (OpenID Connect)</h2>
${errorSummary(view.errors)}
<p>Register Benchline as a web application at your provider, with this redirect URI and the scopes <code>openid email profile</code>:</p>
<p><code id="sso-redirect">${view.baseUrl}/sign-in/sso/callback</code> ${copyButton('sso-redirect', 'Copy the redirect URI')}</p>
<p>${statusLine(saved)}</p>
${saved ? domainsPart(session, { claims: saved.claims, requireSso: saved.requireSso, verifyError: view.verifyError }) : ''}
<h3 id="provider-settings">Provider and domains</h3>
<form method="post" action="/settings/sso" class="stack">
${csrfField(session)}
${textField({ id: 'issuer', label: 'Issuer URL', value: v.issuer, errors: view.errors, maxlength: 500, type: 'url', hint: 'e.g. https://yourfirm.okta.com, https://login.microsoftonline.com/<tenant id>/v2.0 or https://accounts.google.com' })}
${textField({ id: 'clientId', label: 'Client ID', value: v.clientId, errors: view.errors, maxlength: 255 })}
${textField({ id: 'clientSecret', label: 'Client secret', value: '', errors: view.errors, maxlength: 1000, type: 'password', autocomplete: 'off', hint: saved ? 'Saved, and never shown again: leave blank to keep it (type it again when you change the issuer or client ID)' : 'Stored encrypted, and never shown again' })}
${textArea({ id: 'domains', label: 'E-mail domains', value: v.domains, errors: view.errors, rows: 2, maxlength: 2000, hint: 'The domains of your people’s work addresses, separated by commas, e.g. yourfirm.com. Each new one is verified by a DNS record before it covers anyone' })}
${selectField({ id: 'newPersonRole', label: 'Role for new people', value: v.newPersonRole, errors: view.errors, options: NEW_PERSON_ROLES.map((r) => [r, GROUP_NAMES[r]] as const), hint: 'The role of a person the first time they sign in with SSO, or are provisioned by SCIM' })}
<div class="field"><label class="check" for="requireSso"><input type="checkbox" id="requireSso" name="requireSso" value="on"${v.requireSso ? raw(' checked') : ''} aria-describedby="requireSso-hint"> Require single sign-on</label><span class="hint" id="requireSso-hint">Then only owners keep a password here, as a way back in if the provider fails</span></div>
<button type="submit">Save and check</button>
</form>
${saved ? forgetPart(session, view.forgetError) : ''}</section>`
}

function statusLine(saved: SsoSettings | null): SafeHtml | string {
	if (!saved) return 'Single sign-on is not set up yet.'
	const on = saved.claims.filter((c) => c.status === 'verified').map((c) => c.domain)
	return on.length
		? html`Single sign-on is on for ${on.join(', ')}: people there choose <strong>Sign in with SSO</strong>.`
		: 'Single sign-on is saved, but covers no one until one of its domains is verified (below).'
}

function forgetPart(session: PageSession, error: string | undefined): SafeHtml {
	return html`<h3 id="provider-accounts">A person’s provider account</h3>
<p>Benchline keeps which account at your identity provider each person first signed in with, and refuses another account with the same address (an address given to someone new). If your provider re-created a person’s account on purpose, forget the old one: their next sign-in links the new one.</p>
<form method="post" action="/settings/sso/provider-accounts/forget" class="stack">
${csrfField(session)}
${textField({ id: 'forget-email', name: 'email', label: 'Their e-mail address', type: 'email', maxlength: 254, autocomplete: 'off', errors: error ? [{ field: 'forget-email', message: error }] : undefined })}
<button type="submit" class="secondary">Forget their provider account</button>
</form>`
}
