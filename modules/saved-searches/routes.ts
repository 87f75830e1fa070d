/** Pages of the saved searches (signed-in people, their own searches only). */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import type { PageSession } from '../../core/http/auth.ts'
import type { HttpKit } from '../../core/module.ts'
import { savedSearchesPage, type SavedSearchesView } from './pages.ts'
import { allSavedSearches, deleteSearch, renameSearch, saveSearch } from './service.ts'

const form = t.Object({ csrf: t.Optional(t.String()) }, { additionalProperties: true })
const auth = { permission: 'saved-searches:use' } as const

export function savedSearchRoutes(deps: AppDeps, kit: HttpKit) {
	const show = async (session: PageSession, extra: Omit<SavedSearchesView, 'byList'> = {}) =>
		savedSearchesPage(deps, session, { byList: await allSavedSearches(deps, session.actor), ...extra })
	/** Runs a change; a problem the person can fix is shown on the page instead of an error page. */
	const attempt = async (session: PageSession, change: () => Promise<string>, form?: SavedSearchesView['form']) => {
		try {
			return show(session, { notice: await change() })
		} catch (error) {
			if (!(error instanceof AppError) || !['VALIDATION', 'CONFLICT'].includes(error.code)) throw error
			const detail =
				error.code === 'VALIDATION'
					? error.fields?.map((f) => `${f.field === 'name' ? 'Name' : f.field === 'query' ? 'Search text' : 'List'} ${f.message}`).join('; ')
					: error.message
			return show(session, { error: `${detail || error.message}.`, form })
		}
	}
	const field = (body: unknown, name: string) => String((body as Record<string, unknown>)[name] ?? '')
	return new Elysia({ name: 'saved-searches.routes' })
		.use(kit.auth)
		.get('/saved-searches', ({ session }) => show(session), { session: auth })
		.post(
			'/saved-searches',
			({ session, body }) => {
				const input = { list: field(body, 'list'), name: field(body, 'name'), query: field(body, 'query') }
				return attempt(session, async () => `Saved “${(await saveSearch(deps, session.actor, input)).name}”.`, input)
			},
			{ session: auth, body: form },
		)
		.post(
			'/saved-searches/:id/rename',
			({ session, body, params }) =>
				attempt(session, async () => `Renamed to “${(await renameSearch(deps, session.actor, params.id, field(body, 'name'))).name}”.`),
			{ session: auth, body: form },
		)
		.post(
			'/saved-searches/:id/delete',
			({ session, params }) =>
				attempt(session, async () => {
					await deleteSearch(deps, session.actor, params.id)
					return 'The saved search was deleted.'
				}),
			{ session: auth, body: form },
		)
}
