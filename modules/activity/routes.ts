/** The activity log page (owners and admins). */
import { Elysia, t } from 'elysia'
import { decodePosition, encodePosition } from '../../core/cursor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { html, portalPage } from '../../core/html.ts'
import type { HttpKit } from '../../core/module.ts'
import { listActivity } from './service.ts'

const KIND_LABEL: Record<string, string> = { session: 'portal', personal_token: 'personal token', oauth_app: 'app', vendor_key: 'vendor key', upload_link: 'upload link', careers_form: 'careers site', cli: 'operator CLI' }

export function activityRoutes(deps: AppDeps, { auth }: HttpKit) {
	return new Elysia({ name: 'activity.routes' }).use(auth).get(
		'/activity',
		async ({ actor, session, query }) => {
			const scope = `activity:${actor!.workspaceId}`
			const before = query.before ? decodePosition(deps.secret, scope, query.before) : undefined
			const rows = await listActivity(deps.db, actor!.workspaceId, { limit: 51, before })
			const more = rows.length > 50
			const shown = rows.slice(0, 50)
			const last = shown[shown.length - 1]
			return portalPage(
				deps,
				session!,
				{ title: 'Activity' },
				html`<section class="card"><h1>Activity</h1>
<p>Every change made through any door, newest first.</p>
<div class="table-wrap"><table><thead><tr><th>When</th><th>Who</th><th>Through</th><th>What</th><th>Target</th></tr></thead><tbody>
${shown.map((r) => html`<tr><td><time datetime="${r.at.toISOString()}">${r.at.toISOString().replace('T', ' ').slice(0, 19)} UTC</time></td><td>${r.actorName}</td><td>${KIND_LABEL[r.credentialKind] ?? r.credentialKind}: ${r.credentialName}</td><td>${r.action}</td><td>${r.targetType} ${r.targetId}</td></tr>`)}
</tbody></table></div>
${shown.length === 0 ? html`<p>Nothing has happened yet.</p>` : ''}
${more && last ? html`<p><a href="/activity?before=${encodePosition(deps.secret, scope, last)}">Older</a></p>` : ''}
</section>`,
			)
		},
		{ auth: { permission: 'activity:read' }, query: t.Object({ before: t.Optional(t.String({ maxLength: 64 })) }) },
	)
}
