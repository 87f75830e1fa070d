/**
 * The careers site's search, for candidates: keywords over title, skills and description ranked as
 * the product's job search ranks them, location, remote and employment-type filters, 20 a page, the
 * applied filters each with a link to remove it and one to clear them all, and a clear 400 for input
 * that cannot be a search.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { call, newPerson, newWorkspace, testApp, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { newPublicJob as addJob } from '../../tests/staffing-fixtures.ts'
import { personActor } from '../auth/index.ts'
import { jobSearchProvider } from '../jobs/search.ts'
import { employmentType, employmentTypeSql, fullyRemoteSql } from './job-facts.ts'
import { parseLocation } from '../jobs/index.ts'
import { PAGE_SIZE, readCriteria } from './search.ts'

beforeAll(() => testApp(), 120_000)

/** The job links of a careers list page, in order. */
const slugsOf = (html: string) => [...html.matchAll(/<a href="\/careers\/[^/]+\/jobs\/([^"]+)">/g)].map((m) => m[1]!)

async function search(ws: TestWorkspace, query: string) {
	const res = await call('GET', `/careers/${ws.slug}${query}`)
	return { status: res.status, text: res.text, slugs: slugsOf(res.text) }
}

describe('keywords, filters and clearing', () => {
	let ws: TestWorkspace
	const j: Record<string, { id: string; slug: string }> = {}
	beforeAll(async () => {
		ws = await newWorkspace()
		j.javaAustin = await addJob(ws, { title: 'Senior Java Developer', location: 'Austin, TX', schedule: 'Onsite', contractType: 'C2C' })
		j.javaRemote = await addJob(ws, {
			title: 'Backend Engineer',
			location: 'Remote - US',
			schedule: 'Remote',
			mustHave: ['Java 17', 'Spring'],
			contractType: 'W2',
		})
		j.descJava = await addJob(ws, {
			title: 'Platform Engineer',
			location: 'Dallas, Texas',
			description: '<p>You will maintain our <strong>Java</strong> services.</p>',
			contractType: 'Fulltime',
		})
		j.python = await addJob(ws, { title: 'Python Developer', location: 'Austin, TX', schedule: 'Hybrid', employment: 'Full-time, permanent' })
		j.closed = await addJob(ws, { title: 'Java Architect', location: 'Austin, TX', status: 'Closed', publishedAt: null, closedAt: new Date() })
	})

	test('keywords match the title, the skills and the description; closed jobs never show', async () => {
		const found = await search(ws, '?q=java')
		expect(found.status).toBe(200)
		expect(new Set(found.slugs)).toEqual(new Set([j.javaAustin!.slug, j.javaRemote!.slug, j.descJava!.slug]))
		// The title outranks the skills, which outrank the description (the job search's weights).
		expect(found.slugs).toEqual([j.javaAustin!.slug, j.javaRemote!.slug, j.descJava!.slug])
		expect(found.text).toContain('3 jobs match')
	})

	test('location reads a city and a state (written as a code or a name); remote only; employment type', async () => {
		expect((await search(ws, '?location=Austin')).slugs.sort()).toEqual([j.javaAustin!.slug, j.python!.slug].sort())
		expect((await search(ws, '?location=Texas')).slugs.sort()).toEqual([j.javaAustin!.slug, j.descJava!.slug, j.python!.slug].sort())
		expect((await search(ws, '?location=Austin%2C+Texas')).slugs.sort()).toEqual([j.javaAustin!.slug, j.python!.slug].sort())
		expect((await search(ws, '?remote=on')).slugs).toEqual([j.javaRemote!.slug])
		expect((await search(ws, '?type=Contract')).slugs.sort()).toEqual([j.javaAustin!.slug, j.javaRemote!.slug].sort())
		expect((await search(ws, '?type=Full-time')).slugs.sort()).toEqual([j.descJava!.slug, j.python!.slug].sort())
		expect((await search(ws, '?q=java&location=Austin&remote=on&type=Contract')).slugs).toEqual([])
		expect((await search(ws, '?q=java&location=Austin&type=contract')).slugs).toEqual([j.javaAustin!.slug])
	})

	test('a place typed is found as whole words of the location, never inside a word', async () => {
		const ws = await newWorkspace()
		const at: Record<string, string> = {}
		for (const location of [
			'Austin, TX',
			'Austintown, OH',
			'Columbus, OH',
			'Remote - US',
			'Houston, TX, US',
			'St. Louis, MO',
			'Jersey\u00a0City, NJ',
			'Remote (Canada)',
		])
			at[location] = (await addJob(ws, { title: 'Analyst', location })).slug
		const found = async (typed: string) => (await search(ws, `?location=${encodeURIComponent(typed)}`)).slugs.sort()
		const slugs = (...locations: string[]) => locations.map((l) => at[l]!).sort()
		// "US" was the "us" of Austin, Austintown, Columbus and Houston: it is the country, where all but the Canadian job are.
		expect(await found('US')).toEqual(
			slugs('Austin, TX', 'Austintown, OH', 'Columbus, OH', 'Remote - US', 'Houston, TX, US', 'St. Louis, MO', 'Jersey\u00a0City, NJ'),
		)
		expect(await found('Austin')).toEqual(slugs('Austin, TX'))
		expect(await found('Austin, TX')).toEqual(slugs('Austin, TX'))
		expect(await found('St. Louis')).toEqual(slugs('St. Louis, MO'))
		expect(await found('Jersey City')).toEqual(slugs('Jersey\u00a0City, NJ'))
		expect(await found('Canada')).toEqual(slugs('Remote (Canada)'))
		expect(await found('(Canada)')).toEqual(slugs('Remote (Canada)'))
		expect(await found('tow')).toEqual([])
	})

	test('the form shows what is applied, each with a link without it, and Clear all filters', async () => {
		const { text } = await search(ws, '?q=java&location=Austin&type=Contract')
		expect(text).toContain('value="java"')
		expect(text).toContain('<option value="Contract" selected>')
		expect(text).toContain(`<a href="/careers/${ws.slug}?location=Austin&amp;type=Contract" aria-label="Remove filter Keywords: java">Remove</a>`)
		expect(text).toContain(`<a href="/careers/${ws.slug}?q=java&amp;type=Contract" aria-label="Remove filter Location: Austin">Remove</a>`)
		expect(text).toContain(`<a href="/careers/${ws.slug}">Clear all filters</a>`)
		// Cleared: every open job, and nothing said about filters.
		const all = await search(ws, '')
		expect(all.slugs).toHaveLength(4)
		expect(all.text).not.toContain('Clear all filters')
		expect((await search(ws, '?q=java&remote=on')).text).toContain('<input type="checkbox" id="remote" name="remote" value="on" checked>')
	})

	test('no match says so and links to every job', async () => {
		const { status, text } = await search(ws, '?q=cobol')
		expect(status).toBe(200)
		expect(text).toContain('No open jobs match this search')
		expect(text).toContain('0 jobs match')
	})
})

describe('the same ranking as the job search', () => {
	test('the careers order of a query is the search tool’s order of the same open jobs', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		await addJob(ws, { title: 'Java Developer' })
		await addJob(ws, { title: 'JavaScript Engineer', mustHave: ['React'] })
		await addJob(ws, { title: 'QA Engineer', mustHave: ['Java', 'Selenium'] })
		await addJob(ws, { title: 'Data Engineer', summary: 'Spark jobs in Java and Scala' })
		await addJob(ws, { title: 'Senior Java Developer', mustHave: ['Java'] })
		await addJob(ws, { title: 'Jav Developer' })
		const actor = await personActor(deps, ws.slug, (await newPerson(ws, 'owner')).email)
		for (const q of ['java', 'java developer', 'engineer', 'jav']) {
			const tool = await jobSearchProvider.search(deps, actor, q, 50)
			const { slugs } = await search(ws, `?q=${encodeURIComponent(q)}`)
			const ids = await deps.database.rows<{ id: string; slug: string }>(sql`select id, slug from jobs where workspace_id = ${ws.id}`)
			const slugOf = new Map(ids.map((r) => [r.id, r.slug]))
			expect(slugs).toEqual(tool!.hits.map((h) => slugOf.get(h.id)!))
			expect(slugs.length).toBeGreaterThan(0)
		}
	})
})

describe('paging', () => {
	test('20 a page, newest first without keywords; Next and Previous keep the filters; a page past the end says so', async () => {
		const ws = await newWorkspace()
		const base = Date.now() - 100 * 60_000
		const made = []
		for (let i = 0; i < PAGE_SIZE + 5; i++)
			made.push(await addJob(ws, { title: `Contract Tester ${i}`, contractType: 'C2C', publishedAt: new Date(base + i * 60_000) }))
		await addJob(ws, { title: 'Full-time Tester', contractType: 'Fulltime' })
		const newest = made.map((m) => m.slug).reverse()
		const first = await search(ws, '?type=Contract')
		expect(first.slugs).toEqual(newest.slice(0, PAGE_SIZE))
		expect(first.text).toContain('Page 1 of 2')
		expect(first.text).toContain(`<a href="/careers/${ws.slug}?type=Contract&amp;page=2" rel="next">Next page</a>`)
		const second = await search(ws, '?type=Contract&page=2')
		expect(second.slugs).toEqual(newest.slice(PAGE_SIZE))
		expect(second.text).toContain('25 jobs match (page 2)')
		expect(second.text).toContain(`<a href="/careers/${ws.slug}?type=Contract" rel="prev">Previous page</a>`)
		expect(second.text).not.toContain('rel="next"')
		const past = await search(ws, '?type=Contract&page=3')
		expect(past.status).toBe(200)
		expect(past.slugs).toEqual([])
		expect(past.text).toContain('There are no more jobs for this search')
		expect(past.text).toContain('Page 3 is past the last page')
		expect(past.text).not.toContain('0 jobs match')
		// Without filters too: a page past the last is not a workspace with no open jobs.
		const pastAll = await search(ws, '?page=3')
		expect(pastAll.slugs).toEqual([])
		expect(pastAll.text).toContain(`There are no more jobs. <a href="/careers/${ws.slug}">Back to the first page</a>`)
		expect(pastAll.text).not.toContain('There are no open jobs right now')
	})
})

describe('bad input', () => {
	test('an unknown type, page 0, a huge page, an overlong q or location, a bad remote: 400 with what is wrong', async () => {
		const ws = await newWorkspace()
		await addJob(ws, { title: 'Java Developer' })
		const cases: [string, string][] = [
			['?type=Freelance', 'Employment type must be one of: Full-time, Part-time, Contract, Temporary, Internship'],
			['?page=0', 'Page must be a whole number from 1 to 500'],
			['?page=99999999999999999999', 'Page must be a whole number from 1 to 500'],
			['?page=501', 'Page must be a whole number from 1 to 500'],
			['?page=two', 'Page must be a whole number from 1 to 500'],
			[`?q=${'a'.repeat(201)}`, 'Keywords can be at most 200 characters'],
			[`?location=${'b'.repeat(101)}`, 'Location can be at most 100 characters'],
			[`?q=${encodeURIComponent('😀'.repeat(201))}`, 'Keywords can be at most 200 characters'],
			['?remote=yes', 'Remote only is on or left out'],
			// One character matches nothing (as every search of the product says): said, not "0 jobs match".
			['?q=a', 'Keywords must have at least 2 characters'],
			[`?q=${encodeURIComponent(' é\u200b ')}`, 'Keywords must have at least 2 characters'],
			// Text the address does not hold readably is no keyword: a broken %-escape, escaped bytes that are not UTF-8.
			['?q=%zz', 'Keywords could not be read from this address (a broken %-escape): type it again'],
			['?q=%ED%A0%80', 'Keywords could not be read from this address'],
			['?q=java%C0%80', 'Keywords could not be read from this address'],
			['?location=Austin%', 'Location could not be read from this address'],
			['?type=%E2%82', 'Employment type could not be read from this address'],
		]
		// Characters are code points: 200 emoji are 200 characters (400 UTF-16 units), and a cut never splits one.
		const emoji = await search(ws, `?q=${encodeURIComponent('😀'.repeat(200))}&location=${encodeURIComponent('🏙'.repeat(100))}`)
		expect(emoji.status).toBe(200)
		const cut = readCriteria({ q: `a${'😀'.repeat(200)}`, location: `b${'🏙'.repeat(100)}` })
		expect(cut.errors.map((e) => e.field)).toEqual(['q', 'location'])
		expect([cut.criteria.q, cut.criteria.location]).toEqual([`a${'😀'.repeat(199)}`, `b${'🏙'.repeat(99)}`])
		for (const [query, message] of cases) {
			const res = await search(ws, query)
			expect([query, res.status]).toEqual([query, 400])
			expect(res.text).toContain(message)
			// What the address held is not shown back as if typed.
			expect([query, /value="[^"]*%/.test(res.text)]).toEqual([query, false])
			expect(res.text).toContain('<title>Error: ')
			expect(res.slugs).toEqual([])
			// Not run, so nothing is said of matches, and no alert is offered for it (one would be refused too).
			expect([query, res.text.includes('This search was not run: correct what is marked above.')]).toEqual([query, true])
			expect([query, /jobs? match|No open jobs/.test(res.text)]).toEqual([query, false])
			expect([query, res.text.includes('Get new jobs like this by e-mail')]).toEqual([query, false])
		}
		// A parameter given twice and odd characters are no error (of a repeated one, the first counts, as in a posted form).
		const twice = await search(ws, '?q=java&q=python')
		expect([twice.status, twice.text.match(/value="[^"]*" maxlength="200"/)?.[0]]).toEqual([200, 'value="java" maxlength="200"'])
		expect(twice.slugs).toHaveLength(1)
		expect((await search(ws, `?q=${encodeURIComponent("'); drop table jobs; -- %_\\")}`)).status).toBe(200)
		expect((await search(ws, `?location=${encodeURIComponent('%_\\')}`)).status).toBe(200)
		// A NUL or another control character pasted in is no keyword: dropped, the search runs (the database refuses a NUL).
		const nul = await search(ws, '?q=java%00&location=%01')
		expect([nul.status, nul.slugs.length]).toEqual([200, 1])
		expect(nul.text).toContain('value="java" maxlength="200"')
		// Noncharacters too: a job alert keeps the search, and a person's export holds it.
		expect(readCriteria({ q: '\ufffejava\uffff', location: 'Austin\u{10fffe}\ufdd0' }).criteria).toMatchObject({ q: 'java', location: 'Austin' })
	})
})

describe('employment type in SQL', () => {
	test('the type filter’s SQL gives what employmentType gives, for contract types and vendors’ words', async () => {
		const deps = await testDeps()
		const samples: [string | null, string | null][] = [
			['Fulltime', null],
			['C2C', 'Full-time'],
			['W2 / C2C', null],
			['', 'Part time'],
			[null, 'part-time'],
			[null, 'Internship'],
			[null, 'Per diem'],
			[null, 'Temp to hire'],
			[null, 'Corp-to-corp'],
			[null, '1099 contract'],
			[null, 'Full time, permanent'],
			[null, 'Perm'],
			[null, 'Whatever'],
			// Whole words only: "intern" in "internal", "temp" in "contemporary" are no type.
			[null, 'Full-time, internal IT team'],
			[null, 'Contract - international client'],
			[null, 'Full-time employee (contemporary team)'],
			[null, 'Intern'],
			[null, 'Temp-to-perm'],
			[null, 'Temporary'],
			[null, 'Permanent'],
			[null, 'Contractor'],
			[null, 'Åintern'],
			[null, 'Teilzeit part\u00a0time'],
			[null, 'per\tdiem'],
			[null, 'full\u00a0time'],
			[null, null],
		]
		for (const [contractType, employment] of samples) {
			const [row] = await deps.database.rows<{ type: string | null }>(
				sql`select (${employmentTypeSql}) as type from (select ${contractType}::text as contract_type, ${employment}::text as employment) j`,
			)
			expect([employment, row!.type]).toEqual([employment, employmentType({ contractType, employment })])
		}
		const typeOf = (employment: string) => employmentType({ contractType: null, employment })
		expect(
			['Full-time, internal IT team', 'Contract - international client', 'Full-time employee (contemporary team)', 'Internship', 'Temp-to-perm', 'Perm'].map(
				typeOf,
			),
		).toEqual(['FULL_TIME', 'CONTRACTOR', 'FULL_TIME', 'INTERN', 'TEMPORARY', 'FULL_TIME'])
	})

	test('Remote only in SQL agrees with the location’s words as the job page and feeds read them', async () => {
		const deps = await testDeps()
		for (const location of [
			'Remote',
			'Denver, CO (remote)',
			'Remote - US',
			'Åremote',
			'remoteness',
			'Work\u00a0from home',
			'Austin, TX',
			'WFH/Austin',
			'Anywhere',
			'nowhere',
		])
			for (const schedule of [null, 'Hybrid']) {
				const [row] = await deps.database.rows<{ remote: boolean }>(
					sql`select coalesce((${fullyRemoteSql}), false) as remote from (select ${location}::text as location, ${schedule}::text as schedule) j`,
				)
				expect([location, schedule, row!.remote]).toEqual([location, schedule, parseLocation(location).remote && schedule !== 'Hybrid'])
			}
	})

	test('a state in the location filter finds the jobs the pay check and the feeds place in that state', async () => {
		const locations = [
			'Seattle WA',
			'Seattle, WA',
			'Denver CO 80202',
			'Denver, Colorado',
			'Washington, DC',
			'Washington DC',
			'Charleston West Virginia',
			'Richmond, Virginia',
			'Remote OR Hybrid',
			'Kansas City Missouri 64105',
			'New York, NY, USA',
			'Denver, CO (remote)',
			'Seattle wa',
			'WASHINGTON',
			'Hybrid - Seattle, WA',
			'Seattle, WA (hybrid)',
			'On-site: Denver, CO',
			'Austin, TX - Onsite',
			'Seattle WA 98101 - hybrid, USA',
			'Washington, D.C.',
			'Washington D.C. 20001',
			'Washington, D. C., USA',
			'Remote (US) - must be in NY',
			// A code in any case as the whole part, as the parser reads it ("Baltimore, md" is in Maryland), in capitals elsewhere.
			'Baltimore, md',
			'Austin, tx',
			'Austin, tx 78701',
			'Baltimore md',
			'Baltimore (md)',
			'Baltimore, (md)',
			'md',
			'Remote - tx',
			'Hybrid - Austin, tx',
			'hybrid: tx',
			'Austin, tx - onsite',
			'Austin, tx (hybrid)',
			'Portland, or',
			'Portland or Seattle',
			'Indianapolis, in, USA',
			'Seattle, wa',
			'Washington, dc',
			'Austin, txt',
			// The first state named is the place: a second state, other states after a slash or a country after it are none.
			'Baltimore, md, TX',
			'Baltimore, MD, TX',
			'Baltimore, MD, Texas',
			'MD, TX',
			'Seattle WA, Portland OR',
			'Maryland, Virginia',
			'Virginia, MD, DC',
			'Kansas City, MO/KS',
			'Kansas City, mo / ks 64105',
			'St. Louis, MO, USA',
			'Remote - US',
			'Austin, Texas',
			'New York, NY 10001',
			'Hybrid (Chicago, IL)',
			'Hybrid (il)',
			// A state's name before a part that is a state's code is a town there.
			'Washington, (DC)',
			'Washington (DC)',
			'Fort Washington, MD',
			'Indiana, PA',
			'New York, New York',
		]
		// Every location as a job's, through the page (the search reads the stored place of each).
		const all = await newWorkspace()
		const at = new Map<string, string>()
		for (const location of locations) at.set((await addJob(all, { title: 'Analyst', location })).slug, location)
		for (const state of [
			'WA',
			'Washington',
			'CO',
			'Colorado',
			'DC',
			'VA',
			'WV',
			'OR',
			'MO',
			'NY',
			'TX',
			'tx',
			'MD',
			'Maryland',
			'IN',
			'KS',
			'Kansas',
			'PA',
			'IL',
		]) {
			const region = parseLocation(state).region
			const expected = locations.filter((location) => parseLocation(location).region === region)
			expect([state, (await search(all, `?location=${encodeURIComponent(state)}`)).slugs.map((slug) => at.get(slug)).sort()]).toEqual([state, expected.sort()])
		}
		// The jobs in Washington state, wherever the state is written.
		const ws = await newWorkspace()
		const inWa = await Promise.all(['Seattle WA', 'Spokane, Washington 99201'].map((location) => addJob(ws, { title: 'Analyst', location })))
		await addJob(ws, { title: 'Analyst', location: 'Washington, DC' })
		expect((await search(ws, '?location=WA')).slugs.sort()).toEqual(inWa.map((j) => j.slug).sort())
	})

	test('a location naming two states is in the first: the search, the JobPosting data and the Indeed feed agree', async () => {
		const ws = await newWorkspace()
		const job = await addJob(ws, { title: 'Analyst', location: 'Baltimore, md, TX' })
		for (const query of ['?location=MD', '?location=Maryland', '?location=Baltimore%2C+MD']) expect((await search(ws, query)).slugs).toEqual([job.slug])
		for (const query of ['?location=TX', '?location=Texas', '?location=Baltimore%2C+TX']) expect((await search(ws, query)).slugs).toEqual([])
		const page = await call('GET', `/careers/${ws.slug}/jobs/${job.slug}`)
		expect(page.text).toContain('"addressRegion":"MD"')
		const feed = await call('GET', `/careers/${ws.slug}/feeds/indeed.xml`)
		expect(feed.text).toMatch(/<state>(<!\[CDATA\[)?MD(\]\]>)?<\/state>/)
	})
})
