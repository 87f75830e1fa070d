/** `/search?q=`: the header search's results page, and its JSON for the dropdown (app.js). */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import type { HttpKit } from '../../core/module.ts'
import { recordSearch } from '../audit/index.ts'
import { searchAnswer, searchPage } from './pages.ts'
import { searchByType } from './service.ts'

/** The tool's own limit (`search`'s `q`). */
const MAX_QUERY = 120

export function searchRoutes(deps: AppDeps, { auth }: HttpKit) {
	return new Elysia({ name: 'search.pages' }).use(auth).get(
		'/search',
		async ({ session, query, request }) => {
			const q = (query.q ?? '').replace(/\s+/g, ' ').trim()
			const json = (request.headers.get('accept') ?? '').includes('application/json')
			const problem = !q
				? null
				: [...q].length < 2
					? 'Type at least 2 characters'
					: [...q].length > MAX_QUERY
						? `Search must be ${MAX_QUERY} characters or fewer`
						: null
			if (!q || problem) {
				if (json) return Response.json({ query: q, groups: [], error: problem })
				return searchPage(deps, session, { q, groups: null, errors: problem ? [{ field: 'q', message: problem }] : undefined })
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
