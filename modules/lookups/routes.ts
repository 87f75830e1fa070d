/** The staffing lookups page: owners and admins add and remove values. */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { html, portalPage } from '../../core/html.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { doneNotice, seeOther } from '../../core/http/form.ts'
import type { HttpKit } from '../../core/module.ts'
import { scrollingTable, when } from '../../core/ui.ts'
import { addLookup, allLookups, LOOKUP_KINDS, LOOKUP_LABELS, removeLookup } from './service.ts'

/** Confirmations after a form (Post/Redirect/Get), per list: `added-client`, `removed-vendor`… */
const DONE: Record<string, string> = Object.fromEntries(
	LOOKUP_KINDS.flatMap((k) => [
		[`added-${k}`, `The name was added to ${LOOKUP_LABELS[k].toLowerCase()}.`],
		[`removed-${k}`, `The name was removed from ${LOOKUP_LABELS[k].toLowerCase()}.`],
	]),
)
const form = t.Object({ csrf: t.Optional(t.String()) }, { additionalProperties: true })

async function lookupsPage(deps: AppDeps, session: PageSession, message: { error?: string; notice?: string } = {}, status = 200): Promise<Response> {
	const all = await allLookups(deps, session.actor.workspaceId)
	return portalPage(
		deps,
		session,
		{ title: 'Staffing lookups', status },
		html`<section class="card"><h1>Staffing lookups</h1>
<p>The names your team picks from: vendors, implementation partners and clients.</p>
${message.notice ? html`<p class="notice" role="status">${message.notice}</p>` : ''}
${message.error ? html`<p class="error" role="alert">${message.error}</p>` : ''}
<form method="post" action="/lookups" class="stack">
<input type="hidden" name="csrf" value="${session.csrf}">
<label for="lk-kind">List <select id="lk-kind" name="kind">${LOOKUP_KINDS.map((k) => html`<option value="${k}">${LOOKUP_LABELS[k]}</option>`)}</select></label>
<label for="lk-name">Name <input id="lk-name" name="name" required maxlength="120"></label>
<button type="submit">Add</button>
</form>
${LOOKUP_KINDS.map(
	(k) => html`<h2 id="list-${k}">${LOOKUP_LABELS[k]} <span class="meta">(${all[k].length})</span></h2>
${
	all[k].length === 0
		? html`<p>None yet.</p>`
		: scrollingTable(
				`list-${k}`,
				html`<table aria-labelledby="list-${k}"><thead><tr><th>Name</th><th>Added</th><th><span class="meta">Actions</span></th></tr></thead><tbody>${all[
					k
				].map(
					(v) =>
						html`<tr><td>${v.name}</td><td>${when(v.createdAt, { time: false })}</td><td><form method="post" action="/lookups/${v.id}/remove" class="inline" data-confirm="Remove “${v.name}” from ${LOOKUP_LABELS[k].toLowerCase()}?"><input type="hidden" name="csrf" value="${session.csrf}"><button type="submit" class="danger" aria-label="Remove ${v.name}">Remove</button></form></td></tr>`,
				)}</tbody></table>`,
			)
}`,
)}
</section>`,
	)
}

export function lookupRoutes(deps: AppDeps, { auth }: HttpKit) {
	return new Elysia({ name: 'lookups.routes' })
		.use(auth)
		.get('/lookups', ({ session, query }) => lookupsPage(deps, session, { notice: doneNotice(DONE, query.done) }), {
			session: { permission: 'lookups:manage' },
			query: t.Object({ done: t.Optional(t.String({ maxLength: 60 })) }),
		})
		.post(
			'/lookups',
			async ({ session, body }) => {
				const f = body as Record<string, unknown>
				try {
					const v = await addLookup(deps, session.actor, { kind: String(f.kind ?? ''), name: String(f.name ?? '') })
					return seeOther('/lookups', `added-${v.kind}`, `list-${v.kind}`)
				} catch (error) {
					if (!(error instanceof AppError) || error.status >= 500) throw error
					return lookupsPage(deps, session, { error: error.fields?.map((x) => `${x.field} ${x.message}`).join('; ') || error.message }, error.status)
				}
			},
			{ session: { permission: 'lookups:manage' }, body: form },
		)
		.post(
			'/lookups/:id/remove',
			async ({ session, params }) => {
				const v = await removeLookup(deps, session.actor, params.id)
				return seeOther('/lookups', `removed-${v.kind}`, `list-${v.kind}`)
			},
			{ session: { permission: 'lookups:manage' }, body: form },
		)
}
