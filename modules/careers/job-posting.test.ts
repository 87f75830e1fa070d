/**
 * JobPosting structured data against Google's job-posting guidelines
 * (developers.google.com/search/docs/appearance/structured-data/job-posting): every required
 * property, and the recommended ones the job has, in the documented shapes.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { eq } from 'drizzle-orm'
import { call, newVendor, newWorkspace, testApp, testDeps } from '../../tests/helpers.ts'
import { NAUGHTY } from '../../tests/reliability/arbitraries.ts'
import { parseLocation } from '../jobs/index.ts'
import { jobs } from '../jobs/table.ts'

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

	test('a remote job is TELECOMMUTE with applicantLocationRequirements; pay is a MonetaryAmount with its unit', async () => {
		const ws = await newWorkspace()
		const { apiKey: key } = await newVendor(ws)
		const { data, job } = await postingOf(key, { vendorJobId: 'R', location: 'Remote', schedule: 'Remote' })
		expect(requiredProblems(data)).toEqual([])
		expect(data.jobLocationType).toBe('TELECOMMUTE')
		expect(data.applicantLocationRequirements).toEqual({ '@type': 'Country', name: 'USA' })
		const deps = await testDeps()
		for (const [min, max, unit] of [
			[120_000, 150_000, 'YEAR'],
			[70, 85, 'HOUR'],
		] as const) {
			await deps.db
				.update(jobs)
				.set({ salaryMin: min, salaryMax: max, contractType: 'Fulltime' })
				.where(eq(jobs.slug, new URL(job.url).pathname.split('/').at(-1)!))
			const page = await call('GET', new URL(job.url).pathname)
			const d = JSON.parse(page.text.match(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/)![1]!)
			expect(d.baseSalary).toEqual({
				'@type': 'MonetaryAmount',
				currency: 'USD',
				value: { '@type': 'QuantitativeValue', minValue: min, maxValue: max, unitText: unit },
			})
			expect(UNITS).toContain(d.baseSalary.value.unitText)
			expect(d.employmentType).toBe('FULL_TIME')
		}
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
