/**
 * The dashboards of `bench/scale.ts` (issue 13, "Speed": each page at p95 < 100 ms at the
 * 1,000,000-candidate scale): careers traffic at the scale, the dashboard pages as
 * scenarios, and a burst of careers page views (the write path the analytics counters are kept on).
 *
 * Careers traffic: CAREERS_EVENTS (1,720,000) events over the last 60 days (~860,000 in 30 days;
 * the summary compares with the 30 days before), spread evenly over the days, 3% of them
 * applications, from ten sources (LinkedIn and Indeed first). Each event is on an open job drawn
 * with a skew toward the newest (job g with probability ∝ g^-2/3: the newest 1% of jobs get about
 * a fifth of the traffic, and most of the 80,000 open jobs get a few views a month). One INSERT per
 * day with the triggers on, so the per-day counters are kept as the careers pages keep them.
 */
import type postgres from 'postgres'
import { ROLE_FAMILIES } from '../../modules/bench/family.ts'
import type { Scenario } from './scale-pages.ts'
import { signedInPortal } from './scale-pages.ts'
import type { ScaleSizes } from './scale-data.ts'

type Sql = ReturnType<typeof postgres>
type App = { handle(request: Request): Promise<Response> }

export const careersEventsOf = (env: Record<string, string | undefined>) => Number(env.CAREERS_EVENTS ?? 1_720_000)
const DAYS = 60
const SOURCES = ['linkedin', 'linkedin', 'linkedin', 'indeed', 'indeed', 'google', 'direct', 'careers_site', 'dice', 'glassdoor', 'newsletter', 'ziprecruiter']

export async function generateCareersEvents(pg: Sql, workspaceId: string, sizes: Pick<ScaleSizes, 'jobs'>, total: number): Promise<void> {
	const s = performance.now()
	const perDay = Math.round(total / DAYS)
	for (let day = 0; day < DAYS; day++)
		// Job g = ceil(jobs × r³); a Closed (g % 10 = 3) or Draft (7) job gives its views to the next one.
		await pg.unsafe(
			`insert into careers_events (id, workspace_id, job_id, kind, source, at)
			select 'cev_s' || $2::int || '_' || i, $1, 'job_s' || (g + case when g % 10 in (3, 7) then 1 else 0 end), case when random() < 0.03 then 'application' else 'view' end,
				($3::text[])[1 + floor(random() * cardinality($3::text[]))::int], now() - ($2::int * 86400 + random() * 86400) * interval '1 second'
			from (select i, greatest(1, least($5::int - 1, ceil($5::int * power(random(), 3))::int)) as g from generate_series(1, $4::int) i) x`,
			[workspaceId, day, SOURCES, perDay, sizes.jobs],
		)
	await pg.unsafe(`vacuum analyze careers_events, careers_daily_sources, careers_daily_jobs`)
	console.log(`  careers events: ${perDay * DAYS} over ${DAYS} days in ${((performance.now() - s) / 1000).toFixed(1)} s`)
}

/** The dashboard pages, owner and hiring manager, with records that vary call by call. */
export async function dashboardScenarios(app: App, pg: Sql, workspaceId: string, people: { ownerEmail: string; hmEmail: string }): Promise<Scenario[]> {
	const owner = await signedInPortal(app, people.ownerEmail)
	const hm = await signedInPortal(app, people.hmEmail)
	const ids = async (text: string) => (await pg.unsafe<{ id: string }[]>(text, [workspaceId])).map((r) => r.id)
	const [interviews, vendors] = await Promise.all([
		ids(`select id from interviews where workspace_id = $1 order by md5(id) limit 100`),
		ids(`select id from vendors where workspace_id = $1 order by id limit 20`),
	])
	if (!interviews.length || !vendors.length) throw new Error('the generated data has no interview or no vendor')
	const pick = <T>(list: readonly T[], i: number) => list[i % list.length]!
	const statuses = ['invited', 'started', 'completed', 'expired']
	return [
		['/analytics', 'last 30 days (owner)', () => owner.get('/analytics')],
		['/analytics', '?range=7 (owner)', () => owner.get('/analytics?range=7')],
		['/analytics', 'hiring manager (their 5 jobs)', () => hm.get('/analytics')],
		['/interviews', 'first page', () => owner.get('/interviews')],
		['/interviews', '?status= (varied)', (i) => owner.get(`/interviews?status=${pick(statuses, i)}`)],
		['/interviews/<id>', 'varied', (i) => owner.get(`/interviews/${pick(interviews, i)}`)],
		['/interviews', 'hiring manager', () => hm.get('/interviews')],
		['/vendors', 'first page', () => owner.get('/vendors')],
		['/vendors/<id>', `the vendor of the generated jobs (varied of ${vendors.length})`, (i) => owner.get(`/vendors/${pick(vendors, i)}`)],
		['/bench', 'first page', () => owner.get('/bench')],
		['/bench', '?family= (varied)', (i) => owner.get(`/bench?family=${pick(ROLE_FAMILIES, i)}`)],
	]
}

/**
 * `concurrency` careers page views at once of one job from one source (the rows every view
 * updates are the same), `rounds` times: the latency of each view and the views per second, then
 * the counters checked against the events (the burst must not lose a count).
 */
export async function careersBurst(app: App, pg: Sql, ws: { id: string; slug: string }, concurrency: number, rounds: number) {
	const [job] = await pg<{ slug: string; id: string }[]>`select slug, id from jobs where workspace_id = ${ws.id} and status = 'Open' order by id limit 1`
	const view = async () => {
		const s = performance.now()
		const res = await app.handle(
			new Request(`http://localhost/careers/${ws.slug}/jobs/${job!.slug}?utm_source=burst`, { headers: { 'user-agent': 'Mozilla/5.0 (bench)' } }),
		)
		await res.text()
		if (res.status !== 200) throw new Error(`careers page: ${res.status}`)
		return performance.now() - s
	}
	for (let i = 0; i < concurrency; i++) await view() // warm-up
	const times: number[] = []
	const s = performance.now()
	for (let r = 0; r < rounds; r++) times.push(...(await Promise.all(Array.from({ length: concurrency }, view))))
	const seconds = (performance.now() - s) / 1000
	times.sort((a, b) => a - b)
	const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!
	const [counted] = await pg<{ events: number; counters: number }[]>`select
		(select count(*)::int from careers_events where workspace_id = ${ws.id} and job_id = ${job!.id} and source = 'burst') as events,
		(select coalesce(sum(n), 0)::int from careers_daily_sources where workspace_id = ${ws.id} and source = 'burst') as counters`
	return { views: times.length, perSecond: times.length / seconds, p50: q(0.5), p95: q(0.95), p99: q(0.99), ...counted! }
}
