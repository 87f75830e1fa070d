/** The **Sign in with SSO** page: the person's work e-mail, then their workspace's identity provider. */
import { html, page } from '../../../core/html.ts'

export function ssoSignInPage(o: { csrf: string; next: string; email?: string; error?: string; status?: number }): Response {
	return page(
		{ title: 'Sign in with SSO', status: o.status },
		html`<section class="card"><h1>Sign in with SSO</h1>
<p>Enter your work e-mail address: you continue at your firm’s identity provider (Okta, Microsoft Entra ID, Google Workspace…) and come back signed in.</p>
${o.error ? html`<p class="error" role="alert">${o.error}</p>` : ''}
<form method="post" action="/sign-in/sso" class="stack">
<input type="hidden" name="csrf" value="${o.csrf}">
<input type="hidden" name="next" value="${o.next}">
<label for="sso-email">Work e-mail <input id="sso-email" name="email" type="email" autocomplete="username" required value="${o.email ?? ''}"></label>
<button type="submit">Continue</button>
</form>
<p><a href="/sign-in?next=${encodeURIComponent(o.next)}">Sign in with a password instead</a></p></section>`,
	)
}
