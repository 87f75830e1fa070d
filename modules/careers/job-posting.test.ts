/**
 * JobPosting structured data against Google's job-posting guidelines
 * (developers.google.com/search/docs/appearance/structured-data/job-posting): every required
 * property, and the recommended ones the job has, in the documented shapes.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { eq } from 'drizzle-orm'
import { XMLParser } from 'fast-xml-parser'
import { call, newVendor, newWorkspace, testApp, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { NAUGHTY } from '../../tests/reliability/arbitraries.ts'
import { newPublicJob } from '../../tests/staffing-fixtures.ts'
import { findJobBySlug, parseLocation, payText } from '../jobs/index.ts'
import { jobs } from '../jobs/table.ts'
import { EMPLOYMENT_TYPE_LABELS, type EmploymentType } from './job-facts.ts'
import { jobPosting } from './pages.ts'

beforeAll(() => testApp(), 60_000)

const EMPLOYMENT_TYPES = ['FULL_TIME', 'PART_TIME', 'CONTRACTOR', 'TEMPORARY', 'INTERN', 'VOLUNTEER', 'PER_DIEM', 'OTHER']
const UNITS = ['HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR']

/** Google's required properties, as its guidelines state them; returns the problems. */
function requiredProblems(d: any): string[] {
	const problems: string[] = []
	if (d['@type'] !== 'JobPosting') problems.push('@type')
	if (typeof d.title !== 'string' || !d.title) problems.push('title')
	if (typeof d.description !== 'string' || !d.description) problems.push('description')
	if (Number.isNaN(Date.parse(d.datePosted)) || !/^\d{4}-\d\d-\d\d/.test(d.datePosted)) problems.push('datePosted (ISO 8601)')
	if (d.hiringOrganization?.['@type'] !== 'Organization' || !d.hiringOrganization.name) problems.push('hiringOrganization.name')
	const remote = d.jobLocationType === 'TELECOMMUTE'
	if (remote && !d.applicantLocationRequirements?.name) problems.push('applicantLocationRequirements with TELECOMMUTE')
	if (!remote && (d.jobLocation?.['@type'] !== 'Place' || d.jobLocation.address?.['@type'] !== 'PostalAddress'))
		problems.push('jobLocation as a Place with a PostalAddress')
	// "Note that you must include the addressCountry property."
	if (d.jobLocation && !d.jobLocation.address?.addressCountry) problems.push('jobLocation.address.addressCountry')
	return problems
}

async function postingOf(key: string, body: Record<string, unknown>) {
	const res = await call('POST', '/api/v1/jobs', { key, body: { title: 'Data Engineer', ...body } })
	expect(res.status).toBeLessThan(300)
	const page = await call('GET', new URL(res.json.job.url).pathname)
	const blocks = [...page.text.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!))
	expect(blocks).toHaveLength(1)
	return { data: blocks[0], job: res.json.job }
}

describe('JobPosting by Google’s rules', () => {
	test('an on-site job: required properties, the address parsed from "Charlotte, NC", and the recommended ones', async () => {
		const ws = await newWorkspace()
		const { apiKey: key } = await newVendor(ws)
		const { data, job } = await postingOf(key, {
			vendorJobId: 'A',
			location: 'Charlotte, NC',
			schedule: 'Onsite',
			contractType: 'W2',
			description: '<p>Pipelines.</p>',
		})
		expect(requiredProblems(data)).toEqual([])
		expect(data.jobLocation.address).toEqual({ '@type': 'PostalAddress', addressLocality: 'Charlotte', addressRegion: 'NC', addressCountry: 'US' })
		expect(data.jobLocationType).toBeUndefined()
		expect(data.description).toBe('<p>Pipelines.</p>')
		expect(data.datePosted).toBe(job.publishedAt)
		expect(data.hiringOrganization.name).toBe(ws.name)
		expect(data.hiringOrganization.sameAs).toBe(`http://localhost:3000/careers/${ws.slug}`)
		// Recommended.
		expect(EMPLOYMENT_TYPES).toContain(data.employmentType)
		expect(data.employmentType).toBe('CONTRACTOR')
		expect(data.identifier).toEqual({ '@type': 'PropertyValue', name: ws.name, value: expect.stringMatching(/^job_/) })
		expect(data.directApply).toBe(true)
		// No end date is known, so none is invented; no pay is known, so none is invented.
		expect(data.validThrough).toBeUndefined()
		expect(data.baseSalary).toBeUndefined()
	})

	test('a remote job is TELECOMMUTE with applicantLocationRequirements; pay is a MonetaryAmount with its unit, as the page words it', async () => {
		const ws = await newWorkspace()
		const { apiKey: key } = await newVendor(ws)
		const { data, job } = await postingOf(key, { vendorJobId: 'R', location: 'Remote - US', schedule: 'Remote' })
		expect(requiredProblems(data)).toEqual([])
		expect(data.jobLocationType).toBe('TELECOMMUTE')
		expect(data.applicantLocationRequirements).toEqual({ '@type': 'Country', name: 'United States' })
		const deps = await testDeps()
		// "from $95,000" is a lower bound, not an exact salary (value); 0 is no amount.
		for (const [min, max, bounds, unit, words] of [
			[120_000, 150_000, { minValue: 120_000, maxValue: 150_000 }, 'YEAR', '$120,000 - $150,000 per year'],
			[70, 85, { minValue: 70, maxValue: 85 }, 'HOUR', '$70 - $85 per hour'],
			[95_000, null, { minValue: 95_000 }, 'YEAR', 'from $95,000 per year'],
			[null, 60, { maxValue: 60 }, 'HOUR', 'up to $60 per hour'],
			[0, 120_000, { maxValue: 120_000 }, 'YEAR', 'up to $120,000 per year'],
			[0, 0, null, null, null],
		] as const) {
			await deps.db
				.update(jobs)
				.set({ salaryMin: min, salaryMax: max, contractType: 'Fulltime' })
				.where(eq(jobs.slug, new URL(job.url).pathname.split('/').at(-1)!))
			const page = await call('GET', new URL(job.url).pathname)
			const d = JSON.parse(page.text.match(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/)![1]!)
			expect(payText({ salaryMin: min, salaryMax: max })).toBe(words)
			if (bounds) {
				expect(d.baseSalary).toEqual({ '@type': 'MonetaryAmount', currency: 'USD', value: { '@type': 'QuantitativeValue', ...bounds, unitText: unit } })
				expect(UNITS).toContain(unit)
				expect(page.text.replace(/<[^>]+>/g, '')).toContain(`Pay${words}`)
			} else {
				expect(d.baseSalary).toBeUndefined()
				expect(page.text).not.toContain('<dt>Pay</dt>')
			}
			expect(d.employmentType).toBe('FULL_TIME')
		}
	})
})

/** The page's JobPosting blocks, parsed (none when a required property cannot be given). */
const postingsIn = (html: string) => [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!))
const unescaped = (text: string) =>
	text
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'")
		.replace(/&amp;/g, '&')
/** The facts the job page shows people, by label. */
const shownFacts = (html: string) =>
	new Map([...html.matchAll(/<div><dt>(.*?)<\/dt><dd>(.*?)<\/dd><\/div>/g)].map((m) => [m[1]!, unescaped(m[2]!.replace(/<[^>]*>/g, ''))]))

async function jobPageOf(ws: TestWorkspace, job: Partial<typeof jobs.$inferInsert>) {
	const { slug } = await newPublicJob(ws, { title: 'Platform Engineer', ...job })
	const page = await call('GET', `/careers/${ws.slug}/jobs/${slug}`)
	expect(page.status).toBe(200)
	return { slug, html: page.text, postings: postingsIn(page.text), facts: shownFacts(page.text) }
}

describe('where the job is, from its location text', () => {
	test('US, non-US, remote with and without a country, none: the address and remote properties known, the posting left out when Google’s required ones cannot be met', async () => {
		const ws = await newWorkspace()
		const cases: [string | null, string | null, any][] = [
			[
				'Austin, TX',
				'Onsite',
				{ jobLocation: { '@type': 'Place', address: { '@type': 'PostalAddress', addressLocality: 'Austin', addressRegion: 'TX', addressCountry: 'US' } } },
			],
			['Atlanta, Georgia', null, { jobLocation: { address: { addressLocality: 'Atlanta', addressRegion: 'GA', addressCountry: 'US' } } }],
			[
				'Toronto, ON, Canada',
				'Onsite',
				{ jobLocation: { '@type': 'Place', address: { '@type': 'PostalAddress', addressLocality: 'Toronto', addressRegion: 'ON', addressCountry: 'CA' } } },
			],
			['London, UK', 'Hybrid', { jobLocation: { address: { '@type': 'PostalAddress', addressLocality: 'London', addressCountry: 'GB' } } }],
			['Germany', 'Onsite', { jobLocation: { address: { '@type': 'PostalAddress', addressCountry: 'DE' } } }],
			['Remote - Canada', 'Remote', { jobLocationType: 'TELECOMMUTE', applicantLocationRequirements: { '@type': 'Country', name: 'Canada' } }],
			['Remote (US)', null, { jobLocationType: 'TELECOMMUTE', applicantLocationRequirements: { '@type': 'Country', name: 'United States' } }],
			[
				'Remote - Denver, CO',
				'Remote',
				{
					jobLocationType: 'TELECOMMUTE',
					applicantLocationRequirements: { name: 'United States' },
					jobLocation: { address: { addressLocality: 'Denver', addressRegion: 'CO' } },
				},
			],
			// A town with no country: Google requires the address's country, and where applicants may live is not known either.
			['Remote - Toronto', 'Remote', null],
			['Springfield', 'Onsite', null],
			// A country named inside the words, or before a note, is the country; the words are no city.
			['Anywhere in Canada', 'Remote', { jobLocationType: 'TELECOMMUTE', applicantLocationRequirements: { '@type': 'Country', name: 'Canada' } }],
			[
				'Remote, United States (EST hours)',
				'Remote',
				{ jobLocationType: 'TELECOMMUTE', applicantLocationRequirements: { '@type': 'Country', name: 'United States' } },
			],
			// An area of several countries is no place, and no one country for the applicants: no posting rather than a wrong one.
			['Remote (EU)', 'Remote', null],
			['US or Canada', 'Remote', null],
			['USA/Canada', 'Onsite', null],
			// A work arrangement is no part of the town; an instruction names the state only.
			['Hybrid - Seattle, WA', 'Hybrid', { jobLocation: { address: { addressLocality: 'Seattle', addressRegion: 'WA', addressCountry: 'US' } } }],
			// The first state named is the place (a second state is none), in the posting as in the search and the feeds.
			['Baltimore, md, TX', 'Onsite', { jobLocation: { address: { addressLocality: 'Baltimore', addressRegion: 'MD', addressCountry: 'US' } } }],
			['Kansas City, MO/KS', 'Onsite', { jobLocation: { address: { addressLocality: 'Kansas City', addressRegion: 'MO', addressCountry: 'US' } } }],
			['Hybrid (Chicago, IL)', 'Hybrid', { jobLocation: { address: { addressLocality: 'Chicago', addressRegion: 'IL', addressCountry: 'US' } } }],
			['N/A', 'Onsite', null],
			// Remote with no place named: open in the United States, the firm's market.
			['Remote', 'Remote', { jobLocationType: 'TELECOMMUTE', applicantLocationRequirements: { '@type': 'Country', name: 'United States' } }],
			// Nothing says where the job is: no posting rather than an invalid one.
			[null, 'Onsite', null],
			['', 'Hybrid', null],
		]
		for (const [location, schedule, where] of cases) {
			const { postings, facts, html } = await jobPageOf(ws, { location, schedule })
			if (where === null) {
				expect({ location, postings }).toEqual({ location, postings: [] })
				// The page itself is whole: the facts it does have are shown.
				expect(html).toContain('<h1>Platform Engineer</h1>')
				continue
			}
			expect({ location, posting: postings[0] }).toMatchObject({ location, posting: where })
			expect({ location, problems: requiredProblems(postings[0]) }).toEqual({ location, problems: [] })
			if (!where.jobLocationType) expect(postings[0].jobLocationType).toBeUndefined()
			if (!where.jobLocation) expect(postings[0].jobLocation).toBeUndefined()
			if (where.applicantLocationRequirements) expect(JSON.stringify(postings[0])).not.toContain('USA')
			expect(facts.get('Location')).toBe(location!)
		}
	})

	test('any location text and schedule gives a posting with every required property, or none', async () => {
		const ws = await newWorkspace()
		const deps = await testDeps()
		const { slug } = await newPublicJob(ws, { title: 'Platform Engineer' }, deps)
		const row = (await findJobBySlug(deps, ws.id, slug))!
		const place = fc.oneof(
			fc.constantFrom(...NAUGHTY),
			fc.string({ maxLength: 60 }),
			fc
				.tuple(
					fc.constantFrom('', 'Remote - ', 'Remote ', 'Hybrid '),
					fc.constantFrom('Austin', 'Toronto', 'Canada', 'Georgia', 'CA', ''),
					fc.constantFrom('', ', TX', ', ON', ', Canada', ', UK', ' (remote)'),
				)
				.map((parts) => parts.join('')),
		)
		fc.assert(
			fc.property(place, fc.constantFrom(null, 'Remote', 'Hybrid', 'Onsite'), (location, schedule) => {
				const data = jobPosting(ws, { ...row, location, schedule }, `http://localhost:3000/careers/${ws.slug}/jobs/${slug}`)
				if (data) expect(requiredProblems(data)).toEqual([])
			}),
			{ numRuns: 400 },
		)
	})
})

describe('the page, its JobPosting data and the feeds tell the same facts', () => {
	test('pay, employment type, location, experience and the posting date: each one the data or the Indeed feed carries is on the page', async () => {
		const ws = await newWorkspace()
		const jobsShown: Partial<typeof jobs.$inferInsert>[] = [
			{ location: 'San Jose, CA', salaryMin: 120_000, salaryMax: 150_000, contractType: 'Fulltime', minYears: 5 },
			{ location: 'Remote - Canada', schedule: 'Remote', salaryMin: 70, salaryMax: null, employment: 'Part-time' },
			{ location: 'Toronto, ON, Canada', salaryMax: 95, employment: 'Temp to hire' },
			{ location: 'Austin, TX', employment: 'Quokka terms' },
		]
		const pages = []
		for (const job of jobsShown) pages.push({ job, ...(await jobPageOf(ws, job)) })
		const feed = new XMLParser({ isArray: (name) => name === 'job' }).parse((await call('GET', `/careers/${ws.slug}/feeds/indeed.xml`)).text).source
			.job as any[]
		for (const { job, slug, postings, facts } of pages) {
			const [data] = postings
			const board = feed.find((j) => String(j.url).endsWith(`/jobs/${slug}`))
			const pay = payText({ salaryMin: job.salaryMin ?? null, salaryMax: job.salaryMax ?? null })
			// Pay: shown to candidates as the data and the feed carry it (pay-transparency laws; Google's rule).
			expect({ slug, pay: facts.get('Pay') }).toEqual({ slug, pay: pay ?? undefined })
			expect(board.salary).toBe(pay ?? undefined)
			expect(data.baseSalary === undefined).toBe(pay === null)
			if (data.baseSalary) expect(facts.get('Pay')).toContain(data.baseSalary.value.unitText === 'HOUR' ? 'per hour' : 'per year')
			// Employment type: Google's value, Indeed's, and the words people read.
			expect(facts.get('Employment type')).toBe(data.employmentType ? EMPLOYMENT_TYPE_LABELS[data.employmentType as EmploymentType] : undefined)
			expect(board.jobtype === undefined).toBe(data.employmentType === undefined)
			// Where: the page shows the location the address and country were read from.
			expect(facts.get('Location')).toBe(job.location!)
			expect({ city: board.city, country: board.country }).toEqual({
				city: data.jobLocation?.address.addressLocality,
				country: data.jobLocation?.address.addressCountry ?? (data.applicantLocationRequirements && board.country),
			})
			expect(facts.has('Minimum experience')).toBe(data.experienceRequirements !== undefined)
			expect(facts.get('Posted')).toBe(new Date(data.datePosted).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' }))
		}
		expect(pages.map((p) => p.facts.get('Pay'))).toEqual(['$120,000 - $150,000 per year', 'from $70 per hour', 'up to $95 per hour', undefined])
		expect(pages.map((p) => p.facts.get('Employment type'))).toEqual(['Full-time', 'Part-time', 'Temporary', undefined])
		// The vendor's contract type is shown when it says more than the employment type ("Fulltime" does not).
		expect(pages[0]!.facts.has('Contract type')).toBe(false)
		const corpToCorp = await jobPageOf(ws, { location: 'Austin, TX', contractType: 'C2C' })
		expect([corpToCorp.facts.get('Employment type'), corpToCorp.facts.get('Contract type')]).toEqual(['Contract', 'C2C'])
		expect(pages.map((p) => feed.find((j) => String(j.url).endsWith(`/jobs/${p.slug}`)).country)).toEqual(['US', 'CA', 'CA', 'US'])
		// The visible pay is in the page's text, not only in its data.
		expect(pages[0]!.html.replace(/<script[\s\S]*?<\/script>/g, '').replace(/<[^>]*>/g, '')).toContain('$120,000 - $150,000 per year')
	})
})

describe('a job without a description', () => {
	test('its summary is the description in the data and the feeds, escaped, its paragraphs and line breaks kept', async () => {
		const ws = await newWorkspace()
		const summary = 'On call one week in four.\nRemote within the US.\n\nAsk <us> & apply.'
		const { slug, postings } = await jobPageOf(ws, { location: 'Austin, TX', summary, description: null })
		const expected = '<p>On call one week in four.<br>Remote within the US.</p><p>Ask &lt;us&gt; &amp; apply.</p>'
		expect(postings[0].description).toBe(expected)
		const feed = new XMLParser({ isArray: (name) => name === 'job' }).parse((await call('GET', `/careers/${ws.slug}/feeds/indeed.xml`)).text).source
			.job as any[]
		expect(feed.find((j) => String(j.url).endsWith(`/jobs/${slug}`)).description).toBe(expected)
	})
})

describe('the location parser', () => {
	test('reads city, state, postal code and country from common shapes', () => {
		expect(parseLocation('Charlotte, NC')).toEqual({ locality: 'Charlotte', region: 'NC', country: 'US', postalCode: null, remote: false })
		expect(parseLocation('Austin, Texas 78701')).toMatchObject({ locality: 'Austin', region: 'TX', postalCode: '78701', country: 'US' })
		expect(parseLocation('New York, NY, USA')).toMatchObject({ locality: 'New York', region: 'NY', country: 'US' })
		expect(parseLocation('Remote - Denver, CO')).toMatchObject({ locality: 'Denver', region: 'CO', remote: true })
		expect(parseLocation('Remote (US)')).toMatchObject({ locality: null, region: null, country: 'US', remote: true })
		expect(parseLocation('London, UK')).toMatchObject({ locality: 'London', region: null, country: null })
		expect(parseLocation(null)).toMatchObject({ locality: null, remote: false })
		// A line break inside a part (a vendor's text is anything): it threw, and the publish answered 500.
		expect(parseLocation('Charlotte,\nNC 28202')).toMatchObject({ region: 'NC', postalCode: '28202' })
		// The state at the end after a space, optionally followed by a ZIP code.
		expect(parseLocation('Seattle WA')).toEqual({ locality: 'Seattle', region: 'WA', country: 'US', postalCode: null, remote: false })
		expect(parseLocation('Denver CO 80202')).toMatchObject({ locality: 'Denver', region: 'CO', postalCode: '80202' })
		expect(parseLocation('Charleston West Virginia')).toMatchObject({ locality: 'Charleston', region: 'WV' })
		expect(parseLocation('Kansas City Missouri, USA')).toMatchObject({ locality: 'Kansas City', region: 'MO', country: 'US' })
		// A code there is written in capitals: "or" is a word.
		expect(parseLocation('Remote or Hybrid')).toMatchObject({ region: null })
		expect(parseLocation('Portland or Seattle')).toMatchObject({ region: null })
	})

	test('the first state named is the place: a second state, other states after a slash or a country after it are none', () => {
		const place = (text: string) => {
			const { locality, region, country, postalCode } = parseLocation(text)
			return { text, locality, region, country, postalCode }
		}
		for (const [text, locality, region, postalCode] of [
			// The last state won: "Baltimore, md, TX" was in Texas, so ?location=MD missed it and the feeds said TX.
			['Baltimore, md, TX', 'Baltimore', 'MD', null],
			['Baltimore, MD, TX', 'Baltimore', 'MD', null],
			['Baltimore, MD, Texas', 'Baltimore', 'MD', null],
			['MD, TX', null, 'MD', null],
			['Austin, TX; Dallas, TX', 'Austin', 'TX', null],
			['Seattle WA, Portland OR', 'Seattle', 'WA', null],
			['Maryland, Virginia', null, 'MD', null],
			['Kansas City, MO/KS', 'Kansas City', 'MO', null],
			['Kansas City, MO / KS 64105', 'Kansas City', 'MO', '64105'],
			['St. Louis, MO, USA', 'St. Louis', 'MO', null],
			['Austin, Texas', 'Austin', 'TX', null],
			['New York, NY 10001', 'New York', 'NY', '10001'],
			['Hybrid (Chicago, IL)', 'Chicago', 'IL', null],
			// A state's name before a part that is a state's code is a town there, not a state of its own.
			['Washington, DC', 'Washington', 'DC', null],
			['Washington, (DC)', 'Washington', 'DC', null],
			['Fort Washington, MD', 'Fort Washington', 'MD', null],
			['Indiana, PA 15701', 'Indiana', 'PA', '15701'],
			['New York, New York', 'New York', 'NY', null],
		] as const)
			expect(place(text)).toEqual({ text, locality, region, country: 'US', postalCode })
		expect(parseLocation('Remote - US')).toEqual({ locality: null, region: null, country: 'US', postalCode: null, remote: true })
		expect(parseLocation('Washington')).toMatchObject({ locality: null, region: 'WA' })
	})

	test('a work arrangement, an instruction or a no-place word is never published as the town', () => {
		const town = (text: string) => parseLocation(text).locality
		// Work-arrangement words aside, the place is read.
		expect(parseLocation('Hybrid - Seattle, WA')).toMatchObject({ locality: 'Seattle', region: 'WA', country: 'US' })
		expect(parseLocation('On-site: Austin, TX')).toMatchObject({ locality: 'Austin', region: 'TX' })
		expect(parseLocation('Seattle, WA (hybrid)')).toMatchObject({ locality: 'Seattle', region: 'WA' })
		expect(parseLocation('Austin, TX - Onsite')).toMatchObject({ locality: 'Austin', region: 'TX' })
		// The District written with dots is the District, not Washington state.
		expect(parseLocation('Washington, D.C.')).toMatchObject({ locality: 'Washington', region: 'DC', country: 'US' })
		expect(parseLocation('Washington D.C. 20001')).toMatchObject({ locality: 'Washington', region: 'DC', postalCode: '20001' })
		// An instruction names the state, and no town.
		expect(parseLocation('Remote (US) - must be in CA')).toMatchObject({ locality: null, region: 'CA', country: 'US', remote: true })
		for (const text of [
			'N/A',
			'TBD',
			'To be determined',
			'Multiple locations',
			'Various',
			'Nationwide',
			'US or Canada',
			'Portland or Seattle',
			'Remote or Hybrid',
		])
			expect({ text, town: town(text) }).toEqual({ text, town: null })
		// Real towns stay towns, a city without its state too.
		for (const [text, name] of [
			['Remote - Toronto', 'Toronto'],
			['Chicago', 'Chicago'],
			['Truth or Consequences, NM', 'Truth or Consequences'],
			['Lake in the Hills, IL', 'Lake in the Hills'],
			['Winston-Salem, NC', 'Winston-Salem'],
			["Coeur d'Alene, ID", "Coeur d'Alene"],
			['St. Louis, MO', 'St. Louis'],
		])
			expect({ text, town: town(text) }).toEqual({ text, town: name })
	})

	test('reads any text without throwing: the naughty strings, any characters', () => {
		for (const text of NAUGHTY) expect(() => parseLocation(text)).not.toThrow()
		fc.assert(
			fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
				parseLocation(text)
			}),
			{ numRuns: 500 },
		)
	})
})
