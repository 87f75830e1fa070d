/**
 * Demo careers traffic: sixty days of job page views for the open jobs, from realistic sources
 * (LinkedIn and Indeed lead, Indeed converts poorly), growing over time so the 30-day summary has a
 * trend to tell. Its applications are the demo's own: one event for each application that came in
 * through the careers site, at its time, so the careers figures and the pipeline's agree (as the apply
 * form makes them agree: it records both).
 */
import type { AppDeps } from '../../core/deps.ts'
import type { WorkspaceRef } from '../../core/module.ts'
import { seededId, seededRandom } from '../../core/seed-random.ts'
import { careersSiteApplications } from '../candidates/index.ts'
import { listOpenJobs, toDate } from '../jobs/index.ts'
import { careersEvents } from './table.ts'

/** Source, share of views, chance that a view becomes an application. */
const SOURCES: [string, number, number][] = [
	['linkedin', 0.3, 0.045],
	['indeed', 0.22, 0.012],
	['google', 0.17, 0.03],
	['direct', 0.13, 0.06],
	['careers_site', 0.07, 0.05],
	['dice', 0.05, 0.035],
	['glassdoor', 0.04, 0.02],
	['newsletter', 0.02, 0.08],
]

const DAY = 86_400_000

export async function seedCareersEvents(deps: AppDeps, ws: WorkspaceRef): Promise<void> {
	const now = Date.now()
	const rows: (typeof careersEvents.$inferInsert)[] = []
	for (const job of await listOpenJobs(deps, ws.id)) {
		const rnd = seededRandom(`careers-events:${ws.id}:${job.id}`)
		const popularity = 0.5 + rnd.next() * 2.5
		const published = toDate(job.publishedAt ?? job.createdAt).getTime()
		for (let day = 59; day >= 0; day--) {
			const dayStart = now - (day + 1) * DAY
			if (dayStart + DAY < published) continue
			// Traffic grows toward today; weekends are quieter.
			const weekend = new Date(dayStart).getUTCDay() % 6 === 0 ? 0.5 : 1
			const views = Math.round(popularity * weekend * (3 + (60 - day) / 40) * (0.6 + rnd.next() * 0.8))
			for (let i = 0; i < views; i++) {
				let pick = rnd.next()
				const [source] = SOURCES.find(([, share]) => (pick -= share) < 0) ?? SOURCES[0]!
				const at = new Date(Math.max(dayStart + rnd.int(0, DAY - 1), published))
				rows.push({ id: seededId('cev', ws.id, `${job.id}:${day}:${i}:v`), workspaceId: ws.id, jobId: job.id, kind: 'view', source, at })
			}
		}
	}
	// The source of each application in proportion to how many views a source brings and how well they convert.
	const weight = SOURCES.map(([, share, conversion]) => share * conversion)
	const total = weight.reduce((a, b) => a + b, 0)
	for (const application of await careersSiteApplications(deps, ws.id)) {
		if (now - application.createdAt.getTime() > 60 * DAY) continue
		const rnd = seededRandom(`careers-events:${application.id}`)
		let pick = rnd.next() * total
		const [source] = SOURCES[weight.findIndex((w) => (pick -= w) < 0)] ?? SOURCES[0]!
		rows.push({
			id: seededId('cev', ws.id, `${application.id}:a`),
			workspaceId: ws.id,
			jobId: application.jobId,
			kind: 'application',
			source,
			at: application.createdAt,
		})
	}
	for (let i = 0; i < rows.length; i += 1000)
		await deps.db
			.insert(careersEvents)
			.values(rows.slice(i, i + 1000))
			.onConflictDoNothing()
}
