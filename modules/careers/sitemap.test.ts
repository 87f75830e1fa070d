/**
 * The sitemap at 120,000 open jobs: past the protocol's 50,000 URLs a file, `/sitemap.xml` is a
 * sitemap index whose files each hold at most 50,000 URLs, every open job once with its last change.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { XMLValidator } from 'fast-xml-parser'
import type { AppDeps } from '../../core/deps.ts'
import { createApp, createDeps } from '../../core/main.ts'
import type { Database } from '../../db/client.ts'
import { callOn, clock, newWorkspace, openScratchDatabase, testDeps, usingPostgres, type TestWorkspace } from '../../tests/helpers.ts'
import { countAllOpenJobs } from '../jobs/index.ts'

const JOBS = 120_000
const BASE = Date.parse('2025-01-01T00:00:00.000Z')
let ws: TestWorkspace
let deps: AppDeps
let app: ReturnType<typeof createApp>
/**
 * On the embedded database the jobs go to a copy of the run's database, closed afterwards: deleting
 * them again (each row checked against every table that refers to jobs) took longer than the insert
 * and the test together, more so late in a run. On PostgreSQL they are deleted from the shared one.
 */
let copy: Database | undefined

const call = (method: string, path: string) => callOn(app, method, path)

beforeAll(async () => {
	const shared = await testDeps()
	if (usingPostgres()) deps = shared
	else {
		copy = await openScratchDatabase()
		deps = await createDeps({ config: shared.config, log: shared.log, database: copy, now: clock.now })
	}
	app = createApp(deps)
	ws = await newWorkspace(deps)
	// Job i was last changed BASE + i seconds; one in a thousand is closed. In statements of 20,000
	// rows (each under the pool's statement timeout on a busy machine).
	for (let from = 0; from < JOBS; from += 20_000)
		await deps.database.rows(sql`insert into jobs (id, workspace_id, slug, title, status, published_at, updated_at, closed_at)
		select 'job_sm_' || lpad(i::text, 6, '0') || '_' || ${ws.id}, ${ws.id}, 'big-' || i, 'Big ' || i,
			case when i % 1000 = 7 then 'Closed' else 'Open' end,
			${new Date(BASE).toISOString()}::timestamptz, ${new Date(BASE).toISOString()}::timestamptz + make_interval(secs => i),
			case when i % 1000 = 7 then now() end
		from generate_series(${from}::int, ${from + 19_999}::int) i`)
}, 300_000)

afterAll(async () => {
	if (copy) return copy.close()
	// Other files' sitemap tests expect a single file again; deleted in parts, like the insert.
	for (let from = 0; from < JOBS; from += 20_000)
		await deps.database.rows(
			sql`delete from jobs where workspace_id = ${ws.id} and slug in (select 'big-' || i from generate_series(${from}::int, ${from + 19_999}::int) i)`,
		)
	// As long as the insert may take: on the embedded database on a busy machine, over a minute.
}, 300_000)

const pathOf = (url: string) => new URL(url).pathname
const locs = (text: string) => [...text.matchAll(/<url><loc>([^<]+)<\/loc><lastmod>([^<]+)<\/lastmod><\/url>/g)].map((m) => [m[1]!, m[2]!] as const)

describe('sitemap index', () => {
	test('at 120,000 jobs: an index of files of at most 50,000 URLs, every open job once with its lastmod', async () => {
		const total = await countAllOpenJobs(deps)
		expect(total).toBeGreaterThanOrEqual(JOBS - JOBS / 1000)
		const index = await call('GET', '/sitemap.xml')
		expect(index.status).toBe(200)
		expect(XMLValidator.validate(index.text)).toBe(true)
		expect(index.text).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
		const files = [...index.text.matchAll(/<sitemap><loc>([^<]+)<\/loc><lastmod>([^<]+)<\/lastmod><\/sitemap>/g)].map((m) => ({
			path: pathOf(m[1]!),
			lastmod: m[2]!,
		}))
		expect(files).toHaveLength(Math.ceil(total / 50_000))

		const mine = new Map<string, string>()
		let seen = 0
		for (const file of files) {
			const res = await call('GET', file.path)
			expect(res.status).toBe(200)
			expect(res.headers.get('content-type')).toContain('xml')
			expect(XMLValidator.validate(res.text)).toBe(true)
			const entries = locs(res.text)
			expect(entries.length).toBeLessThanOrEqual(50_000)
			expect(entries.length).toBeGreaterThan(0)
			seen += entries.length
			// The file's lastmod is at least the last change among its jobs (later when a job before
			// its last one left the list since: the file's jobs moved up a place).
			expect(
				file.lastmod >=
					entries
						.map(([, l]) => l)
						.sort()
						.at(-1)!,
			).toBe(true)
			for (const [loc, lastmod] of entries) if (loc.includes(`/careers/${ws.slug}/jobs/`)) mine.set(loc, lastmod)
		}
		expect(seen).toBe(total)
		expect(mine.size).toBe(JOBS - JOBS / 1000)
		const at = (i: number) => mine.get(`http://localhost:3000/careers/${ws.slug}/jobs/big-${i}`)
		expect(at(0)).toBe(new Date(BASE).toISOString())
		expect(at(86_401)).toBe(new Date(BASE + 86_401_000).toISOString())
		expect(at(JOBS - 1)).toBe(new Date(BASE + (JOBS - 1) * 1000).toISOString())
		expect(at(1007)).toBeUndefined()

		expect((await call('GET', `/sitemaps/jobs-${files.length + 1}.xml`)).status).toBe(404)
		expect((await call('GET', '/sitemaps/jobs-0.xml')).status).toBe(404)
		expect((await call('GET', '/sitemaps/other.xml')).status).toBe(404)
	}, 300_000)
})
