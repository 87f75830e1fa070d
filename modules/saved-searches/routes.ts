/** Pages of the saved searches (signed-in people, their own searches only). */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { doneNotice, formText, seeOther } from '../../core/http/form.ts'
import type { HttpKit } from '../../core/module.ts'
import { savedSearchesPage, type SavedSearchesView } from './pages.ts'
import { allSavedSearches, deleteSearch, readableLists, renameSearch, saveSearch } from './service.ts'

const form = t.Object({ csrf: t.Optional(t.String()) }, { additionalProperties: true })
const auth = { permission: 'saved-searches:use' } as const
/** Confirmations after a form (Post/Redirect/Get). */
const DONE: Record<string, string> = { saved: 'The search was saved.', renamed: 'The saved search was renamed.', deleted: 'The saved search was deleted.' }

export function savedSearchRoutes(deps: AppDeps, kit: HttpKit) {
	const show = async (session: PageSession, extra: Omit<SavedSearchesView, 'byList' | 'lists'> = {}) =>
		savedSearchesPage(deps, session, { byList: await allSavedSearches(deps, session.actor), lists: readableLists(deps, session.actor), ...extra })
	/**
	 * Runs a change and answers with a redirect (Post/Redirect/Get); a problem the person can fix is
	 * shown on the page (422) instead of an error page, and so is a list their role may not read (403).
	 */
	const attempt = async (session: PageSession, change: () => Promise<keyof typeof DONE>, form?: SavedSearchesView['form']) => {
		try {
			return seeOther('/saved-searches', await change())
		} catch (error) {
			if (!(error instanceof AppError) || !['VALIDATION', 'CONFLICT', 'FORBIDDEN'].includes(error.code)) throw error
			if (error.code === 'FORBIDDEN') return show(session, { error: `${error.message}.`, status: 403, form })
			const detail =
				error.code === 'VALIDATION'
					? error.fields?.map((f) => `${f.field === 'name' ? 'Name' : f.field === 'query' ? 'Search text' : 'List'} ${f.message}`).join('; ')
					: error.message
			return show(session, { error: `${detail || error.message}.`, form })
		}
	}
	const field = formText
	return new Elysia({ name: 'saved-searches.routes' })
		.use(kit.auth)
		.get('/saved-searches', ({ session, query }) => show(session, { notice: doneNotice(DONE, query.done) }), {
			session: auth,
			query: t.Object({ done: t.Optional(t.String({ maxLength: 20 })) }),
		})
		.post(
			'/saved-searches',
			({ session, body }) => {
				const input = { list: field(body, 'list'), name: field(body, 'name'), query: field(body, 'query') }
				return attempt(
					session,
					async () => {
						await saveSearch(deps, session.actor, input)
						return 'saved'
					},
					input,
				)
			},
			{ session: auth, body: form },
		)
		.post(
			'/saved-searches/:id/rename',
			({ session, body, params }) =>
				attempt(session, async () => {
					await renameSearch(deps, session.actor, params.id, field(body, 'name'))
					return 'renamed'
				}),
			{ session: auth, body: form },
		)
		.post(
			'/saved-searches/:id/delete',
			({ session, params }) =>
				attempt(session, async () => {
					await deleteSearch(deps, session.actor, params.id)
					return 'deleted'
				}),
			{ session: auth, body: form },
		)
}
