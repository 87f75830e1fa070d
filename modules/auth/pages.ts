/** Portal pages of the auth module: sign-in, home, API access settings (people: people-pages.ts). */
import { html, page, pageSections, portalPage, type SafeHtml } from '../../core/html.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { copyButton, dataTable, errorSummary, textField, when as at } from '../../core/ui.ts'
import { errorsOf, keptText } from '../../core/http/form.ts'
import type { RefusedForm } from '../../core/module.ts'
import { connectPanel } from './connect.ts'
import { forgotPasswordLink } from './password-pages.ts'
import { MAX_TOKEN_NAME, type TokenView } from './tokens.ts'
import type { Membership } from './sign-in-choice.ts'
import { invitationsBanner, switchForm } from './workspace-pages.ts'

const when = (d: Date | null) => (d ? at(d) : 'never')

export function signInPage(options: { csrf: string; next: string; email?: string; error?: string; notice?: string; status?: number }): Response {
	return page(
		{ title: 'Sign in', status: options.status },
		html`<section class="card"><h1>Sign in to Benchline</h1>
${options.notice ? html`<div class="notice" role="status"><p>${options.notice}</p></div>` : ''}
${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''}
<form method="post" action="/sign-in" class="stack">
<input type="hidden" name="csrf" value="${options.csrf}">
<input type="hidden" name="next" value="${options.next}">
<input type="hidden" name="timeZone" value="" data-browser-time-zone>
<label for="email">Email <input id="email" name="email" type="email" autocomplete="username" required value="${options.email ?? ''}"></label>
<label for="password">Password <input id="password" name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button>
</form>
${forgotPasswordLink}
<p><a href="/sign-in/sso?next=${encodeURIComponent(options.next)}">Sign in with SSO</a></p></section>`,
	)
}

/**
 * The portal home: what needs the person, today's calendar, their open jobs, unread messages and
 * overdue to-dos. Each part comes from the module that owns it (`pageSections` for `home`), so
 * a role sees only the parts its permissions reach. Invitations to other workspaces and the
 * workspace switch come first.
 */
export async function homePage(
	deps: AppDeps,
	session: PageSession,
	view: { workspaces: Membership[]; invitations: number; notice?: string },
): Promise<Response> {
	const sections = await pageSections(deps, 'home', session, '')
	return portalPage(
		deps,
		session,
		{ title: 'Home', current: '/portal' },
		html`${view.notice ? html`<div class="notice" role="status"><p>${view.notice}</p></div>` : ''}
${invitationsBanner(view.invitations)}
<div class="page-header"><h1>Welcome, ${session.actor.name}</h1>
<p class="meta">Signed in to <strong>${session.actor.workspaceSlug}</strong> as ${session.actor.role.replace('_', ' ')} · <a href="/careers/${session.actor.workspaceSlug}">Your careers site</a> · <a href="/settings/api">Connect an assistant app</a></p>
${switchForm(session, view.workspaces)}</div>
<div class="grid-2">${sections}</div>`,
	)
}

/** The form that creates a personal token, as `RefusedForm.form` names it. */
export const TOKEN_FORM = 'token'

export interface ApiAccessView {
	tokens: TokenView[]
	/** Extra sections contributed by other parts of the auth module (connected apps). */
	sections: SafeHtml[]
	newToken?: { name: string; token: string }
	/** A refused token (form `token`): the name typed, shown again, with its problem beside it. */
	refused?: RefusedForm
	notice?: string
}

export function apiAccessPage(deps: AppDeps, session: PageSession, view: ApiAccessView): Response {
	const everyone = session.actor.role === 'owner' || session.actor.role === 'admin'
	return portalPage(
		deps,
		session,
		{ title: 'API access', current: '/settings/api', hasErrors: Boolean(view.refused), status: view.refused ? 422 : 200 },
		html`${errorSummary(errorsOf(view.refused, TOKEN_FORM))}<section class="card"><h1>API access</h1>
<p>Assistant apps reach Benchline as you: with a personal token, or by signing in with OAuth (connected apps below).</p>
${view.notice ? html`<p class="notice" role="status">${view.notice}</p>` : ''}
${
	view.newToken
		? html`<div class="notice" role="status"><p><strong>Token “${view.newToken.name}” created.</strong> Copy it now: it is shown only once.</p>
<p class="secret"><code id="new-token">${view.newToken.token}</code> ${copyButton('new-token')}</p></div>`
		: ''
}
</section>
${connectPanel(deps.config.baseUrl, session.csrf)}
<section class="card"><h2 id="tokens">Create a personal token</h2>
<form method="post" action="/settings/api/tokens" class="stack" novalidate>
<input type="hidden" name="csrf" value="${session.csrf}">
${textField({ id: 'token-name', name: 'name', label: 'Token name', hint: 'e.g. Claude on my laptop', value: keptText(view.refused, TOKEN_FORM, 'name'), maxlength: MAX_TOKEN_NAME, errors: errorsOf(view.refused, TOKEN_FORM) })}
<button type="submit">Create token</button>
</form>
<h2>${everyone ? 'Personal tokens in this workspace' : 'Your personal tokens'}</h2>
${
	view.tokens.length === 0
		? html`<p>No personal tokens yet.</p>`
		: dataTable({
				caption: 'Personal tokens',
				hideCaption: true,
				rows: view.tokens,
				empty: '',
				columns: [
					{ label: 'Name', cell: (t) => html`${t.name} <span class="meta">…${t.lastFour}</span>` },
					{ label: 'Owner', cell: (t) => t.ownerName },
					{ label: 'Created', cell: (t) => when(t.createdAt) },
					{ label: 'Last used', cell: (t) => when(t.lastUsedAt) },
					{
						label: 'Actions',
						cell: (t) =>
							!t.mayRevoke
								? html`<span class="meta">Only an owner can revoke it</span>`
								: html`<form method="post" action="/settings/api/tokens/${t.id}/revoke" class="inline" data-confirm="Revoke the token “${t.name}”? Apps using it stop working at once."><input type="hidden" name="csrf" value="${session.csrf}"><button type="submit" class="danger" aria-label="Revoke ${t.name}">Revoke</button></form>`,
					},
				],
			})
}
</section>
${view.sections}`,
	)
}
