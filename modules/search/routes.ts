/** `/search?q=`: the header search's results page, and its JSON for the dropdown (app.js). */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import type { HttpKit } from '../../core/module.ts'
import { recordSearch } from '../audit/index.ts'
import { searchAnswer, searchPage } from './pages.ts'
import { readSearchQuery, searchByType } from './service.ts'

export function searchRoutes(deps: AppDeps, { auth }: HttpKit) {
	return new Elysia({ name: 'search.pages' }).use(auth).get(
		'/search',
		async ({ session, query, request }) => {
			// Read as the search reads it, first: a control character is a space, not a refusal in another shape.
			const { query: q, problem } = readSearchQuery(query.q ?? '')
			const json = (request.headers.get('accept') ?? '').includes('application/json')
			if (!q || problem) {
				const error = q && problem ? `Search ${problem}` : null
				if (json) return Response.json({ query: q, groups: [], error })
				return searchPage(deps, session, { q, groups: null, errors: error ? [{ field: 'q', message: error }] : undefined })
			}
			const found = await searchByType(deps, session.actor, q)
			// A search of the candidate database (41 CFR 60-1.12), recorded as the tool's is.
			const candidates = found.groups.find((g) => g.type === 'candidate')
			if (candidates) recordSearch(deps, request, session.actor, { criteria: { query: found.query } }, candidates.hits)
			if (json) return Response.json(searchAnswer(found.query, found.groups))
			return searchPage(deps, session, { q: found.query, groups: found.groups })
		},
		{ session: { permission: 'search:use' }, query: t.Object({ q: t.Optional(t.String({ maxLength: 2000 })) }) },
	)
}
