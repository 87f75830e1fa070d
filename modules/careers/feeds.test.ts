/**
 * The careers feeds (Indeed XML, RSS 2.0): valid XML listing exactly a workspace's open jobs, every
 * value escaped, conditional requests, and a close or re-open seen at once.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { addressSince } from '../../core/http/address-since.ts'
import { sql } from 'drizzle-orm'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { call, callOn, clock, newVendor, newWorkspace, testApp, testDeps } from '../../tests/helpers.ts'
import { portalApp } from '../../tests/portal.ts'
import { jobs } from '../jobs/table.ts'

// Served at its address (BASE_URL) since before these tests: Last-Modified is never earlier (core/http/address-since.ts).
beforeAll(async () => addressSince((await testApp()).deps), 60_000)
// Tests here move the clock forward (Last-Modified is sent once its second is over): it is put back after each.
let offset = 0
beforeEach(() => {
	offset = clock.offsetMs
})
afterEach(() => {
	clock.offsetMs = offset
})

async function setup() {
	const ws = await newWorkspace()
	const { apiKey: key } = await newVendor(ws)
	return { ws, key }
}
const publish = async (key: string, body: Record<string, unknown>) => {
	const res = await call('POST', '/api/v1/jobs', { key, body: { title: 'QA Engineer', ...body } })
	expect(res.status).toBeLessThan(300)
	return res.json.job as { url: string; vendorJobId: string; publishedAt: string }
}
const parser = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'job' || name === 'item' })

function parsed(text: string) {
	expect(XMLValidator.validate(text)).toBe(true)
	// Characters XML 1.0 forbids never reach the document.
	expect(text).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/)
	return parser.parse(text)
}

const indeed = async (slug: string) => {
	const res = await call('GET', `/careers/${slug}/feeds/indeed.xml`)
	expect(res.status).toBe(200)
	expect(res.headers.get('content-type')).toContain('xml')
	return { res, doc: parsed(res.text) }
}
const rss = async (slug: string) => {
	const res = await call('GET', `/careers/${slug}/feeds/jobs.rss`)
	expect(res.status).toBe(200)
	expect(res.headers.get('content-type')).toContain('application/rss+xml')
	return { res, doc: parsed(res.text) }
}

describe('the Indeed feed', () => {
	test('lists each open job with its facts, escaped; the description survives a CDATA terminator and control characters', async () => {
		const { ws, key } = await setup()
		const a = await publish(key, {
			vendorJobId: 'A',
			title: 'R&D <Lead> "Java" engineer',
			location: 'Charlotte, NC 28202',
			schedule: 'Hybrid',
			contractType: 'W2',
			minYears: 5,
			department: 'Data & AI',
			description: '<p>Build a parser for the ]]> token and x < y.</p>',
		})
		await publish(key, { vendorJobId: 'B', title: 'Remote SRE', location: 'Remote', schedule: 'Remote' })
		await publish(key, { vendorJobId: 'C', title: 'Closed role', location: 'Austin, TX' })
		await call('DELETE', '/api/v1/jobs/C', { key })
		// Jobs written by other doors (or stored before the API's checks) may hold control characters.
		const deps = await testDeps()
		await deps.db.update(jobs).set({ summary: 'bell \u0007 here \u009b31m', employment: 'x\u0001\u0085' }).where(eqVendorJob(ws.id, 'B'))
		await deps.db.update(jobs).set({ description: 'Plain \u0001text\u009b ]]> and more' }).where(eqVendorJob(ws.id, 'B'))
		// Last-Modified is sent once its second is over.
		clock.advance(1000)
		const { doc, res } = await indeed(ws.slug)
		expect(doc.source.publisher).toBe(ws.name)
		expect(doc.source.publisherurl).toBe(`http://localhost:3000/careers/${ws.slug}`)
		expect(new Date(doc.source.lastBuildDate).getTime()).toBe(new Date(res.headers.get('last-modified')!).getTime())
		const list = doc.source.job as any[]
		expect(list.map((j) => j.title).sort()).toEqual(['R&D <Lead> "Java" engineer', 'Remote SRE'])
		const first = list.find((j) => j.title.startsWith('R&D'))
		expect(first.url).toBe(a.url)
		expect(first.company).toBe(ws.name)
		expect([first.city, first.state, first.country, String(first.postalcode)]).toEqual(['Charlotte', 'NC', 'US', '28202'])
		expect(first.description).toBe('<p>Build a parser for the ]]&gt; token and x &lt; y.</p>')
		expect(first.jobtype).toBe('contract')
		expect(first.category).toBe('Data & AI')
		expect(first.experience).toBe('5+ years')
		expect(first.remotetype).toBe('Hybrid remote')
		expect(first.referencenumber).toMatch(/^job_/)
		expect(new Date(first.date).getTime()).toBeGreaterThan(0)
		const remote = list.find((j) => j.title === 'Remote SRE')
		expect(remote.remotetype).toBe('Fully remote')
		expect(remote.city).toBeUndefined()
		expect(remote.description).toBe('<p>Plain text ]]> and more</p>')
		expect(res.text).toContain('<description><![CDATA[<p>Plain text ]]]]><![CDATA[> and more</p>]]></description>')
		// The reference number stays with the job across changes.
		await call('PATCH', '/api/v1/jobs/A', { key, body: { summary: 'changed' } })
		const again = ((await indeed(ws.slug)).doc.source.job as any[]).find((j) => j.title.startsWith('R&D'))
		expect(again.referencenumber).toBe(first.referencenumber)
	})

	test('another workspace’s jobs and drafts are not in it; an unknown workspace is 404', async () => {
		const { ws } = await setup()
		const other = await setup()
		await publish(other.key, { vendorJobId: 'X', title: 'Elsewhere' })
		const { doc } = await indeed(ws.slug)
		expect(doc.source.job).toBeUndefined()
		expect((await call('GET', '/careers/no-such-place/feeds/indeed.xml')).status).toBe(404)
	})
})

describe('the RSS feed', () => {
	test('RSS 2.0, newest first, guid and link the job page, RFC 822 dates, the description as escaped HTML', async () => {
		const { ws, key } = await setup()
		const deps = await testDeps()
		const old = await publish(key, { vendorJobId: 'OLD', title: 'Older', description: '<p>Hello <strong>there</strong></p>' })
		const recent = await publish(key, { vendorJobId: 'NEW', title: 'Newer' })
		await deps.db
			.update(jobs)
			.set({ publishedAt: new Date('2025-01-01T00:00:00Z') })
			.where(eqVendorJob(ws.id, 'OLD'))
		const { doc, res } = await rss(ws.slug)
		expect(res.text).toContain('<rss version="2.0"')
		expect(doc.rss.channel.link).toBe(`http://localhost:3000/careers/${ws.slug}`)
		const items = doc.rss.channel.item as any[]
		expect(items.map((i) => i.title)).toEqual(['Newer', 'Older'])
		expect(items[0].link).toBe(recent.url)
		expect(items[0].guid['#text']).toBe(recent.url)
		expect(items[1].pubDate).toBe('Wed, 01 Jan 2025 00:00:00 GMT')
		expect(res.text).toContain('<description>&lt;p&gt;Hello &lt;strong&gt;there&lt;/strong&gt;&lt;/p&gt;</description>')
		expect(items[1].link).toBe(old.url)
	})
})

describe('caching', () => {
	test('ETag and Last-Modified answer 304 until a job changes; a close leaves both feeds at once and a re-open brings it back', async () => {
		const { ws, key } = await setup()
		const job = await publish(key, { vendorJobId: 'K', title: 'Kept' })
		await publish(key, { vendorJobId: 'G', title: 'Goes' })
		clock.advance(1000)
		for (const path of [`/careers/${ws.slug}/feeds/indeed.xml`, `/careers/${ws.slug}/feeds/jobs.rss`]) {
			const first = await call('GET', path)
			const etag = first.headers.get('etag')!
			const lastModified = first.headers.get('last-modified')!
			expect(etag).toMatch(/^"[^"]+"$/)
			expect(first.headers.get('cache-control')).toBe('no-cache')
			const same = await call('GET', path, { headers: { 'if-none-match': etag } })
			expect(same.status).toBe(304)
			expect(same.text).toBe('')
			expect(same.headers.get('etag')).toBe(etag)
			expect((await call('GET', path, { headers: { 'if-modified-since': lastModified } })).status).toBe(304)
			expect((await call('GET', path, { headers: { 'if-modified-since': 'Thu, 01 Jan 2015 00:00:00 GMT' } })).status).toBe(200)
			expect((await call('GET', path, { headers: { 'if-none-match': '"other"' } })).status).toBe(200)
		}
		const titles = async () => ({
			indeed: ((await indeed(ws.slug)).doc.source.job ?? []).map((j: any) => j.title).sort(),
			rss: ((await rss(ws.slug)).doc.rss.channel.item ?? []).map((i: any) => i.title).sort(),
		})
		const before = (await call('GET', `/careers/${ws.slug}/feeds/jobs.rss`)).headers.get('etag')!
		await call('DELETE', '/api/v1/jobs/G', { key })
		const closed = await call('GET', `/careers/${ws.slug}/feeds/jobs.rss`, { headers: { 'if-none-match': before } })
		expect(closed.status).toBe(200)
		expect(await titles()).toEqual({ indeed: ['Kept'], rss: ['Kept'] })
		const afterClose = closed.headers.get('etag')!
		await call('PATCH', '/api/v1/jobs/G', { key, body: { status: 'open' } })
		expect((await call('GET', `/careers/${ws.slug}/feeds/jobs.rss`, { headers: { 'if-none-match': afterClose } })).status).toBe(200)
		expect(await titles()).toEqual({ indeed: ['Goes', 'Kept'], rss: ['Goes', 'Kept'] })
		expect(job.url).toContain(ws.slug)
	})
})

describe('caching, every change', () => {
	test('a change later in the second of the copy a client holds: that copy had no Last-Modified, and the second’s date gets the new feed until the second is over', async () => {
		const { ws, key } = await setup()
		await publish(key, { vendorJobId: 'S', title: 'Same Second' })
		const deps = await testDeps()
		// A second after every earlier change: the job changes at .100 and .700 of it, a reader's copy is from .300.
		const s = Math.ceil((clock.now().getTime() + 5000) / 1000) * 1000
		const setClock = (at: number) => clock.advance(at - clock.now().getTime())
		try {
			await deps.db
				.update(jobs)
				.set({ updatedAt: new Date(s + 100) })
				.where(eqVendorJob(ws.id, 'S'))
			setClock(s + 300)
			for (const path of [`/careers/${ws.slug}/feeds/indeed.xml`, `/careers/${ws.slug}/feeds/jobs.rss`])
				expect((await call('GET', path)).headers.get('last-modified')).toBeNull()
			await deps.db
				.update(jobs)
				.set({ title: 'Same Second, changed', updatedAt: new Date(s + 700) })
				.where(eqVendorJob(ws.id, 'S'))
			const sameSecond = { 'if-modified-since': new Date(s).toUTCString() }
			for (const path of [`/careers/${ws.slug}/feeds/indeed.xml`, `/careers/${ws.slug}/feeds/jobs.rss`]) {
				const during = await call('GET', path, { headers: sameSecond })
				expect([during.status, during.text.includes('Same Second, changed')]).toEqual([200, true])
			}
			// Once the second is over, its date is a strong validator: given out, and current.
			setClock(s + 1300)
			for (const path of [`/careers/${ws.slug}/feeds/indeed.xml`, `/careers/${ws.slug}/feeds/jobs.rss`]) {
				expect((await call('GET', path)).headers.get('last-modified')).toBe(new Date(s).toUTCString())
				expect((await call('GET', path, { headers: sameSecond })).status).toBe(304)
			}
		} finally {
			// Not left in the future for other files' sitemaps.
			await deps.db.update(jobs).set({ updatedAt: new Date() }).where(eqVendorJob(ws.id, 'S'))
		}
	})

	test('the portal moved to another address (BASE_URL): a reader’s If-Modified-Since from before the move gets the feed at the new address', async () => {
		const { ws, key } = await setup()
		await publish(key, { vendorJobId: 'M', title: 'Moving' })
		clock.advance(1000)
		const path = `/careers/${ws.slug}/feeds/jobs.rss`
		const before = (await call('GET', path)).headers.get('last-modified')!
		expect((await call('GET', path, { headers: { 'if-modified-since': before } })).status).toBe(304)
		// The move comes in a later second (HTTP dates count whole seconds).
		await Bun.sleep(1000 - (Date.now() % 1000) + 50)
		const moved = await portalApp({ BASE_URL: 'https://feeds.moved.example' })
		const again = await callOn(moved.app, 'GET', path, { headers: { 'if-modified-since': before } })
		expect(again.status).toBe(200)
		expect(again.text).toContain('https://feeds.moved.example/careers/')
		clock.advance(1000)
		const since = (await callOn(moved.app, 'GET', path)).headers.get('last-modified')!
		expect(Date.parse(since)).toBeGreaterThan(Date.parse(before))
		expect((await callOn(moved.app, 'GET', path, { headers: { 'if-modified-since': since } })).status).toBe(304)
	})

	test('a change whose last-change time is not the newest (a write that began earlier and committed later) still changes the ETag', async () => {
		const { ws, key } = await setup()
		await publish(key, { vendorJobId: 'OLD', title: 'Changed Late' })
		await publish(key, { vendorJobId: 'NEW', title: 'Newest' })
		const deps = await testDeps()
		const path = `/careers/${ws.slug}/feeds/jobs.rss`
		const etag = (await call('GET', path)).headers.get('etag')!
		// The older job changes with a time below the workspace's latest change: the latest change is the same.
		await deps.database.rows(
			sql`update ${jobs} set title = 'Changed Late, now Lead', updated_at = updated_at + interval '1 microsecond' where workspace_id = ${ws.id} and title = 'Changed Late'`,
		)
		const [times] = await deps.database.rows<{ late: string; newest: string }>(
			sql`select max(updated_at) filter (where title like 'Changed%')::text as late, max(updated_at) filter (where title = 'Newest')::text as newest from ${jobs} where workspace_id = ${ws.id}`,
		)
		expect(times!.late < times!.newest).toBe(true)
		const again = await call('GET', path, { headers: { 'if-none-match': etag } })
		expect(again.status).toBe(200)
		expect(again.text).toContain('Changed Late, now Lead')
		expect(again.headers.get('etag')).not.toBe(etag)
	})
})

describe('paging', () => {
	test('more jobs than one page (500) are all listed once, newest first, in both feeds', async () => {
		const { ws } = await setup()
		const deps = await testDeps()
		const base = Date.parse('2025-06-01T00:00:00Z')
		// Pairs share a publish time: the keyset must order and page them by id without losing one.
		const rows = Array.from({ length: 1203 }, (_, i) => ({
			id: `job_pg${String(i).padStart(5, '0')}_${ws.id.slice(-8)}`,
			workspaceId: ws.id,
			slug: `paged-${i}`,
			title: `Paged ${i}`,
			status: 'Open',
			publishedAt: new Date(base + Math.floor(i / 2) * 1000 + 0.5),
		}))
		await deps.db.insert(jobs).values(rows)
		const items = (await rss(ws.slug)).doc.rss.channel.item as any[]
		expect(items).toHaveLength(1203)
		expect(new Set(items.map((i) => i.link)).size).toBe(1203)
		expect(items[0].title).toBe('Paged 1202')
		expect(items[1202].title).toBe('Paged 0')
		expect(((await indeed(ws.slug)).doc.source.job as any[]).length).toBe(1203)
	})
})

describe('the careers list page', () => {
	test('links both feeds as alternates', async () => {
		const { ws } = await setup()
		const res = await call('GET', `/careers/${ws.slug}`)
		expect(res.text).toContain(`<link rel="alternate" type="application/rss+xml" title="Jobs at ${ws.name} (RSS)" href="/careers/${ws.slug}/feeds/jobs.rss">`)
		expect(res.text).toContain(`href="/careers/${ws.slug}/feeds/indeed.xml"`)
	})
})

import { and, eq } from 'drizzle-orm'
function eqVendorJob(workspaceId: string, vendorJobId: string) {
	return and(eq(jobs.workspaceId, workspaceId), eq(jobs.vendorJobId, vendorJobId))
}
