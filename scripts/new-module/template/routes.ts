/**
 * The sample module page. Every route declares who may call it: `session: { permission }` is a
 * signed-in person whose role holds the permission (the handler then gets their `session`); the
 * app refuses to start with a route that declares nothing.
 */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../../core/deps.ts'
import { html, portalPage } from '../../../core/html.ts'
import type { HttpKit } from '../../../core/module.ts'
import { dataTable, pageHeader, pager, when } from '../../../core/ui.ts'
import { listSampleModule, type SampleModuleEntry } from './service.ts'

export function sampleModuleRoutes(deps: AppDeps, kit: HttpKit) {
	return new Elysia({ name: 'sample-module.routes' }).use(kit.auth).get(
		'/sample-module',
		async ({ session, query }) => {
			const found = await listSampleModule(deps, session.actor, { limit: 50, cursor: query.cursor })
			// `html` escapes every value put into it: text people typed can never become markup.
			const body = html`<section class="card">${pageHeader({ title: 'Sample module' })}
${dataTable<SampleModuleEntry>({
	caption: 'Entries, newest first',
	hideCaption: true,
	columns: [
		{ label: 'Title', cell: (e) => e.title },
		{ label: 'Added', cell: (e) => when(e.createdAt) },
	],
	rows: found.entries,
	empty: 'Nothing here yet.',
})}
${pager({ base: '/sample-module', next: found.nextCursor, first: !query.cursor })}</section>`
			return portalPage(deps, session, { title: 'Sample module', current: '/sample-module' }, body)
		},
		{ session: { permission: 'sample-module:read' }, query: t.Object({ cursor: t.Optional(t.String({ maxLength: 64 })) }) },
	)
}
