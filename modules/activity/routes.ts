/** The activity log page (owners and admins): who did what, through which door, as sentences. */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { html, portalPage } from '../../core/html.ts'
import type { HttpKit } from '../../core/module.ts'
import { dataTable, pageHeader, pager, when } from '../../core/ui.ts'
import { activitySentences, type ActivitySentence } from './sentences.ts'
import { listActivity } from './service.ts'

const PAGE = 50
const THROUGH: Record<string, string> = {
	session: 'in the portal',
	personal_token: 'with the personal token',
	oauth_app: 'with the app',
	vendor_key: 'with the vendor key',
	upload_link: 'through the upload link',
	careers_form: 'on the careers site',
}

const through = (s: ActivitySentence) => {
	const kind = s.row.credentialKind
	if (kind === 'session' || kind === 'careers_form' || kind === 'upload_link') return THROUGH[kind]
	if (kind === 'cli') return 'with the operator CLI'
	return `${THROUGH[kind] ?? 'with'} “${s.row.credentialName}”`
}

export function activityRoutes(deps: AppDeps, { auth }: HttpKit) {
	return new Elysia({ name: 'activity.routes' }).use(auth).get(
		'/activity',
		async ({ actor, session, query }) => {
			const { rows: shown, nextCursor } = await listActivity(deps, actor.workspaceId, { limit: PAGE, cursor: query.before })
			const sentences = await activitySentences(deps, actor.workspaceId, shown)
			return portalPage(
				deps,
				session,
				{ title: 'Activity', current: '/activity' },
				html`${pageHeader({ title: 'Activity', meta: 'Every change made through any door, newest first.' })}
<section class="card">${dataTable({
					caption: 'Activity, newest first',
					hideCaption: true,
					rows: sentences,
					empty: 'Nothing has happened yet.',
					columns: [
						{ label: 'When', cell: (s) => when(s.row.at) },
						{
							label: 'What happened',
							cell: (s) =>
								html`<strong>${s.row.actorName}</strong> ${s.did}${s.target ? html` ${s.target.href ? html`<a href="${s.target.href}">${s.target.name}</a>` : s.target.name}` : ''}`,
						},
						{ label: 'How', cell: (s) => html`<span class="meta">${through(s)}</span>` },
					],
				})}
${pager({ base: '/activity', next: nextCursor, param: 'before', first: !query.before })}</section>`,
			)
		},
		{ session: { permission: 'activity:read' }, query: t.Object({ before: t.Optional(t.String({ maxLength: 64 })) }) },
	)
}
