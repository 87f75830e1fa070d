/**
 * The public careers site: a published job is live at its `url`, with the facts candidates need
 * and schema.org JobPosting data; closed jobs leave the list and the sitemap and come back when
 * re-opened; drafts are never public.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { addressSince } from '../../core/http/address-since.ts'
import { call, callOn, clock, newVendor, newWorkspace, testApp, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { portalApp } from '../../tests/portal.ts'
import { jobs } from '../jobs/table.ts'

// Opening the shared test database can take seconds on a busy machine: do it before the first test. The
// portal is served at its address (BASE_URL) since before these tests: no Last-Modified is earlier (core/http/address-since.ts).
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
	const vendor = await newVendor(ws)
	return { ws, ...vendor, key: vendor.apiKey }
}

const publish = async (key: string, body: Record<string, unknown>) => {
	const res = await call('POST', '/api/v1/jobs', { key, body: { title: 'QA Engineer', ...body } })
	expect(res.status).toBeLessThan(300)
	return res.json.job as { url: string | null; publishedAt: string; updatedAt: string; vendorJobId: string }
}
const pathOf = (url: string) => new URL(url).pathname

/** The page's JSON-LD blocks, parsed. */
function jsonLd(html: string): any[] {
	return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!))
}

/** Every job URL the sitemap lists with its lastmod, following a sitemap index to its files. */
async function sitemapLocs(): Promise<Map<string, string>> {
	const res = await call('GET', '/sitemap.xml')
	expect(res.status).toBe(200)
	expect(res.headers.get('content-type')).toContain('xml')
	const files = [...res.text.matchAll(/<sitemap><loc>([^<]+)<\/loc>/g)].map((m) => pathOf(m[1]!))
	const texts = files.length ? await Promise.all(files.map(async (f) => (await call('GET', f)).text)) : [res.text]
	const entries = new Map<string, string>()
	for (const text of texts)
		for (const m of text.matchAll(/<url><loc>([^<]+)<\/loc><lastmod>([^<]+)<\/lastmod><\/url>/g)) entries.set(m[1]!.replace(/&amp;/g, '&'), m[2]!)
	return entries
}

const listPage = (ws: TestWorkspace) => call('GET', `/careers/${ws.slug}`)

describe('the job page', () => {
	test('shows title, location, schedule, contract type, visa, minimum years, summary, description, must-have and nice-to-have', async () => {
		const { key } = await setup()
		const job = await publish(key, {
			vendorJobId: 'J-1',
			title: 'Senior Java Developer',
			location: 'Austin, TX',
			schedule: 'Hybrid',
			contractType: 'W2 / C2C',
			visa: 'USC/GC',
			minYears: 7,
			summary: 'Build payment microservices for a bank.',
			description: '<h2>What you will do</h2><p>Design <strong>resilient</strong> services.</p><ul><li>Own releases</li></ul>',
			mustHave: ['Java 17', 'Spring Boot'],
			niceToHave: ['Kafka', 'AWS'],
			interview: 'Two video rounds',
		})
		const res = await call('GET', pathOf(job.url!))
		expect(res.status).toBe(200)
		expect(res.headers.get('content-type')).toContain('text/html')
		const html = res.text
		expect(html).toContain('<h1>Senior Java Developer</h1>')
		for (const text of [
			'Austin, TX',
			'Hybrid',
			'W2 / C2C',
			'US citizens and green-card holders',
			'7 years',
			'Build payment microservices for a bank.',
			'Java 17',
			'Spring Boot',
			'Kafka',
			'AWS',
		])
			expect(html).toContain(text)
		expect(html).toContain('<h2>What you will do</h2><p>Design <strong>resilient</strong> services.</p><ul><li>Own releases</li></ul>')
		expect(html).toMatch(/Must have[\s\S]*Java 17[\s\S]*Nice to have[\s\S]*Kafka/)
		expect(html).toContain(`<link rel="canonical" href="${job.url}">`)
	})

	test('employment is never shown, neither in the page nor in its data', async () => {
		const { key } = await setup()
		const job = await publish(key, { vendorJobId: 'J-1', employment: 'W2 via Zebracorn payroll', contractType: 'C2C' })
		const html = (await call('GET', pathOf(job.url!))).text
		expect(html).not.toContain('Zebracorn')
		expect(html).toContain('C2C')
		const noType = await publish(key, { vendorJobId: 'J-2', employment: 'Quokka terms, long-term' })
		expect((await call('GET', pathOf(noType.url!))).text).not.toContain('Quokka')
	})

	test('everything the vendor sent is escaped; only the sanitised description is markup', async () => {
		const { key } = await setup()
		const job = await publish(key, {
			vendorJobId: 'J-1',
			title: 'QA <img src=x onerror=alert(1)>',
			location: '<b>Austin</b>',
			mustHave: ['<script>alert(2)</script>'],
			description: '<p>ok</p><script>alert(3)</script>',
		})
		const html = (await call('GET', pathOf(job.url!))).text
		expect(html).toContain('QA &lt;img src=x onerror=alert(1)&gt;')
		expect(html).toContain('&lt;b&gt;Austin&lt;/b&gt;')
		expect(html).toContain('&lt;script&gt;alert(2)&lt;/script&gt;')
		expect(html).not.toContain('<img')
		expect(html).not.toContain('alert(3)')
	})
})

describe('an address typed in capitals', () => {
	test('leads to its own, lower-case address, one rule for the whole careers tree: site, job, feeds, privacy, alerts, sitemaps', async () => {
		const { ws, key } = await setup()
		const job = await publish(key, { vendorJobId: 'J-CAPS', title: 'Data Engineer' })
		const site = await call('GET', `/careers/${ws.slug.toUpperCase()}?q=data`)
		expect([site.status, site.headers.get('location')]).toEqual([301, `/careers/${ws.slug}?q=data`])
		// The redirect carries the site's security headers, as every answer does.
		expect(site.headers.get('x-content-type-options')).toBe('nosniff')
		const path = pathOf(job.url!)
		const upper = path.toUpperCase()
		for (const [asked, answer] of [
			[upper, path],
			[`/careers/${ws.slug.toUpperCase()}`, `/careers/${ws.slug}`],
			[`/careers/${ws.slug.toUpperCase()}/feeds/indeed.xml`, `/careers/${ws.slug}/feeds/indeed.xml`],
			[`/careers/${ws.slug.toUpperCase()}/feeds/jobs.rss`, `/careers/${ws.slug}/feeds/jobs.rss`],
			[`/careers/${ws.slug.toUpperCase()}/privacy`, `/careers/${ws.slug}/privacy`],
			// A link's token keeps its case: it is the credential.
			[`/careers/${ws.slug.toUpperCase()}/alerts/confirm/AbC_dEf`, `/careers/${ws.slug}/alerts/confirm/AbC_dEf`],
			[`/careers/${ws.slug.toUpperCase()}/privacy/download/AbC`, `/careers/${ws.slug}/privacy/download/AbC`],
			['/Sitemap.xml', '/sitemap.xml'],
			['/sitemaps/JOBS-1.xml', '/sitemaps/jobs-1.xml'],
			['/ROBOTS.TXT', '/robots.txt'],
			['/CAREERS', '/careers'],
			// Percent-escapes are not capitals of the address.
			[`/careers/${ws.slug.toUpperCase()}/jobs/a%2Fb`, `/careers/${ws.slug}/jobs/a%2Fb`],
		]) {
			const res = await call('GET', asked!)
			expect([asked, res.status, res.headers.get('location')]).toEqual([asked, 301, answer])
			expect((await call('HEAD', asked!)).status).toBe(301)
		}
		// A link whose path is its credential is redirected without being cached or indexed.
		const token = await call('GET', `/careers/${ws.slug.toUpperCase()}/alerts/confirm/AbC_dEf`)
		expect([token.headers.get('cache-control'), token.headers.get('x-robots-tag')]).toEqual(['no-store', 'noindex, nofollow'])
		expect(site.headers.get('x-robots-tag')).toBeNull()
		// The lower-case addresses answer; a form sent to an address in capitals is sent on with its method (308).
		for (const path of [pathOf(job.url!), `/careers/${ws.slug}/feeds/indeed.xml`, `/careers/${ws.slug}/feeds/jobs.rss`, `/careers/${ws.slug}/privacy`])
			expect([path, (await call('GET', path)).status]).toEqual([path, 200])
		const post = await call('POST', `/careers/${ws.slug.toUpperCase()}/alerts`, {
			raw: 'email=a%40example.com',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
		})
		expect([post.status, post.headers.get('location')]).toEqual([308, `/careers/${ws.slug}/alerts`])
		// One no site has is not found, once in lower case.
		expect((await call('GET', '/careers/NO-SUCH-FIRM-AT-ALL')).headers.get('location')).toBe('/careers/no-such-firm-at-all')
		expect((await call('GET', '/careers/no-such-firm-at-all')).status).toBe(404)
		// Other doors keep their own rules: an API path in capitals is not a careers address.
		expect((await call('GET', '/API/v1/jobs')).status).not.toBe(301)
	})
})

describe('JobPosting JSON-LD', () => {
	test('ISO datePosted, CONTRACTOR for W2 / C2C, TELECOMMUTE for Remote, no visa text in applicantLocationRequirements', async () => {
		const { ws, key } = await setup()
		const job = await publish(key, {
			vendorJobId: 'J-1',
			title: 'SRE',
			schedule: 'Remote',
			contractType: 'W2',
			visa: 'USC',
			location: 'Remote (US)',
			minYears: 5,
			mustHave: ['Kubernetes'],
		})
		const [data, ...more] = jsonLd((await call('GET', pathOf(job.url!))).text)
		expect(more).toHaveLength(0)
		expect(data['@context']).toContain('schema.org')
		expect(data['@type']).toBe('JobPosting')
		expect(data.title).toBe('SRE')
		expect(data.datePosted).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/)
		expect(data.datePosted).toBe(job.publishedAt)
		expect(data.employmentType).toBe('CONTRACTOR')
		expect(data.jobLocationType).toBe('TELECOMMUTE')
		expect(data.url).toBe(job.url)
		expect(data.hiringOrganization.name).toBe(ws.name)
		const requirements = JSON.stringify(data.applicantLocationRequirements ?? {})
		for (const visaText of ['USC', 'citizen', 'Citizen', 'visa', 'Visa', 'sponsor', 'Sponsor', 'green', 'GC']) expect(requirements).not.toContain(visaText)
		expect(JSON.stringify(data)).not.toContain('US citizens only')
	})

	test('employmentType is CONTRACTOR for W2, C2C and W2 / C2C (also when taken from employment); not TELECOMMUTE unless Remote', async () => {
		const { key } = await setup()
		for (const [i, body] of [{ contractType: 'W2' }, { contractType: 'C2C' }, { contractType: 'W2 / C2C' }, { employment: 'Contract C2C' }].entries()) {
			const job = await publish(key, { vendorJobId: `J-${i}`, location: 'Austin, TX', schedule: i % 2 ? 'Onsite' : 'Hybrid', ...body })
			const [data] = jsonLd((await call('GET', pathOf(job.url!))).text)
			expect(data.employmentType).toBe('CONTRACTOR')
			expect(data.jobLocationType).toBeUndefined()
		}
	})

	test('`<` is escaped so the data block cannot be closed early', async () => {
		const { key } = await setup()
		const title = '</script><script>alert(1)</script>'
		const job = await publish(key, { vendorJobId: 'J-1', title, summary: 'a < b <!-- c', location: 'Austin, TX' })
		const html = (await call('GET', pathOf(job.url!))).text
		const block = html.match(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/)![1]!
		expect(block).not.toContain('<')
		expect(block).toContain('\\u003c')
		expect(html).not.toContain('<script>alert(1)')
		expect(jsonLd(html)[0].title).toBe(title)
	})

	test('datePosted follows a re-open', async () => {
		const { key } = await setup()
		const first = await publish(key, { vendorJobId: 'J-1', location: 'Austin, TX' })
		await call('DELETE', '/api/v1/jobs/J-1', { key })
		await Bun.sleep(10)
		const again = (await call('PATCH', '/api/v1/jobs/J-1', { key, body: { status: 'open' } })).json.job
		expect(again.publishedAt > first.publishedAt).toBe(true)
		expect(jsonLd((await call('GET', pathOf(again.url))).text)[0].datePosted).toBe(again.publishedAt)
	})
})

describe('lists, closing and re-opening', () => {
	test('the workspace list shows open jobs with links to their pages', async () => {
		const { ws, key } = await setup()
		const a = await publish(key, { vendorJobId: 'J-1', title: 'Alpha Engineer', location: 'Dallas, TX' })
		const b = await publish(key, { vendorJobId: 'J-2', title: 'Beta Analyst' })
		const res = await listPage(ws)
		expect(res.status).toBe(200)
		expect(res.text).toContain(`href="${pathOf(a.url!)}"`)
		expect(res.text).toContain(`href="${pathOf(b.url!)}"`)
		expect(res.text).toContain('Alpha Engineer')
		expect(res.text).toContain('Dallas, TX')
		// Other workspaces' jobs are not listed.
		const other = await setup()
		await publish(other.key, { vendorJobId: 'J-1', title: 'Gamma Elsewhere' })
		expect((await listPage(ws)).text).not.toContain('Gamma Elsewhere')
	})

	test('a closed job answers 410 and leaves the list and the sitemap; re-opened, it is live again at the same address', async () => {
		const { ws, key } = await setup()
		const job = await publish(key, { vendorJobId: 'J-1', title: 'Closing Engineer' })
		const path = pathOf(job.url!)
		expect((await sitemapLocs()).has(job.url!)).toBe(true)

		await call('DELETE', '/api/v1/jobs/J-1', { key })
		const gone = await call('GET', path)
		expect(gone.status).toBe(410)
		expect(gone.text).not.toContain('application/ld+json')
		expect((await listPage(ws)).text).not.toContain(path)
		expect((await sitemapLocs()).has(job.url!)).toBe(false)

		const reopened = (await call('PATCH', '/api/v1/jobs/J-1', { key, body: { status: 'open' } })).json.job
		expect(reopened.url).toBe(job.url)
		expect((await call('GET', path)).status).toBe(200)
		expect((await listPage(ws)).text).toContain(path)
		expect((await sitemapLocs()).has(job.url!)).toBe(true)

		// Closed through PATCH and re-opened through publish: the same.
		await call('PATCH', '/api/v1/jobs/J-1', { key, body: { status: 'closed' } })
		expect((await call('GET', path)).status).toBe(410)
		expect((await publish(key, { vendorJobId: 'J-1', title: 'Closing Engineer' })).url).toBe(job.url)
		expect((await call('GET', path)).status).toBe(200)
	})

	test('the sitemap answers 304 to a crawler whose copy is current, and 200 again once an open job changes', async () => {
		const { key } = await setup()
		const job = await publish(key, { vendorJobId: 'S-1', title: 'Sitemap Engineer' })
		// Last-Modified is sent once the second of the last change is over.
		clock.advance(1000)
		const first = await call('GET', '/sitemap.xml')
		const etag = first.headers.get('etag')!
		expect(etag).toMatch(/^"[0-9a-f]{32}"$/)
		expect(first.headers.get('last-modified')).toBeTruthy()
		const same = await call('GET', '/sitemap.xml', { headers: { 'if-none-match': etag } })
		expect(same.status).toBe(304)
		expect(same.text).toBe('')
		await call('DELETE', '/api/v1/jobs/S-1', { key })
		const changed = await call('GET', '/sitemap.xml', { headers: { 'if-none-match': etag } })
		expect(changed.status).toBe(200)
		expect(changed.text).not.toContain(job.url!)
		expect(changed.headers.get('etag')).not.toBe(etag)
	})

	test('Last-Modified never goes back when a job leaves: a crawler asking with If-Modified-Since alone gets the sitemap without it', async () => {
		const { key } = await setup()
		const job = await publish(key, { vendorJobId: 'LM-1', title: 'Latest Engineer' })
		clock.advance(1000)
		const first = await call('GET', '/sitemap.xml')
		const lastModified = first.headers.get('last-modified')!
		expect(first.text).toContain(job.url!)
		// HTTP dates count whole seconds: the close comes in a later one.
		await Bun.sleep(1000 - (Date.now() % 1000) + 50)
		await call('DELETE', '/api/v1/jobs/LM-1', { key })
		clock.advance(1000)
		const after = await call('GET', '/sitemap.xml', { headers: { 'if-modified-since': lastModified } })
		expect(after.status).toBe(200)
		expect(after.text).not.toContain(job.url!)
		expect(Date.parse(after.headers.get('last-modified')!)).toBeGreaterThan(Date.parse(lastModified))
		expect((await call('GET', '/sitemap.xml', { headers: { 'if-modified-since': after.headers.get('last-modified')! } })).status).toBe(304)
		// Not an HTTP date, or one after the server's clock: ignored (RFC 9110 section 13.1.3), so the sitemap is sent.
		for (const since of ['3000', '12/31/2099', 'x 2099', 'Thu, 31 Dec 2099 23:59:59 GMT', `${after.headers.get('last-modified')}, ${lastModified}`])
			expect((await call('GET', '/sitemap.xml', { headers: { 'if-modified-since': since } })).status).toBe(200)
	})

	test('the sitemap served at another address (BASE_URL moved) is a new copy: 200 with the new addresses, not 304', async () => {
		const { key } = await setup()
		await publish(key, { vendorJobId: 'MOVE-1', title: 'Moving Engineer' })
		const first = await call('GET', '/sitemap.xml')
		const etag = first.headers.get('etag')!
		const moved = await portalApp({ BASE_URL: 'https://jobs.moved.example' })
		const again = await callOn(moved.app, 'GET', '/sitemap.xml', { headers: { 'if-none-match': etag } })
		expect(again.status).toBe(200)
		expect(again.text).toContain('https://jobs.moved.example/careers/')
		expect(again.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/)
		expect(again.headers.get('etag')).not.toBe(etag)
		expect((await callOn(moved.app, 'GET', '/sitemap.xml', { headers: { 'if-none-match': again.headers.get('etag')! } })).status).toBe(304)
	})

	test('after a move (BASE_URL), a crawler’s If-Modified-Since from before it gets the new addresses', async () => {
		const { key } = await setup()
		await publish(key, { vendorJobId: 'MOVE-2', title: 'Moved Engineer' })
		clock.advance(1000)
		const before = (await call('GET', '/sitemap.xml')).headers.get('last-modified')!
		expect((await call('GET', '/sitemap.xml', { headers: { 'if-modified-since': before } })).status).toBe(304)
		// The move comes in a later second (HTTP dates count whole seconds).
		await Bun.sleep(1000 - (Date.now() % 1000) + 50)
		const moved = await portalApp({ BASE_URL: 'https://jobs.elsewhere.example' })
		const again = await callOn(moved.app, 'GET', '/sitemap.xml', { headers: { 'if-modified-since': before } })
		expect(again.status).toBe(200)
		expect(again.text).toContain('https://jobs.elsewhere.example/careers/')
		clock.advance(1000)
		const since = (await callOn(moved.app, 'GET', '/sitemap.xml')).headers.get('last-modified')!
		expect(Date.parse(since)).toBeGreaterThan(Date.parse(before))
		expect((await callOn(moved.app, 'GET', '/sitemap.xml', { headers: { 'if-modified-since': since } })).status).toBe(304)
	})

	test('a Draft job is not public: 404, not listed, not in the sitemap', async () => {
		const { ws } = await setup()
		const deps = await testDeps()
		await deps.db.insert(jobs).values({ id: `job_draft_${ws.id.slice(-10)}`, workspaceId: ws.id, slug: 'draft-role-abc', title: 'Draft Role', status: 'Draft' })
		const res = await call('GET', `/careers/${ws.slug}/jobs/draft-role-abc`)
		expect(res.status).toBe(404)
		expect(res.text).not.toContain('Draft Role')
		expect((await listPage(ws)).text).not.toContain('Draft Role')
		expect((await sitemapLocs()).has(`http://localhost:3000/careers/${ws.slug}/jobs/draft-role-abc`)).toBe(false)
	})

	test('unknown workspaces and jobs are 404', async () => {
		const { ws, key } = await setup()
		const job = await publish(key, { vendorJobId: 'J-1' })
		const slug = pathOf(job.url!).split('/').pop()!
		expect((await call('GET', `/careers/${ws.slug}/jobs/${slug}x`)).status).toBe(404)
		expect((await call('GET', `/careers/no-such-${ws.slug}/jobs/${slug}`)).status).toBe(404)
		expect((await call('GET', `/careers/no-such-${ws.slug}`)).status).toBe(404)
		// A job is reached only under its own workspace.
		const other = await newWorkspace()
		expect((await call('GET', `/careers/${other.slug}/jobs/${slug}`)).status).toBe(404)
	})

	test('/careers lists the workspaces when there are several', async () => {
		const a = await newWorkspace()
		const b = await newWorkspace()
		const res = await call('GET', '/careers')
		expect(res.status).toBe(200)
		expect(res.text).toContain(`href="/careers/${a.slug}"`)
		expect(res.text).toContain(`href="/careers/${b.slug}"`)
	})
})

describe('sitemap.xml', () => {
	test('every open job with a true lastmod (its last change), no cap', async () => {
		const { ws, key, vendorId } = await setup()
		const deps = await testDeps()
		const base = Date.parse('2025-03-01T10:00:00.000Z')
		const rows = Array.from({ length: 501 }, (_, i) => ({
			id: `job_sm${i}_${ws.id.slice(-10)}`,
			workspaceId: ws.id,
			vendorId,
			vendorJobId: `S-${i}`,
			slug: `sitemap-${i}`,
			title: `Sitemap ${i}`,
			status: i === 0 ? 'Closed' : 'Open',
			createdAt: new Date(base + i * 60_000),
			updatedAt: new Date(base + i * 60_000 + 7_000),
			publishedAt: new Date(base + i * 60_000),
			closedAt: i === 0 ? new Date(base + 30_000) : null,
		}))
		await deps.db.insert(jobs).values(rows)
		let entries = await sitemapLocs()
		const mine = [...entries.keys()].filter((loc) => loc.includes(`/careers/${ws.slug}/jobs/`))
		expect(mine).toHaveLength(500)
		expect(entries.has(`http://localhost:3000/careers/${ws.slug}/jobs/sitemap-0`)).toBe(false)
		for (const i of [1, 250, 500])
			expect(entries.get(`http://localhost:3000/careers/${ws.slug}/jobs/sitemap-${i}`)).toBe(new Date(base + i * 60_000 + 7_000).toISOString())
		// The careers list pages through them all, 20 a page.
		const list = (await listPage(ws)).text
		expect(list.match(/<li><a href="\/careers\//g)).toHaveLength(20)
		expect(list).toContain('Page 1 of 25')

		// A change moves lastmod to the job's new updatedAt.
		const job = await publish(key, { vendorJobId: 'LIVE-1', title: 'Live Job' })
		expect((await sitemapLocs()).get(job.url!)).toBe(job.updatedAt)
		await Bun.sleep(10)
		const changed = (await call('PATCH', '/api/v1/jobs/LIVE-1', { key, body: { summary: 'Now with a summary' } })).json.job
		expect(changed.updatedAt > job.updatedAt).toBe(true)
		entries = await sitemapLocs()
		expect(entries.get(job.url!)).toBe(changed.updatedAt)
	})
})
