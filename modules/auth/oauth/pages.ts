/** The consent page, the authorization error page and the connected-apps section. */
import { html, page, type SafeHtml } from '../../../core/html.ts'
import type { PageSession } from '../../../core/http/auth.ts'
import type { AuthorizationRequest } from './authorize.ts'
import type { Connection } from './connections.ts'
import { dataTable, when as at } from '../../../core/ui.ts'
import type { Membership } from '../sign-in-choice.ts'
import { switchForm } from '../workspace-pages.ts'

const noStore = (res: Response) => {
	res.headers.set('Cache-Control', 'no-store')
	return res
}

export function authorizeErrorPage(message: string): Response {
	return noStore(
		page(
			{ title: 'Cannot connect this app', status: 400 },
			html`<section class="card"><h1>This app cannot be connected</h1><p class="error" role="alert">${message}</p><p>Nothing was shared. You can close this page and start again from the app.</p></section>`,
		),
	)
}

/**
 * `consentToken`: the one-time token of this page's form (consent.ts). The app is connected in the
 * session's workspace; a person in several can switch first (the switch replaces the session, so
 * this page's form stops working and the app's request opens a new one in the other workspace).
 */
export function consentPage(
	session: PageSession,
	request: AuthorizationRequest,
	query: string,
	consentToken: string,
	workspaces: Membership[],
	firstInWorkspace: boolean,
): Response {
	const to = new URL(request.redirectUri)
	const host = request.client.documentHost
	const named = host
		? html`<p class="meta">The app names itself in its client metadata document on <strong>${host}</strong>; Benchline has checked where the document lives, not who made the app.</p>`
		: html`<p class="meta">The app chose this name itself; Benchline has not verified it.</p>`
	const first = firstInWorkspace
		? html`<p class="notice" role="note">This is the first time this app${host ? html` (from <strong>${host}</strong>)` : ''} is connected in ${session.actor.workspaceSlug}.</p>`
		: ''
	return noStore(
		page(
			{ title: `Allow ${request.client.name}?`, user: { name: session.actor.name, csrf: session.csrf } },
			html`<section class="card"><h1>Allow “${request.client.name}” to use Benchline as you?</h1>
${named}
${first}
<p>The app will act as <strong>${session.actor.name}</strong> in <strong>${session.actor.workspaceSlug}</strong> with your role (${session.actor.role.replace('_', ' ')}): it can see what you can see${request.readOnlyRequested ? '' : ' and make changes you can make'}.</p>
<p>After you decide, you will be sent to <strong>${to.host}</strong> (<code>${request.redirectUri}</code>).</p>
<form method="post" action="/oauth/authorize" class="stack">
<input type="hidden" name="csrf" value="${session.csrf}">
<input type="hidden" name="request" value="${query}">
<input type="hidden" name="consent" value="${consentToken}">
<label class="check"><input type="checkbox" name="read_only" value="1"${request.readOnlyRequested ? ' checked' : ''}> Allow read-only access (the app cannot make changes)</label>
<p class="buttons"><button type="submit" name="decision" value="allow">Allow</button> <button type="submit" name="decision" value="cancel" class="secondary">Cancel</button></p>
</form>
${workspaces.length > 1 ? html`<p class="meta">To connect the app to another of your workspaces instead, switch first:</p>${switchForm(session, workspaces, `/oauth/authorize?${query}`)}` : ''}
<p class="meta">You can disconnect the app at any time in <a href="/settings/api">API access</a>.</p></section>`,
		),
	)
}

const when = (d: Date | null) => (d ? at(d) : 'never')

export function connectedAppsSection(session: PageSession, connections: Connection[]): SafeHtml {
	const everyone = session.actor.role === 'owner' || session.actor.role === 'admin'
	return html`<section class="card"><h2>${everyone ? 'Connected apps in this workspace' : 'Your connected apps'}</h2>
${
	connections.length === 0
		? html`<p>No app is connected. Apps that support MCP sign-in connect when you choose Allow.</p>`
		: dataTable({
				caption: 'Connected apps',
				hideCaption: true,
				rows: connections,
				empty: '',
				columns: [
					{ label: 'App', cell: (c) => html`${c.appName} <span class="meta">${c.redirectHosts.join(', ')}</span>` },
					{ label: 'Person', cell: (c) => c.personName },
					{ label: 'Access', cell: (c) => (c.readOnly ? 'read-only' : 'full') },
					{ label: 'Connected', cell: (c) => when(c.connectedAt) },
					{ label: 'Last used', cell: (c) => when(c.lastUsedAt) },
					{
						label: 'Actions',
						cell: (c) =>
							!c.mayDisconnect
								? html`<span class="meta">Only an owner can disconnect it</span>`
								: html`<form method="post" action="/settings/api/apps/${encodeURIComponent(c.clientId)}/${c.userId}/disconnect" class="inline" data-confirm="Disconnect ${c.appName}? Its tokens stop working at once."><input type="hidden" name="csrf" value="${session.csrf}"><button type="submit" class="danger" aria-label="Disconnect ${c.appName}">Disconnect</button></form>`,
					},
				],
			})
}
</section>`
}
