/**
 * Every public output a search engine or job board reads (the Indeed feed, RSS, the sitemap, the job
 * page's JobPosting data) with job content nobody would write on purpose: `]]>`, `</script>`, control
 * characters, emoji, right-to-left text, HTML and scripts in descriptions, very long text, pay of 0 or
 * a range stored upside down, closed and draft jobs, another workspace's jobs. Jobs are written to the
 * table directly, as rows stored before today's rules or by any writer would be. The XML is checked by
 * xmllint (libxml2), a real parser that refuses what XML 1.0 forbids; the JobPosting data by Google's
 * required and recommended properties and their documented values.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { XMLParser } from 'fast-xml-parser'
import { call, newWorkspace, testApp, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { newPublicJob } from '../../tests/staffing-fixtures.ts'
import { NO_CRITERIA, newMatchingJobs, searchCareers } from './search.ts'

beforeAll(() => testApp(), 120_000)

/** xmllint's verdict on a document: '' when well-formed (and valid against `schema`, when given). */
async function xmllint(text: string): Promise<string> {
	const run = Bun.spawn(['xmllint', '--noout', '--nonet', '-'], { stdin: new TextEncoder().encode(text), stderr: 'pipe', stdout: 'pipe' })
	const [code, errors] = await Promise.all([run.exited, new Response(run.stderr).text()])
	return code === 0 ? '' : errors || `xmllint exited ${code}`
}

const EMPLOYMENT_TYPES = ['FULL_TIME', 'PART_TIME', 'CONTRACTOR', 'TEMPORARY', 'INTERN', 'VOLUNTEER', 'PER_DIEM', 'OTHER']
const UNITS = ['HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR']
/** Characters no output may carry: XML 1.0's forbidden and discouraged controls, and lone surrogates. */
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/

/** What is wrong with a JobPosting by Google's rules (required and recommended properties, their values). */
function postingProblems(d: any): string[] {
	const problems: string[] = []
	for (const key of ['title', 'description', 'datePosted']) if (typeof d[key] !== 'string' || !d[key].trim()) problems.push(key)
	if (!ISO.test(d.datePosted ?? '')) problems.push('datePosted is ISO 8601')
	if (d.validThrough !== undefined && !ISO.test(d.validThrough)) problems.push('validThrough is ISO 8601')
	if (d.validThrough !== undefined && Date.parse(d.validThrough) < Date.now()) problems.push('validThrough is in the future on an open job')
	if (!d.hiringOrganization?.name) problems.push('hiringOrganization.name')
	const remote = d.jobLocationType === 'TELECOMMUTE'
	if (remote ? !d.applicantLocationRequirements?.name : !d.jobLocation?.address) problems.push('jobLocation, or TELECOMMUTE with applicantLocationRequirements')
	if (d.jobLocation && !d.jobLocation.address?.addressCountry) problems.push('jobLocation.address.addressCountry')
	if (d.jobLocationType !== undefined && d.jobLocationType !== 'TELECOMMUTE') problems.push('jobLocationType')
	for (const type of [d.employmentType ?? []].flat()) if (!EMPLOYMENT_TYPES.includes(type)) problems.push(`employmentType ${type}`)
	if (d.baseSalary) {
		const { currency, value } = d.baseSalary
		if (d.baseSalary['@type'] !== 'MonetaryAmount' || !/^[A-Z]{3}$/.test(currency ?? '')) problems.push('baseSalary currency')
		if (!UNITS.includes(value?.unitText)) problems.push('baseSalary unitText')
		const amounts = [value?.value, value?.minValue, value?.maxValue].filter((n) => n !== undefined)
		if (!amounts.length || amounts.some((n) => typeof n !== 'number' || !(n > 0))) problems.push('baseSalary amounts above 0')
		if (value?.minValue !== undefined && value?.maxValue !== undefined && value.minValue > value.maxValue) problems.push('baseSalary minValue ≤ maxValue')
	}
	if (CONTROLS.test(JSON.stringify(d).replace(/\\u00[0-9a-f]{2}/g, (e) => String.fromCharCode(Number.parseInt(e.slice(2), 16)))))
		problems.push('control characters')
	if (/<script|on\w+=/i.test(d.description ?? '')) problems.push('script in description')
	return problems
}

const postingsOf = (html: string) => [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!))

const parser = new XMLParser({ isArray: (name) => name === 'job' || name === 'item' || name === 'url' })

const HOSTILE_TITLE = 'Dev ]]> <![CDATA[ </script><script>alert(1)</script> \u0001\u0008\u000b\u007f\u0085 😀 مهندس برمجيات \u202eevil'
const HOSTILE_DESCRIPTION = `<p>Intro ]]> and <b>bold</b></p><script>alert(2)</script><img src=x onerror=alert(3)>\u0002<p>${'Long text. '.repeat(2500)}</p><p>עברית 🚀</p>`

describe('hostile job content in every public output', () => {
	let ws: TestWorkspace
	let other: TestWorkspace
	const j: Record<string, { id: string; slug: string }> = {}
	beforeAll(async () => {
		ws = await newWorkspace()
		other = await newWorkspace()
		j.hostile = await newPublicJob(ws, { title: HOSTILE_TITLE, description: HOSTILE_DESCRIPTION, location: 'Austin, TX', salaryMin: 0, salaryMax: 0 })
		j.upsideDown = await newPublicJob(ws, {
			title: 'Pay stored upside down',
			location: 'Remote - US',
			schedule: 'Remote',
			salaryMin: 120_000,
			salaryMax: 90_000,
		})
		j.zeroMin = await newPublicJob(ws, { title: 'Pay up to', location: 'Denver, CO', salaryMin: 0, salaryMax: 75 })
		j.rtl = await newPublicJob(ws, { title: 'مطور واجهات أمامية', location: 'Toronto, ON, Canada', summary: 'עבודה מרחוק\u202b 🚀' })
		j.nowhere = await newPublicJob(ws, { title: 'Somewhere', location: 'Multiple locations' })
		j.closed = await newPublicJob(ws, { title: 'Closed job', location: 'Austin, TX', status: 'Closed', closedAt: new Date() })
		j.draft = await newPublicJob(ws, { title: 'Draft job', location: 'Austin, TX', status: 'Draft', publishedAt: null })
		j.elsewhere = await newPublicJob(other, { title: 'Other workspace job', location: 'Austin, TX' })
	})
	const open = () => ['hostile', 'upsideDown', 'zeroMin', 'rtl', 'nowhere'].map((k) => j[k]!.id).sort()

	test('the Indeed feed and RSS are well-formed XML (xmllint) listing exactly the open jobs of the workspace, text cleaned', async () => {
		for (const [path, list] of [
			['indeed.xml', (doc: any) => doc.source.job.map((job: any) => String(job.referencenumber))],
			['jobs.rss', (doc: any) => doc.rss.channel.item.map((item: any) => String(item.guid).split('/').pop())],
		] as const) {
			const res = await call('GET', `/careers/${ws.slug}/feeds/${path}`)
			expect([path, await xmllint(res.text)]).toEqual([path, ''])
			expect(CONTROLS.test(res.text)).toBe(false)
			const listed: string[] = list(parser.parse(res.text))
			const expected = path === 'indeed.xml' ? open() : ['hostile', 'upsideDown', 'zeroMin', 'rtl', 'nowhere'].map((k) => j[k]!.slug).sort()
			expect([path, listed.sort()]).toEqual([path, expected])
			// The title reads as written, less its controls and hidden formatting; the description's script never survives as markup.
			expect(res.text).toContain('مهندس برمجيات')
			expect(res.text).not.toContain('<script>')
			expect(res.text).not.toContain('\u202e')
		}
		const indeed = parser.parse((await call('GET', `/careers/${ws.slug}/feeds/indeed.xml`)).text).source.job as any[]
		const hostile = indeed.find((job) => job.referencenumber === j.hostile!.id)
		expect(hostile.title).toBe('Dev ]]> <![CDATA[ </script><script>alert(1)</script>  😀 مهندس برمجيات evil')
		// Sanitised as a door would have: the script and the image are gone, the text and the allowed markup kept.
		expect(hostile.description).toContain('<p>Intro ]]&gt; and <b>bold</b></p><p>Long text.')
		expect(hostile.salary).toBeUndefined()
		// A range stored upside down is published low to high, as the job page shows it.
		expect(indeed.find((job) => job.referencenumber === j.upsideDown!.id).salary).toBe('$90,000 - $120,000 per year')
	})

	test('the sitemap is well-formed, lists open jobs of every workspace at their own address, and no closed or draft job', async () => {
		const res = await call('GET', '/sitemap.xml')
		expect(await xmllint(res.text)).toBe('')
		const locs = (parser.parse(res.text).urlset.url as any[]).map((u) => String(u.loc))
		for (const key of ['hostile', 'upsideDown', 'rtl', 'nowhere'])
			expect(locs.some((loc) => loc.endsWith(`/careers/${ws.slug}/jobs/${j[key]!.slug}`))).toBe(true)
		expect(locs.some((loc) => loc.endsWith(`/careers/${other.slug}/jobs/${j.elsewhere!.slug}`))).toBe(true)
		for (const key of ['closed', 'draft']) expect(locs.some((loc) => loc.endsWith(`/jobs/${j[key]!.slug}`))).toBe(false)
	})

	test('each open job page carries one JobPosting by Google’s rules, or none when a required property cannot be met', async () => {
		for (const key of ['hostile', 'upsideDown', 'zeroMin', 'rtl', 'nowhere']) {
			const page = await call('GET', `/careers/${ws.slug}/jobs/${j[key]!.slug}`)
			expect([key, page.status]).toEqual([key, 200])
			// The data block never ends early: no `</script` and no `<!--` inside it.
			const blocks = [...page.text.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => m[1]!)
			for (const block of blocks) expect(block).not.toMatch(/<\/script|<!--/i)
			const postings = postingsOf(page.text)
			expect([key, postings.length]).toEqual([key, key === 'nowhere' ? 0 : 1])
			for (const posting of postings) expect([key, postingProblems(posting)]).toEqual([key, []])
			// The page itself shows no script from the job, and no control character.
			expect(page.text).not.toContain('<script>alert')
			expect([key, CONTROLS.test(page.text)]).toEqual([key, false])
		}
		const [upsideDown] = postingsOf((await call('GET', `/careers/${ws.slug}/jobs/${j.upsideDown!.slug}`)).text)
		expect(upsideDown.baseSalary.value).toEqual({ '@type': 'QuantitativeValue', minValue: 90_000, maxValue: 120_000, unitText: 'YEAR' })
		const [zeroMin] = postingsOf((await call('GET', `/careers/${ws.slug}/jobs/${j.zeroMin!.slug}`)).text)
		expect(zeroMin.baseSalary.value).toEqual({ '@type': 'QuantitativeValue', maxValue: 75, unitText: 'HOUR' })
		expect(postingsOf((await call('GET', `/careers/${ws.slug}/jobs/${j.hostile!.slug}`)).text)[0].baseSalary).toBeUndefined()
	})

	test('the search and job alerts give the jobs as the pages show them: whoever renders them (a page, a digest e-mail) gets clean text', async () => {
		const deps = await testDeps()
		const page = await searchCareers(deps, ws.id, NO_CRITERIA, 1)
		const digest = await newMatchingJobs(deps, deps.db, ws.id, NO_CRITERIA, new Date(0), new Date(Date.now() + 60_000), 20)
		for (const found of [page.jobs, digest.jobs]) {
			const hostile = found.find((job) => job.id === j.hostile!.id)!
			expect(hostile.title).toBe('Dev ]]> <![CDATA[ </script><script>alert(1)</script>  😀 مهندس برمجيات evil')
			expect(hostile.description).not.toContain('<script')
			expect(found.find((job) => job.id === j.rtl!.id)!.summary).toBe('עבודה מרחוק 🚀')
		}
	})

	test('a closed job’s page says so and carries no JobPosting; a draft and another workspace’s job are not found here', async () => {
		const closed = await call('GET', `/careers/${ws.slug}/jobs/${j.closed!.slug}`)
		expect(closed.status).toBe(410)
		expect(closed.text).toContain('This job is no longer open')
		expect(postingsOf(closed.text)).toEqual([])
		expect((await call('GET', `/careers/${ws.slug}/jobs/${j.draft!.slug}`)).status).toBe(404)
		expect((await call('GET', `/careers/${ws.slug}/jobs/${j.elsewhere!.slug}`)).status).toBe(404)
		expect((await call('GET', `/careers/${ws.slug}/jobs/${j.elsewhere!.id}`)).status).toBe(404)
	})
})
