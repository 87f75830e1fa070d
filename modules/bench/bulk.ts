/**
 * Add to bench from the candidates list (issue 31): the controls it contributes to the list's bulk
 * form (page section `candidates-list`) and the route they post to. Each ticked candidate goes
 * through `addToBench` (its rules, its activity line): one entry per record; one already on that
 * bench is reported unchanged, one out of reach (answered as absent) or refused by a rule is
 * reported refused (so is one that fails unexpectedly, logged), and the others go on; more than
 * `BULK_LIMIT` candidates adds none and says so. Then the shown-once report (core/bulk.ts).
 */
import { Elysia } from 'elysia'
import { bulkReportCookie, bulkReportPage, localBack, overBulkLimit, runBulk } from '../../core/bulk.ts'
import type { AppDeps } from '../../core/deps.ts'
import { html } from '../../core/html.ts'
import { textOf } from '../../core/untrusted.ts'
import { formBody, formList, formText, seeOther } from '../../core/http/form.ts'
import type { HttpKit, PageSection } from '../../core/module.ts'
import { FAMILY_LABELS, ROLE_FAMILIES, type RoleFamily } from './family.ts'
import { addToBench } from './service.ts'

const BULK_PATH = '/bench/bulk'
const report = bulkReportCookie('bl_bulk_bench', BULK_PATH)

export const bulkBenchSection: PageSection = {
	page: 'candidates-list',
	order: 10,
	permission: 'bench:write',
	render: async () =>
		html`<div class="bulk-row"><label for="bulk-family">Role family</label><select id="bulk-family" name="roleFamily" form="bulk-candidates">${ROLE_FAMILIES.map((f) => html`<option value="${f}">${FAMILY_LABELS[f]}</option>`)}</select><button type="submit" form="bulk-candidates" formaction="${BULK_PATH}">Add to bench</button></div>`,
}

export function bulkBenchRoutes(deps: AppDeps, { auth }: HttpKit) {
	return new Elysia({ name: 'bench.bulk' })
		.use(auth)
		.post(
			BULK_PATH,
			async ({ session, body, cookie }) => {
				const ids = [...new Set(formList(body, 'candidate'))]
				// More than the limit is refused as a whole (core/bulk.ts), never cut short.
				const tooMany = overBulkLimit(ids.length, 'candidates')
				const family = formText(body, 'roleFamily')
				const known = (ROLE_FAMILIES as readonly string[]).includes(family)
				const lines = await runBulk(deps, known && !tooMany ? ids : [], {
					action: 'bench.bulk-add',
					name: () => 'A candidate',
					step: async (id, record) => {
						const added = await addToBench(deps, session.actor, { candidateId: id, roleFamily: family as RoleFamily })
						record.name = textOf(added.entry.candidate.name).slice(0, 80) || record.name
						return added.created ? { result: 'done' } : { result: 'unchanged', note: 'Already on this bench.' }
					},
				})
				const action = tooMany
					? `Nothing done: ${tooMany}`
					: !known
						? 'Nothing done: choose a role family'
						: ids.length
							? `Add to the ${FAMILY_LABELS[family as RoleFamily]} bench`
							: 'Nothing done: tick at least one candidate'
				await report.seal(deps, cookie, session.sessionId, { action, back: localBack(formText(body, 'back'), '/candidates'), lines })
				return seeOther(BULK_PATH)
			},
			{ session: { permission: 'bench:write' }, body: formBody },
		)
		.get(
			BULK_PATH,
			async ({ session, cookie }) =>
				bulkReportPage(deps, session, await report.open(deps, cookie, session.sessionId), { href: '/candidates', text: 'Candidates' }),
			{
				session: { permission: 'bench:write' },
			},
		)
}
