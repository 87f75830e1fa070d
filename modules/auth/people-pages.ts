/** The people page: members, invitations not yet answered, and the form that invites someone. */
import { breakable, html, portalPage, type SafeHtml } from '../../core/html.ts'
import { dataTable, errorSummary, selectField, textField, when } from '../../core/ui.ts'
import { errorsOf, keptList, keptText } from '../../core/http/form.ts'
import type { RefusedForm } from '../../core/module.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { PERSON_ROLES } from '../../core/actor.ts'
import type { PendingInvitation } from './invitations.ts'
import { grantsOffered, rolesEndingGrant, type PersonView } from './people.ts'

const roleName = (role: string) => role.replace('_', ' ')
const roleLabel = (role: string) => roleName(role).replace(/^./, (c) => c.toUpperCase())
/** The roles offered to someone added, in the order the form lists them. */
const INVITED_ROLES = ['recruiter', 'hiring_manager', 'viewer', 'admin', 'owner'] as const

/** A member or an open invitation, as a row of the people table. */
interface PeopleRow {
	name: string
	email: string
	grants: string[]
	/** The grants with what a role change would do to them (members only). */
	grantsCell?: SafeHtml
	role: SafeHtml | string
	action: SafeHtml | string
}

export interface PeopleView {
	people: PersonView[]
	invitations: PendingInvitation[]
	error?: string
	/** A refused "Add a person" (form `person`): what was typed, shown again, each problem beside its field. */
	refused?: RefusedForm
	notice?: string
}

/** The form that adds a person, as `RefusedForm.form` names it. */
export const PERSON_FORM = 'person'

const orList = (words: string[]) => (words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : (words[0] ?? ''))

/** What a role change would do to each of the person's grants, in words. */
const grantFates = (deps: AppDeps, p: PersonView) =>
	p.grants
		.map((g) => ({ grant: g, endsIf: rolesEndingGrant(deps, p.role, g).map(roleName) }))
		.map(({ grant, endsIf }) => (endsIf.length ? `${grant} stays, and ends if the role becomes ${orList(endsIf)}, which includes it` : `${grant} stays`))

/**
 * Extra permissions as boxes, one per permission `offered`, ticked for those in `ticked`, posted as
 * `grant`: the one fieldset of the people page, in each member's Save extra permissions form and in
 * Add a person, both read by the same rule (people.ts `grantsBeyondRole`: one the role includes is
 * not kept). `id`, `hint` and `error`: as a field of a form (Add a person); a member's row has none.
 */
function grantsFieldset(o: {
	offered: readonly string[]
	ticked: readonly string[]
	legend: string
	hideLegend?: boolean
	id?: string
	hint?: string
	error?: string
}): SafeHtml {
	const described = [o.hint ? `${o.id}-hint` : '', o.error ? `${o.id}-error` : ''].filter(Boolean).join(' ')
	return html`<fieldset class="grants"${o.id ? html` id="${o.id}"` : ''}${described ? html` aria-describedby="${described}"` : ''}><legend${o.hideLegend ? html` class="visually-hidden"` : ''}>${o.legend}</legend>
${o.hint ? html`<span class="hint" id="${o.id}-hint">${o.hint}</span>` : ''}${o.error ? html`<span class="field-error" id="${o.id}-error">${o.error}</span>` : ''}
${o.offered.map((g) => html`<label class="check"><input type="checkbox" name="grant" value="${g}"${o.ticked.includes(g) ? ' checked' : ''}> ${g}</label>`)}</fieldset>`
}

/**
 * A member's extra permissions as a form: one box per permission they may be given or hold, ticked
 * for those they hold; saving sets exactly the ticked ones (`setGrants`), none ticked ends them all.
 * What a role change would do to each one they hold is said under it.
 */
function grantsForm(deps: AppDeps, p: PersonView, csrf: SafeHtml): SafeHtml | undefined {
	const offered = grantsOffered(deps, p.role, p.grants)
	if (!offered.length) return undefined
	return html`<form method="post" action="/people/${p.userId}/grants" class="grants">${csrf}${grantsFieldset({ offered, ticked: p.grants, legend: `Extra permissions of ${p.name}`, hideLegend: true })}
${p.grants.length ? html`<p class="meta">On a role change: ${grantFates(deps, p).join('; ')}.</p>` : ''}
<button type="submit" class="secondary" aria-label="Save extra permissions: ${p.name}">Save extra permissions</button></form>`
}

export function peoplePage(deps: AppDeps, session: PageSession, view: PeopleView): Response {
	const owner = session.actor.role === 'owner'
	// Admins cannot make owners, so they are not offered; owners' rows are an owner's to change.
	const roles = PERSON_ROLES.filter((r) => owner || r !== 'owner')
	const mayChange = (p: PersonView) => p.userId !== session.actor.userId && (owner || p.role !== 'owner')
	const csrf = html`<input type="hidden" name="csrf" value="${session.csrf}">`
	// The password is never shown again: it is typed again after a refusal.
	const kept = (name: string) => keptText(view.refused, PERSON_FORM, name)
	const errors = errorsOf(view.refused, PERSON_FORM)
	return portalPage(
		deps,
		session,
		{ title: 'People', hasErrors: Boolean(view.refused), status: view.error || view.refused ? 422 : 200 },
		html`${errorSummary(errorsOf(view.refused, PERSON_FORM))}<section class="card"><h1>People</h1>
${view.notice ? html`<p class="notice" role="status">${view.notice}</p>` : ''}
${view.error ? html`<p class="error" role="alert">${view.error}</p>` : ''}
${dataTable<PeopleRow>({
	caption: 'People and open invitations',
	hideCaption: true,
	columns: [
		{ label: 'Name', cell: (r) => r.name },
		{ label: 'E-mail', cell: (r) => breakable(r.email) },
		{ label: 'Role', cell: (r) => r.role },
		{ label: 'Extra permissions', cell: (r) => r.grantsCell ?? (r.grants.join(', ') || '—') },
		{ label: 'Actions', cell: (r) => r.action },
	],
	rows: [
		...view.people.map((p) => ({
			name: p.name,
			email: p.email,
			grants: p.grants,
			grantsCell: mayChange(p) ? grantsForm(deps, p, csrf) : undefined,
			role: mayChange(p)
				? html`<form method="post" action="/people/${p.userId}/role" class="inline"${p.grants.length ? html` data-confirm="Change the role of ${p.name}? Extra permissions: ${grantFates(deps, p).join('; ')}."` : ''}>${csrf}<select name="role" aria-label="Role of ${p.name}">${roles.map((r) => html`<option value="${r}"${r === p.role ? ' selected' : ''}>${roleLabel(r)}</option>`)}</select><button type="submit" class="secondary">Change role</button></form>`
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
<form method="post" action="/people" class="stack" novalidate>
${csrf}
${textField({ id: 'p-name', name: 'name', label: 'Name', value: kept('name'), maxlength: 120, errors })}
${textField({ id: 'p-email', name: 'email', label: 'Email', type: 'email', value: kept('email'), errors })}
${selectField({ id: 'p-role', name: 'role', label: 'Role', value: kept('role') ?? 'recruiter', options: INVITED_ROLES.filter((r) => owner || r !== 'owner').map((r) => [r, roleLabel(r)] as const), errors })}
${textField({ id: 'p-password', name: 'password', label: 'Temporary password', type: 'password', autocomplete: 'new-password', errors })}
${grantsFieldset({
	offered: grantsOffered(deps, null, []),
	ticked: keptList(view.refused, PERSON_FORM, 'grant') ?? [],
	legend: 'Extra permissions (optional)',
	id: 'p-grants',
	hint: 'Beyond what the role gives; one the role already includes is not kept.',
	error: errors.find((e) => e.field === 'p-grants')?.message,
})}
<button type="submit">Add person</button>
</form></section>`,
	)
}
