/** Security settings (`/settings/security`): where the person is signed in, with Sign out per session and everywhere else. */
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { html, portalPage } from '../../core/html.ts'
import { actionButton, dataTable, notice, tag, when } from '../../core/ui.ts'
import type { SessionView } from './session-list.ts'

export interface SecurityView {
	sessions: SessionView[]
	notice?: string
	error?: string
}

export function securityPage(deps: AppDeps, session: PageSession, view: SecurityView): Response {
	const others = view.sessions.filter((s) => !s.current).length
	const workspaces = new Set(view.sessions.map((s) => s.workspace))
	return portalPage(
		deps,
		session,
		{ title: 'Security', current: '/settings/security', status: view.error ? 404 : 200 },
		html`<section class="card"><h1>Security</h1>
${notice(view.notice)}
${view.error ? html`<p class="error" role="alert">${view.error}</p>` : ''}
<h2 id="sessions">Where you are signed in</h2>
<p>Every browser signed in to your account${workspaces.size > 1 ? ', in each of your workspaces' : ''}. Sign out any you do not recognise, then <a href="/settings/password">change your password</a>. Personal tokens and connected apps are on <a href="/settings/api">API access</a>.</p>
${dataTable<SessionView>({
	caption: 'Your signed-in sessions',
	hideCaption: true,
	rows: view.sessions,
	empty: 'No session.',
	columns: [
		{ label: 'Browser', cell: (s) => html`${s.browser ?? 'Unknown browser'}${s.current ? html` ${tag('This browser', 'info')}` : ''}` },
		{ label: 'Address', cell: (s) => s.address ?? '—' },
		{ label: 'Workspace', cell: (s) => s.workspace },
		{ label: 'Signed in', cell: (s) => when(s.signedInAt) },
		{ label: 'Last used', cell: (s) => (s.lastUsedAt ? when(s.lastUsedAt) : 'not yet') },
		{
			label: 'Actions',
			cell: (s) =>
				actionButton({
					session,
					action: `/settings/security/sessions/${s.ref}/sign-out`,
					label: 'Sign out',
					style: 'secondary',
					confirm: s.current ? 'Sign out of this browser?' : `Sign out ${s.browser ?? 'this session'}? It must sign in again.`,
				}),
		},
	],
})}
${
	others
		? html`<h2>Sign out everywhere else</h2>
<p>Ends ${others === 1 ? 'your other session' : `your ${others} other sessions`}, in every workspace. This browser stays signed in.</p>
${actionButton({ session, action: '/settings/security/sign-out-others', label: 'Sign out everywhere else', style: 'danger', confirm: 'Sign out every other browser?' })}`
		: ''
}
</section>`,
	)
}
