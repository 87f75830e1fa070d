/** /eeo and /eeo/report.csv: the owners' aggregated report. */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import type { HttpKit } from '../../core/module.ts'
import { downloadDisposition } from '../../core/http/file-response.ts'
import { eeoPage } from './pages.ts'
import { eeoReport, eeoReportCsv } from './report.ts'

const query = t.Object({ question: t.Optional(t.String({ maxLength: 40 })) })

export function eeoRoutes(deps: AppDeps, { auth }: HttpKit) {
	return new Elysia({ name: 'eeo.routes' })
		.use(auth)
		.get('/eeo', async ({ session, query: q }) => eeoPage(deps, session, await eeoReport(deps, session.actor, q.question || 'sex')), {
			session: { permission: 'eeo:report' },
			query,
		})
		.get(
			'/eeo/report.csv',
			async ({ session, query: q }) => {
				const report = await eeoReport(deps, session.actor, q.question || 'sex')
				return new Response(eeoReportCsv(report), {
					headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': downloadDisposition(`eeo-${report.question.key}.csv`) },
				})
			},
			{ session: { permission: 'eeo:report' }, query },
		)
}
