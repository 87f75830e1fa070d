/** Pages for choosing a workspace: the sign-in choice, the invitations page and the switch control. */
import { html, page, portalPage, type SafeHtml } from '../../core/html.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import type { MyInvitation } from './invitations.ts'
import type { Membership } from './sign-in-choice.ts'
import { when } from '../../core/ui.ts'

const roleName = (role: string) => role.replace('_', ' ')
const day = (d: Date) => when(d, { time: false })
const message = (m: { error?: string; notice?: string }) =>
	html`${m.notice ? html`<p class="notice" role="status">${m.notice}</p>` : ''}${m.error ? html`<p class="error" role="alert">${m.error}</p>` : ''}`

const invitationText = (i: MyInvitation) =>
	html`<strong>${i.workspace.name}</strong> (${i.workspace.slug}) invites you as ${roleName(i.role)}${i.invitedBy ? html`, sent by ${i.invitedBy}` : ''}. <span class="meta">Open until ${day(i.expiresAt)}.</span>`

/** Accept / Decline forms for one invitation; `base` is where they post (…/accept, …/decline). */
const answerForms = (base: string, csrf: string, hidden: SafeHtml | string = '') =>
	html`<form method="post" action="${base}/accept" class="inline"><input type="hidden" name="csrf" value="${csrf}">${hidden}<button type="submit">Accept</button></form>
<form method="post" action="${base}/decline" class="inline"><input type="hidden" name="csrf" value="${csrf}">${hidden}<button type="submit" class="secondary">Decline</button></form>`

/** After the password: the person's workspaces, and the invitations waiting for them. */
export function choicePage(options: {
	csrf: string
	next: string
	workspaces: Membership[]
	invitations: MyInvitation[]
	error?: string
	notice?: string
	status?: number
}): Response {
	const next = html`<input type="hidden" name="next" value="${options.next}">`
	const nothing = !options.workspaces.length && !options.invitations.length
	return page(
		{ title: 'Choose a workspace', status: options.status },
		html`<section class="card"><h1>Choose a workspace</h1>
${message(options)}
${nothing ? html`<p>You are not in any workspace now. <a href="/sign-in">Back to sign-in</a></p>` : ''}
${
	options.workspaces.length
		? html`<p>You can switch later from the portal home.</p>
<ul class="links">${options.workspaces.map(
				(w) =>
					html`<li><form method="post" action="/sign-in/workspace" class="inline"><input type="hidden" name="csrf" value="${options.csrf}">${next}<input type="hidden" name="workspace" value="${w.slug}"><button type="submit">Open ${w.name}</button> <span class="meta">${w.slug}, as ${roleName(w.role)}</span></form></li>`,
			)}</ul>`
		: ''
}
${
	options.invitations.length
		? html`<h2>Invitations</h2>
<ul class="links">${options.invitations.map((i) => html`<li><p>${invitationText(i)}</p>${answerForms(`/sign-in/invitations/${i.id}`, options.csrf, next)}</li>`)}</ul>`
		: ''
}
</section>`,
	)
}

/** The Switch workspace control: for people in more than one workspace (nothing otherwise). */
export function switchForm(session: PageSession, workspaces: Membership[], next = '/portal'): SafeHtml | '' {
	const others = workspaces.filter((w) => w.workspaceId !== session.actor.workspaceId)
	if (!others.length) return ''
	return html`<form method="post" action="/portal/switch-workspace" class="inline">
<input type="hidden" name="csrf" value="${session.csrf}"><input type="hidden" name="next" value="${next}">
<label for="switch-workspace">Workspace <select id="switch-workspace" name="workspace">${others.map((w) => html`<option value="${w.slug}">${w.name} (${w.slug})</option>`)}</select></label>
<button type="submit" class="secondary">Switch workspace</button></form>`
}

/** A line on the portal home when invitations are waiting. */
export function invitationsBanner(count: number): SafeHtml | '' {
	if (!count) return ''
	return html`<p class="notice" role="status">${count === 1 ? 'An invitation to another workspace is waiting for you.' : `${count} invitations to other workspaces are waiting for you.`} <a href="/invitations">See invitations</a></p>`
}

export function invitationsPage(
	deps: AppDeps,
	session: PageSession,
	view: { invitations: MyInvitation[]; workspaces: Membership[]; error?: string; notice?: string },
): Response {
	return portalPage(
		deps,
		session,
		{ title: 'Invitations', status: view.error ? 422 : 200 },
		html`<section class="card"><h1>Invitations</h1>
${message(view)}
${
	view.invitations.length
		? html`<ul class="links">${view.invitations.map((i) => html`<li><p>${invitationText(i)}</p>${answerForms(`/invitations/${i.id}`, session.csrf)}</li>`)}</ul>`
		: html`<p>No invitation is waiting for you.</p>`
}
${switchForm(session, view.workspaces, '/portal')}
</section>`,
	)
}
