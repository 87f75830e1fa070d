/**
 * Password pages: Change password (also where a temporary password is replaced), Forgot password
 * and the page a reset link opens. The fields carry the `autocomplete` tokens password managers
 * look for (`username`, `current-password`, `new-password`); a password typed is never sent back
 * in a page, so after a refused post the password fields are empty (the e-mail address is kept).
 */
import { html, page, raw, type SafeHtml } from '../../core/html.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { portalPage } from '../../core/html.ts'
import { csrfField, errorSummary, notice, textField, type FieldError } from '../../core/ui.ts'
import { PASSWORD_MAX, PASSWORD_MIN } from './people.ts'
import { LINK_DEAD, RESET_LINK_MINUTES, resetLinkPath } from './password-reset.ts'

const NEW_PASSWORD_HINT = `${PASSWORD_MIN} to ${PASSWORD_MAX} characters. A phrase of a few words is easy to remember and hard to guess.`

/** Secrets pass through these pages: never kept by a browser cache or a proxy. */
function noStore(res: Response): Response {
	res.headers.set('Cache-Control', 'no-store')
	return res
}

/** The account the form is for, for password managers only (they save the new password under it). */
const usernameFor = (email: string) => html`<input type="email" name="username" autocomplete="username" value="${email}" hidden readonly>`

/** The two new-password fields. */
const newPasswordFields = (errors: readonly FieldError[]) =>
	html`${textField({ id: 'new-password', name: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', hint: NEW_PASSWORD_HINT, errors, maxlength: PASSWORD_MAX })}
${textField({ id: 'confirm-password', name: 'confirm', label: 'New password again', type: 'password', autocomplete: 'new-password', errors, maxlength: PASSWORD_MAX })}`

export interface ChangePasswordView {
	email: string
	/** The person signed in with a temporary password and must choose their own. */
	temporary: boolean
	next: string
	errors?: FieldError[]
	notice?: string
	status?: number
}

/** `/settings/password`: Change password, or (temporary password) Choose your password, with nothing else reachable. */
export function changePasswordPage(deps: AppDeps, session: PageSession, view: ChangePasswordView): Response {
	const errors = view.errors ?? []
	const title = view.temporary ? 'Choose your password' : 'Change password'
	const body = html`${errorSummary(errors)}
<section class="card"><h1>${title}</h1>
${notice(view.notice)}
${
	view.temporary
		? html`<p>You signed in with a temporary password that the person who added you chose. Choose your own to continue: the temporary one then stops working.</p>`
		: html`<p>Changing your password signs you out everywhere else (other browsers and devices, in every workspace); this browser stays signed in. Personal tokens and connected apps keep working (see <a href="/settings/api">API access</a>).</p>`
}
<form method="post" action="/settings/password" class="stack">
${csrfField(session)}<input type="hidden" name="next" value="${view.next}">
${usernameFor(view.email)}
${textField({ id: 'current-password', name: 'current', label: view.temporary ? 'Temporary password' : 'Current password', type: 'password', autocomplete: 'current-password', errors, maxlength: PASSWORD_MAX })}
${newPasswordFields(errors)}
<button type="submit">${view.temporary ? 'Save my password' : 'Change password'}</button>
</form></section>`
	const options = { title, hasErrors: errors.length > 0, status: view.status }
	// Until the temporary password is replaced, no other page opens: the navigation would only lead back here.
	if (view.temporary)
		return noStore(page({ ...options, user: { name: session.actor.name, csrf: session.csrf, workspace: session.actor.workspaceSlug }, nav: [] }, body))
	return noStore(portalPage(deps, session, { ...options, current: '/settings/password' }, body))
}

export interface ForgotPasswordView {
	csrf: string
	email?: string
	sent?: boolean
	errors?: FieldError[]
	/** A refusal not tied to a field (too many requests). */
	error?: string
	status?: number
}

/** `/sign-in/forgot-password`: the e-mail address to send a link to; the same answer for every address. */
export function forgotPasswordPage(view: ForgotPasswordView): Response {
	const errors = view.errors ?? []
	return noStore(
		page(
			{ title: 'Forgot password', hasErrors: errors.length > 0 || Boolean(view.error), status: view.status },
			html`${errorSummary(errors)}
<section class="card"><h1>Forgot your password?</h1>
${view.sent ? html`<div class="notice" role="status"><p><strong>Check your e-mail.</strong> If an account uses the address you entered, a link to choose a new password is on its way. It works for ${RESET_LINK_MINUTES} minutes, once.</p><p>Nothing after a few minutes? Look in your spam folder, check the address, or ask again.</p></div>` : ''}
${view.error ? html`<p class="error" role="alert">${view.error}</p>` : ''}
<p>Enter the e-mail address you sign in with. We will send it a link to choose a new password.</p>
<form method="post" action="/sign-in/forgot-password" class="stack">
<input type="hidden" name="csrf" value="${view.csrf}">
${textField({ id: 'email', name: 'email', label: 'Email', type: 'email', autocomplete: 'username', value: view.email ?? '', errors, maxlength: 254 })}
<button type="submit">Send link</button>
</form>
<p><a href="/sign-in">Back to sign in</a></p></section>`,
		),
	)
}

export interface ResetPasswordView {
	csrf: string
	token: string
	email: string
	/** "Also disconnect apps and personal tokens": ticked unless the person unticked it before a refused post. */
	disconnect?: boolean
	errors?: FieldError[]
	status?: number
}

/** What a working reset link opens: the new password, twice. */
export function resetPasswordPage(view: ResetPasswordView): Response {
	const errors = view.errors ?? []
	return noStore(
		page(
			{ title: 'Choose a new password', hasErrors: errors.length > 0, status: view.status },
			html`${errorSummary(errors)}
<section class="card"><h1>Choose a new password</h1>
<p>For <strong>${view.email}</strong>. Saving it signs you out everywhere; then sign in with the new password.</p>
<form method="post" action="${resetLinkPath(view.token)}" class="stack">
<input type="hidden" name="csrf" value="${view.csrf}">
${usernameFor(view.email)}
${newPasswordFields(errors)}
<div class="field"><label class="check" for="disconnect"><input type="checkbox" id="disconnect" name="disconnect" value="1" aria-describedby="disconnect-hint"${view.disconnect === false ? '' : raw(' checked')}> Also disconnect apps and personal tokens</label>
<span class="hint" id="disconnect-hint">In every workspace: assistant apps must connect again and personal tokens stop working. Leave it ticked if someone else may have used your account.</span></div>
<button type="submit">Save new password</button>
</form></section>`,
		),
	)
}

/** A reset link that is malformed, unknown, used or expired: one page for all. */
export function deadLinkPage(): Response {
	return noStore(
		page(
			{ title: 'Link expired', status: 404 },
			html`<section class="card"><h1>This link no longer works</h1>
<p>${LINK_DEAD}</p>
<p><a href="/sign-in/forgot-password">Ask for a new link</a> · <a href="/sign-in">Sign in</a></p></section>`,
		),
	)
}

/** The Forgot password link under the sign-in form. */
export const forgotPasswordLink: SafeHtml = html`<p><a href="/sign-in/forgot-password">Forgot password</a></p>`
