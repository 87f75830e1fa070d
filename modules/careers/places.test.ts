/**
 * One reading of the place a location names (modules/careers/places.ts): vendors' real location strings,
 * read as the job page's JobPosting data, the Indeed feed and the careers search all read them.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { call, newWorkspace, testApp, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { newPublicJob as addJob } from '../../tests/staffing-fixtures.ts'
import { jobPlace } from './job-facts.ts'
import { PLACE_RULE } from './places.ts'

beforeAll(() => testApp(), 120_000)

/** Location as vendors send it → locality / region / country, as a candidate reads it. */
const VENDOR_LOCATIONS: [string, string | null, string | null, string | null][] = [
	['Remote - US', null, null, 'US'],
	['Remote, US', null, null, 'US'],
	['Remote (US only)', null, null, 'US'],
	['Anywhere in the US', null, null, 'US'],
	['Hybrid: Boston, MA', 'Boston', 'MA', 'US'],
	['New York, NY 10001', 'New York', 'NY', 'US'],
	['New York', 'New York', 'NY', 'US'],
	['NYC', 'New York', 'NY', 'US'],
	['New York City', 'New York', 'NY', 'US'],
	['NY, NY', 'New York', 'NY', 'US'],
	['Washington, D.C.', 'Washington', 'DC', 'US'],
	['St. Louis, MO', 'St. Louis', 'MO', 'US'],
	['Multiple locations', null, null, null],
	['US-CA-San Jose', 'San Jose', 'CA', 'US'],
	['USA-TX-Austin', 'Austin', 'TX', 'US'],
	['San Jose, CA, USA', 'San Jose', 'CA', 'US'],
	['Austin TX USA', 'Austin', 'TX', 'US'],
	['Toronto, ON, Canada', 'Toronto', 'ON', 'CA'],
	['Austin, TX/Remote', 'Austin', 'TX', 'US'],
	['Austin, TX - Remote', 'Austin', 'TX', 'US'],
	// The first state named is the place, brackets included: a job remote from California.
	['Remote (CA) Denver, CO', null, 'CA', 'US'],
	['Remote or Denver, CO', 'Denver', 'CO', 'US'],
	['Jersey City, NJ / New York, NY', 'Jersey City', 'NJ', 'US'],
	['Remote (EST)', null, null, null],
	['Charlotte, NC', 'Charlotte', 'NC', 'US'],
	['Remote - Texas', null, 'TX', 'US'],
	['London, UK', 'London', null, 'GB'],
	['Remote, USA (PST)', null, null, 'US'],
	['Remote (USA) - NYC preferred', null, null, 'US'],
	['Remote—US', null, null, 'US'],
	['Boston or Remote', 'Boston', null, null],
	['NYC or Remote', 'New York', 'NY', 'US'],
	['Washington State', null, 'WA', 'US'],
	['New York State', null, 'NY', 'US'],
	['Remote - East Coast', null, null, null],
	['Plano, TX 75024, USA', 'Plano', 'TX', 'US'],
	['Montréal, QC, Canada', 'Montréal', 'QC', 'CA'],
	['Remote (Toronto, Canada)', 'Toronto', null, 'CA'],
	// A province names its country, as a state does (no province's code is a state's).
	['Toronto, ON', 'Toronto', 'ON', 'CA'],
	['Hybrid - Vancouver, BC', 'Vancouver', 'BC', 'CA'],
	['Calgary, AB T2P 1J9', 'Calgary', 'AB', 'CA'],
	['Montreal, Quebec', 'Montreal', 'QC', 'CA'],
	['Toronto, ON - Onsite', 'Toronto', 'ON', 'CA'],
	['Ontario, CA', 'Ontario', 'CA', 'US'],
	// Towns joined by a slash are each the place ("Fort Worth, TX" finds it).
	['Dallas/Fort Worth, TX', 'Dallas/Fort Worth', 'TX', 'US'],
]

describe('the place a location names', () => {
	test('vendors’ location strings read as a candidate expects', () => {
		for (const [location, locality, region, country] of VENDOR_LOCATIONS) {
			const place = jobPlace({ location, schedule: null })
			expect([location, place.locality, place.region, place.country]).toEqual([location, locality, region, country])
		}
	})

	let ws: TestWorkspace
	const slugOf = new Map<string, string>()
	beforeAll(async () => {
		ws = await newWorkspace()
		for (const [location] of VENDOR_LOCATIONS) slugOf.set(location, (await addJob(ws, { title: 'Analyst', location })).slug)
	})
	/** The jobs found, on the first three pages (20 a page). */
	const found = async (typed: string) => {
		const slugs: string[] = []
		for (const page of [1, 2, 3]) {
			const res = await call('GET', `/careers/${ws.slug}?location=${encodeURIComponent(typed)}&page=${page}`)
			expect(res.status).toBe(200)
			slugs.push(...[...res.text.matchAll(/<a href="\/careers\/[^/]+\/jobs\/([^"]+)">/g)].map((m) => m[1]!))
		}
		return slugs.sort()
	}
	const jobsWhere = (pick: (row: (typeof VENDOR_LOCATIONS)[number]) => boolean) =>
		VENDOR_LOCATIONS.filter(pick)
			.map(([location]) => slugOf.get(location)!)
			.sort()

	test('the careers search finds each job where the table puts it', async () => {
		for (const state of ['CA', 'California', 'CO', 'TX', 'Texas', 'NJ', 'NY', 'New York State', 'MA', 'DC', 'MO', 'WA', 'Washington'])
			expect([state, await found(state)]).toEqual([state, jobsWhere(([, , region]) => region === jobPlace({ location: state, schedule: null }).region)])
		// "New York" is the city, as a job located "New York" is.
		expect(await found('New York')).toEqual(jobsWhere(([, locality]) => locality === 'New York'))
		expect(await found('San Jose, CA')).toEqual(jobsWhere(([, locality, region]) => locality === 'San Jose' && region === 'CA'))
		expect(await found('Austin, TX')).toEqual(jobsWhere(([, locality, region]) => locality === 'Austin' && region === 'TX'))
		expect(await found('Toronto, ON')).toEqual(jobsWhere(([, locality, region]) => locality === 'Toronto' && region === 'ON'))
		for (const town of ['Fort Worth, TX', 'Dallas, TX']) expect([town, await found(town)]).toEqual([town, [slugOf.get('Dallas/Fort Worth, TX')!]])
		expect(await found('Canada')).toEqual(jobsWhere(([, , , country]) => country === 'CA'))
		expect(await found('United Kingdom')).toEqual(jobsWhere(([, , , country]) => country === 'GB'))
		expect(await found('USA')).toEqual(jobsWhere(([, , , country]) => country === 'US'))
		// A town alone: the jobs there.
		expect(await found('Denver')).toEqual(jobsWhere(([location]) => /Denver/.test(location)))
		expect(await found('Toronto')).toEqual(jobsWhere(([, locality]) => locality === 'Toronto'))
	})

	test('the job page’s JobPosting data and the Indeed feed place the job where the search does', async () => {
		const slug = slugOf.get('Remote (CA) Denver, CO')!
		const page = await call('GET', `/careers/${ws.slug}/jobs/${slug}`)
		expect(page.text).toContain('"addressRegion":"CA"')
		const feed = await call('GET', `/careers/${ws.slug}/feeds/indeed.xml`)
		const job = feed.text.split('<job>').find((part) => part.includes(slug))!
		expect(job).toContain('<state>CA</state>')
		expect(await found('California')).toContain(slug)
		expect(await found('Colorado')).not.toContain(slug)
	})

	test('a place stored by an older reading is read again; a changed location is read when searched', async () => {
		const deps = await testDeps()
		const own = await newWorkspace()
		const job = await addJob(own, { title: 'Analyst', location: 'Hybrid - Reno, NV 89501' })
		await deps.database.rows(
			sql`insert into job_location_places (location, rule, locality, region, country) values ('Hybrid - Reno, NV 89501', ${PLACE_RULE - 1}, null, 'ca', null)
			on conflict (location) do update set rule = excluded.rule, region = excluded.region`,
		)
		const search = async (typed: string) => (await call('GET', `/careers/${own.slug}?location=${typed}`)).text.includes(job.slug)
		expect(await search('NV')).toBe(true)
		expect(await search('CA')).toBe(false)
		await deps.database.rows(sql`update jobs set location = 'Boise, ID' where id = ${job.id}`)
		expect([await search('ID'), await search('NV')]).toEqual([true, false])
	})
})
