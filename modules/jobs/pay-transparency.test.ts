/**
 * Pay transparency: a publish or change through the REST API of an open job located in a state
 * whose law requires a pay range on postings (or remote) without one is accepted, with a warning
 * naming the state; the careers page invents no range; the portal's job page flags it.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { call, newPerson, newVendor, newWorkspace, testApp, testDeps } from '../../tests/helpers.ts'
import { signedIn } from '../../tests/portal.ts'
import { PAY_TRANSPARENCY_STATES } from './pay-transparency.ts'
import { jobs } from './table.ts'

beforeAll(() => testApp(), 60_000)

const payWarnings = (res: { json: any }) => ((res.json.warnings ?? []) as string[]).filter((w) => w.startsWith('Pay transparency'))

describe('pay transparency', () => {
	test('publish and change in a listed state or remote without a range: accepted with a warning naming the state; elsewhere none', async () => {
		const ws = await newWorkspace()
		const { apiKey: key } = await newVendor(ws)
		const co = await call('POST', '/api/v1/jobs', { key, body: { vendorJobId: 'CO', title: 'Analyst', location: 'Denver, CO' } })
		expect(co.status).toBe(201)
		expect(co.json.job.status).toBe('open')
		expect(payWarnings(co)).toEqual([expect.stringContaining('Colorado (CO) requires a pay range')])
		const tx = await call('POST', '/api/v1/jobs', { key, body: { vendorJobId: 'TX', title: 'Analyst', location: 'Austin, TX' } })
		expect(tx.status).toBe(201)
		expect(tx.json.warnings).toBeUndefined()
		// A change that moves the job into a listed state warns; one that closes it does not.
		const moved = await call('PATCH', '/api/v1/jobs/TX', { key, body: { location: 'Seattle, Washington' } })
		expect(payWarnings(moved)).toEqual([expect.stringContaining('Washington (WA)')])
		// The state written after a space, with or without a ZIP code, is read the same.
		for (const [location, state] of [
			['Seattle WA', 'Washington (WA)'],
			['Denver CO 80202', 'Colorado (CO)'],
		]) {
			const spaced = await call('POST', '/api/v1/jobs', { key, body: { vendorJobId: location, title: 'Analyst', location } })
			expect(payWarnings(spaced)).toEqual([expect.stringContaining(state!)])
		}
		const closed = await call('PATCH', '/api/v1/jobs/TX', { key, body: { status: 'closed' } })
		expect(payWarnings(closed)).toEqual([])
		const remote = await call('POST', '/api/v1/jobs', { key, body: { vendorJobId: 'R', title: 'SRE', location: 'Anywhere in the US', schedule: 'Remote' } })
		expect(payWarnings(remote)).toEqual([expect.stringContaining('A remote job can be filled from states')])
		for (const code of PAY_TRANSPARENCY_STATES) {
			const res = await call('POST', '/api/v1/jobs', { key, body: { vendorJobId: `S-${code}`, title: 'Analyst', location: `Springfield, ${code}` } })
			expect(payWarnings(res)).toEqual([expect.stringContaining(`(${code}) requires a pay range`)])
		}
		// With a range (set in Benchline), the same change draws no warning.
		const deps = await testDeps()
		await deps.db
			.update(jobs)
			.set({ salaryMin: 90_000, salaryMax: 110_000 })
			.where(eq(jobs.slug, new URL(co.json.job.url).pathname.split('/').at(-1)!))
		const again = await call('PATCH', '/api/v1/jobs/CO', { key, body: { summary: 'Now with pay' } })
		expect(payWarnings(again)).toEqual([])
	})

	test('the careers page shows no invented range; the portal job page flags the missing one', async () => {
		const ws = await newWorkspace()
		const { apiKey: key } = await newVendor(ws)
		const res = await call('POST', '/api/v1/jobs', { key, body: { vendorJobId: 'NY', title: 'Analyst', location: 'Brooklyn, NY' } })
		const page = (await call('GET', new URL(res.json.job.url).pathname)).text
		expect(page).not.toMatch(/\$\s?\d/)
		expect(page).not.toContain('baseSalary')
		const deps = await testDeps()
		const [row] = await deps.db
			.select({ id: jobs.id })
			.from(jobs)
			.where(eq(jobs.slug, new URL(res.json.job.url).pathname.split('/').at(-1)!))
		const owner = await signedIn(await newPerson(ws, 'owner'))
		const portal = await owner.get(`/jobs/${row!.id}`)
		expect(portal.status).toBe(200)
		expect(portal.text).toContain('No pay range')
		expect(portal.text).toContain('New York (NY) law requires one')
	})
})
