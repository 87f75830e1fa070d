/**
 * Jobs that share a title are named with what tells them apart (where, for which vendor, under which
 * reference; else their careers address) wherever a job is named: tool results, record pages,
 * activity sentences. A title no other job of the workspace has stays as it is.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { newPersonWithToken, newWorkspace, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { callTool } from '../../tests/mcp/rpc.ts'
import { portalApp, signedIn } from '../../tests/portal.ts'
import { newApplication, newCandidate, newSubmissionVendor, newVendorJob } from '../../tests/staffing-fixtures.ts'
import { jobLabels } from './service.ts'
import { jobs } from './table.ts'

const TITLE = 'Data Engineer (Snowflake)'
let ws: TestWorkspace
let ids: { charlotte: string; austin: string; unique: string; twinA: string; twinB: string }

beforeAll(async () => {
	await portalApp()
	const deps = await testDeps()
	ws = await newWorkspace(deps)
	const vendorId = await newSubmissionVendor(ws, { name: 'Acme Staffing' }, deps)
	const job = async (o: { title: string; vendorId?: string; location?: string }) => {
		const id = await newVendorJob(ws, { title: o.title, vendorId: o.vendorId }, deps)
		if (o.location) await deps.db.update(jobs).set({ location: o.location }).where(eq(jobs.id, id))
		return id
	}
	ids = {
		charlotte: await job({ title: TITLE, vendorId, location: 'Charlotte, NC' }),
		austin: await job({ title: TITLE, vendorId, location: 'Austin, TX' }),
		unique: await job({ title: 'Salesforce Architect', vendorId, location: 'Austin, TX' }),
		twinA: await job({ title: 'Java Developer (twin)' }),
		twinB: await job({ title: 'Java Developer (twin)' }),
	}
	// Another workspace's job of the same title does not make this one a twin.
	await newVendorJob(await newWorkspace(deps), { title: 'Salesforce Architect' }, deps)
})

const slugOf = async (id: string) => (await (await testDeps()).db.select({ slug: jobs.slug }).from(jobs).where(eq(jobs.id, id)))[0]!.slug
const refOf = async (id: string) => (await (await testDeps()).db.select({ ref: jobs.vendorJobId }).from(jobs).where(eq(jobs.id, id)))[0]!.ref

describe('job labels', () => {
	test('twins carry location, vendor and reference; twins with none their careers address; a unique title stays as it is', async () => {
		const labels = await jobLabels(await testDeps(), { workspaceId: ws.id }, Object.values(ids))
		const text = (id: string) => labels.get(id)!.text
		expect(text(ids.charlotte)).toBe(`${TITLE} — Charlotte, NC · Acme Staffing · ref ${await refOf(ids.charlotte)}`)
		expect(text(ids.austin)).toBe(`${TITLE} — Austin, TX · Acme Staffing · ref ${await refOf(ids.austin)}`)
		expect(text(ids.unique)).toBe('Salesforce Architect')
		expect(text(ids.twinA)).toBe(`Java Developer (twin) — ${await slugOf(ids.twinA)}`)
		expect(text(ids.twinB)).toBe(`Java Developer (twin) — ${await slugOf(ids.twinB)}`)
		// Vendor-written text: labelled with its author like the title alone was.
		expect(labels.get(ids.charlotte)!.writtenBy).toBe('vendor')
	})

	test('a candidate applied to two twins: the tool result and the candidate page tell the applications apart', async () => {
		const candidateId = await newCandidate(ws, { name: 'Twin Applicant' })
		await newApplication(ws, candidateId, ids.charlotte)
		await newApplication(ws, candidateId, ids.austin)
		const owner = await newPersonWithToken(ws, 'owner')
		const result = JSON.stringify((await callTool(owner.token, 'get_candidate', { candidateId })).structuredContent)
		expect(result).toContain('Charlotte, NC · Acme Staffing')
		expect(result).toContain('Austin, TX · Acme Staffing')
		const page = (await (await signedIn(owner)).get(`/candidates/${candidateId}`)).text
		expect(page).toContain(`${TITLE} — Charlotte, NC · Acme Staffing`)
		expect(page).toContain(`${TITLE} — Austin, TX · Acme Staffing`)
	})

	test('list_jobs gives each job its label next to its title', async () => {
		const owner = await newPersonWithToken(ws, 'owner')
		const listed = (await callTool(owner.token, 'list_jobs', { limit: 50 })).structuredContent.jobs as { id: string; title: unknown; label: unknown }[]
		const byId = new Map(listed.map((j) => [j.id, JSON.stringify(j.label)]))
		expect(byId.get(ids.charlotte)).toContain('Charlotte, NC · Acme Staffing')
		expect(byId.get(ids.unique)).toContain('Salesforce Architect')
		expect(byId.get(ids.unique)).not.toContain('—')
	})

	test('search names twins by their labels, and a unique title as it is', async () => {
		const owner = await newPersonWithToken(ws, 'owner')
		const found = (await callTool(owner.token, 'search', { q: TITLE })).structuredContent as { results: { id: string; title: { text: string } }[] }
		const titleOf = new Map(found.results.map((r) => [r.id, r.title.text]))
		expect(titleOf.get(ids.charlotte)).toBe(`${TITLE} — Charlotte, NC · Acme Staffing · ref ${await refOf(ids.charlotte)}`)
		expect(titleOf.get(ids.austin)).toBe(`${TITLE} — Austin, TX · Acme Staffing · ref ${await refOf(ids.austin)}`)
		const unique = (await callTool(owner.token, 'search', { q: 'Salesforce Architect' })).structuredContent as {
			results: { id: string; title: { text: string } }[]
		}
		expect(unique.results.find((r) => r.id === ids.unique)?.title.text).toBe('Salesforce Architect')
	})
})
