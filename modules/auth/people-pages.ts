/** The people page: members, invitations not yet answered, and the form that invites someone. */
import { breakable, html, portalPage, type SafeHtml } from '../../core/html.ts'
import { dataTable, when } from '../../core/ui.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { PERSON_ROLES } from '../../core/actor.ts'
import type { PendingInvitation } from './invitations.ts'
import type { PersonView } from './people.ts'

const roleName = (role: string) => role.replace('_', ' ')
const roleLabel = (role: string) => roleName(role).replace(/^./, (c) => c.toUpperCase())

/** A member or an open invitation, as a row of the people table. */
interface PeopleRow {
	name: string
	email: string
	grants: string[]
	role: SafeHtml | string
	action: SafeHtml | string
}

export interface PeopleView {
	people: PersonView[]
	invitations: PendingInvitation[]
	error?: string
	notice?: string
}

export function peoplePage(deps: AppDeps, session: PageSession, view: PeopleView): Response {
	const owner = session.actor.role === 'owner'
	// Admins cannot make owners, so they are not offered; owners' rows are an owner's to change.
	const roles = PERSON_ROLES.filter((r) => owner || r !== 'owner')
	const mayChange = (p: PersonView) => p.userId !== session.actor.userId && (owner || p.role !== 'owner')
	const csrf = html`<input type="hidden" name="csrf" value="${session.csrf}">`
	return portalPage(
		deps,
		session,
		{ title: 'People', status: view.error ? 422 : 200 },
		html`<section class="card"><h1>People</h1>
${view.notice ? html`<p class="notice" role="status">${view.notice}</p>` : ''}
${view.error ? html`<p class="error" role="alert">${view.error}</p>` : ''}
${dataTable<PeopleRow>({
	caption: 'People and open invitations',
	hideCaption: true,
	columns: [
		{ label: 'Name', cell: (r) => r.name },
		{ label: 'E-mail', cell: (r) => breakable(r.email) },
		{ label: 'Role', cell: (r) => r.role },
		{ label: 'Extra permissions', cell: (r) => r.grants.join(', ') || '—' },
		{ label: 'Actions', cell: (r) => r.action },
	],
	rows: [
		...view.people.map((p) => ({
			name: p.name,
			email: p.email,
			grants: p.grants,
			role: mayChange(p)
				? html`<form method="post" action="/people/${p.userId}/role" class="inline">${csrf}<select name="role" aria-label="Role of ${p.name}">${roles.map((r) => html`<option value="${r}"${r === p.role ? ' selected' : ''}>${roleLabel(r)}</option>`)}</select><button type="submit" class="secondary">Change role</button></form>`
				: roleName(p.role),
			action: mayChange(p)
				? html`<div class="actions"><form method="post" action="/people/${p.userId}/sign-out-everywhere" class="inline" data-confirm="Sign ${p.name} out everywhere? Their sessions, personal tokens and app connections in this workspace stop working at once.">${csrf}<button type="submit" class="secondary" aria-label="Sign out everywhere: ${p.name}">Sign out everywhere</button></form>
<form method="post" action="/people/${p.userId}/remove" class="inline" data-confirm="Remove ${p.name} from the workspace? Their sessions, tokens and app connections stop working at once.">${csrf}<button type="submit" class="danger">Remove</button></form></div>`
				: '',
		})),
		...view.invitations.map((i) => ({
			name: i.name,
			email: i.email,
			grants: i.grants,
			role: html`${roleName(i.role)} <span class="meta">(invited, open until ${when(i.expiresAt, { time: false })})</span>`,
			action:
				owner || i.role !== 'owner'
					? html`<form method="post" action="/people/invitations/${i.id}/cancel" class="inline">${csrf}<button type="submit" class="danger">Cancel invitation</button></form>`
					: '',
		})),
	],
	empty: 'Nobody yet.',
})}
<h2>Add a person</h2>
<p>They get an invitation, and join once they sign in and accept it. Someone new signs in with the temporary password you set here.</p>
<form method="post" action="/people" class="stack">
${csrf}
<label for="p-name">Name <input id="p-name" name="name" required maxlength="120"></label>
<label for="p-email">Email <input id="p-email" name="email" type="email" required></label>
<label for="p-role">Role <select id="p-role" name="role"><option value="recruiter">Recruiter</option><option value="hiring_manager">Hiring manager</option><option value="viewer">Viewer</option><option value="admin">Admin</option>${owner ? html`<option value="owner">Owner</option>` : ''}</select></label>
<label for="p-password">Temporary password <input id="p-password" name="password" type="password" required minlength="10" autocomplete="new-password"></label>
<button type="submit">Add person</button>
</form></section>`,
	)
}
