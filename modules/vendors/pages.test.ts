/**
 * The vendors pages (`/vendors`, `/vendors/<id>`, `/vendors/<id>/submissions`) for each role:
 * what `list_vendors` and `get_vendor` show, the vendor's open jobs and submissions (checked against
 * the database), and for owners and admins only, the keys (never the key itself) and API access:
 * Create key (shown once), Revoke key and API access off and on, which change what the REST API
 * answers and are written to the activity log with the portal session.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { callOn, newPerson, newWorkspace, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { links, parsePage, section, tableRows, textOf } from '../../tests/page-reading.ts'
import { portalApp, signedIn, type PortalClient } from '../../tests/portal.ts'
import { newCandidate, newSubmissionVendor, newVendorJob } from '../../tests/staffing-fixtures.ts'
import { personActor } from '../auth/index.ts'
import { applications } from '../candidates/table.ts'
import { vendorSubmissions } from '../documents/table.ts'
import { outbox } from '../outbox/table.ts'
import { createKey, revokeVendorKey, setApiAccess, vendorKeys } from './service.ts'

setDefaultTimeout(60_000)

type Role = 'owner' | 'admin' | 'recruiter' | 'hiring_manager' | 'viewer'
let deps: AppDeps
let app: Awaited<ReturnType<typeof portalApp>>['app']
let ws: TestWorkspace
let vendorId: string
let people: Record<Role, PortalClient>
let openJobs: string[]

/** A submission of a new candidate for a job of the vendor, `minutesAgo` back, with its e-mail's state. */
async function submission(jobId: string, minutesAgo: number, delivery: 'sent' | 'failed' | null, name: string) {
	const candidateId = await newCandidate(ws, { name, resume: false }, deps)
	const applicationId = newId('app')
	await deps.db.insert(applications).values({ id: applicationId, workspaceId: ws.id, candidateId, jobId, stageKey: 'submitted' })
	const outboxId = delivery ? newId('out') : null
	if (outboxId)
		await deps.db.insert(outbox).values({ id: outboxId, workspaceId: ws.id, channel: 'email', to: 'subs@acme.example', text: 'Submission', status: delivery! })
	await deps.db.insert(vendorSubmissions).values({
		id: newId('sub'),
		workspaceId: ws.id,
		applicationId,
		candidateId,
		jobId,
		vendorId,
		documents: ['dl'],
		documentIds: [],
		toAddress: 'subs@acme.example',
		outboxId,
		submittedByName: 'Rita Recruiter',
		submittedAt: new Date(Date.now() - minutesAgo * 60_000),
	})
}

beforeAll(async () => {
	;({ app, deps } = await portalApp())
	deps = await testDeps()
	ws = await newWorkspace(deps)
	vendorId = await newSubmissionVendor(ws, { name: 'Acme Staffing' }, deps)
	openJobs = []
	for (let i = 0; i < 12; i++) {
		const id = await newVendorJob(ws, { vendorId, title: `Acme role ${i}` }, deps)
		await deps.database.rows(sql`update jobs set created_at = now() - ${`${i} hours`}::interval where id = ${id}`)
		openJobs.push(id)
	}
	await newVendorJob(ws, { vendorId, title: 'Acme closed role', status: 'Closed' }, deps)
	await newVendorJob(ws, { vendorId, title: 'Acme draft role', status: 'Draft' }, deps)
	for (let i = 0; i < 27; i++) await submission(openJobs[i % 12]!, i * 10, i % 3 === 0 ? 'sent' : i % 3 === 1 ? 'failed' : null, `Submitted Person ${i}`)
	people = {} as Record<Role, PortalClient>
	for (const role of ['owner', 'admin', 'recruiter', 'hiring_manager', 'viewer'] as const) people[role] = await signedIn(await newPerson(ws, role, {}, deps))
}, 120_000)

describe('who sees which vendor pages', () => {
	test('owners, admins and recruiters open them; hiring managers and viewers are refused; another workspace’s vendor is not found', async () => {
		const paths = ['/vendors', `/vendors/${vendorId}`, `/vendors/${vendorId}/submissions`]
		for (const role of ['owner', 'admin', 'recruiter'] as const)
			for (const p of paths) expect([role, p, (await people[role].get(p)).status]).toEqual([role, p, 200])
		for (const role of ['hiring_manager', 'viewer'] as const)
			for (const p of paths) expect([role, p, (await people[role].get(p)).status]).toEqual([role, p, 403])
		const elsewhere = await newWorkspace(deps)
		const foreign = await newSubmissionVendor(elsewhere, { name: 'Foreign Vendor' }, deps)
		for (const p of [`/vendors/${foreign}`, `/vendors/${foreign}/submissions`, '/vendors/ven_nothing']) {
			const res = await people.owner.get(p)
			expect([p, res.status]).toEqual([p, 404])
			expect(res.text).not.toContain('Foreign Vendor')
		}
		expect((await people.owner.get('/vendors')).text).not.toContain('Foreign Vendor')
	})

	test('the keys and API access are on the page of owners and admins only', async () => {
		for (const role of ['owner', 'admin'] as const) {
			const page = (await people[role].get(`/vendors/${vendorId}`)).text
			expect(page).toContain('API access and keys')
			expect(page).toContain('Create key')
		}
		// (The page's main part: the settings menu has a link to the person's own API access page.)
		const main = (html: string) => html.slice(html.indexOf('<main'))
		const recruiter = main((await people.recruiter.get(`/vendors/${vendorId}`)).text)
		for (const hidden of ['API access', 'Create key', 'Revoke key', 'vk_']) expect(recruiter).not.toContain(hidden)
		expect(main((await people.recruiter.get('/vendors')).text)).not.toContain('API access')
		expect((await people.owner.get('/vendors')).text).toContain('API access on')
	})
})

describe('what the vendor page shows', () => {
	test('contact, submission method and document rules as get_vendor has them; the open jobs, newest first, paged', async () => {
		const owner = people.owner
		const first = await owner.get(`/vendors/${vendorId}`)
		// Addresses carry break points (<wbr>): read as one word.
		const page = parsePage(first.text.replaceAll('<wbr>', ''))
		const contact = textOf(section(page, 'contact-h'))
		for (const fact of ['Vera Vendor', 'vera@acme.example', 'By e-mail to subs', 'Jobs 14 in all, 12 open', 'Last submission']) expect(contact).toContain(fact)
		expect(textOf(section(page, 'rules-h'))).toContain(
			'For every candidate: Driver’s license Work authorization Also, by the candidate’s work authorization: H1B Visa, I-94 record',
		)
		const expected = (
			await deps.database.rows<{ id: string }>(sql`select id from jobs where vendor_id = ${vendorId} and status = 'Open' order by created_at desc, id desc`)
		).map((r) => `/jobs/${r.id}`)
		const shown = links(section(page, 'jobs-h')).filter((l) => l.startsWith('/jobs/'))
		expect(shown).toEqual(expected.slice(0, 10))
		const next = links(section(page, 'jobs-h')).find((l) => l.includes('jobs='))!
		const second = parsePage((await owner.get(next)).text)
		expect(links(section(second, 'jobs-h')).filter((l) => l.startsWith('/jobs/'))).toEqual(expected.slice(10))
		for (const hidden of ['Acme closed role', 'Acme draft role']) expect(first.text).not.toContain(hidden)
		// A cursor made for another list, or altered, is a clear 422.
		expect((await owner.get(`/vendors/${vendorId}?jobs=${encodeURIComponent(next.split('jobs=')[1]!.slice(0, -2))}xx`)).status).toBe(422)
	})

	test('submissions: the newest ten on the page, all of them paged on their own page, with dates and delivery', async () => {
		const rows = await deps.database.rows<{ name: string; title: string; status: string | null }>(
			sql`select c.name, j.title, o.status from vendor_submissions s join candidates c on c.id = s.candidate_id join jobs j on j.id = s.job_id left join outbox o on o.id = s.outbox_id
			where s.vendor_id = ${vendorId} order by s.submitted_at desc, s.id desc`,
		)
		const label = (status: string | null) => (status === 'sent' ? 'Sent' : status === 'failed' ? 'Not delivered' : 'Queued')
		const onPage = tableRows(section(parsePage((await people.recruiter.get(`/vendors/${vendorId}`)).text), 'submissions-h'))
		expect(onPage.map((r) => [r[0], r[1], r.at(-1)])).toEqual(rows.slice(0, 10).map((r) => [r.name, r.title, label(r.status)]))
		expect(onPage[0]![2]).toContain('by Rita Recruiter')
		const all: string[][] = []
		let path: string | undefined = `/vendors/${vendorId}/submissions`
		while (path) {
			const res = await people.recruiter.get(path)
			const p = parsePage(res.text)
			all.push(...tableRows(section(p, 'list-h')))
			path = links(section(p, 'list-h')).find((l) => l.includes('cursor='))
		}
		expect(all.map((r) => [r[0], r.at(-1)])).toEqual(rows.map((r) => [r.name, label(r.status)]))
	})
})

describe('keys and API access (owners and admins)', () => {
	const keyIn = (html: string) => html.match(/<code id="new-key">(bl_vk_[0-9A-Za-z]+)<\/code>/)?.[1]

	test('Create key: shown once after the redirect, works on the REST API, its last use shown; Revoke key: refused from then on; each in the activity log with the portal session', async () => {
		const owner = people.owner
		await owner.get(`/vendors/${vendorId}`)
		const created = await owner.post(`/vendors/${vendorId}/keys`)
		expect([created.status, created.headers.get('location')]).toEqual([303, `/vendors/${vendorId}#api`])
		expect(created.text).not.toContain('bl_vk_')
		const shown = await owner.get(`/vendors/${vendorId}`)
		const key = keyIn(shown.text)!
		expect(key).toBeTruthy()
		expect(shown.text).toContain('it is shown only once')
		const again = await owner.get(`/vendors/${vendorId}`)
		expect(keyIn(again.text)).toBeUndefined()
		expect(again.text).not.toContain(key)
		const [row] = await deps.database.rows<{ id: string }>(
			sql`select id from vendor_api_keys where vendor_id = ${vendorId} order by created_at desc, id desc limit 1`,
		)
		expect(again.text).toContain(`<code>${row!.id}</code>`)
		expect(again.text).toContain(`ends in …${key.slice(-4)}`)

		expect((await callOn(app, 'GET', '/api/v1/jobs', { key })).status).toBe(200)
		// The use is noted off the request's path: it shows within moments.
		let lastUsed = ''
		for (let i = 0; i < 50 && !lastUsed; i++) {
			const rows = tableRows(section(parsePage((await owner.get(`/vendors/${vendorId}`)).text), 'api-h'))
			lastUsed = rows.find((r) => r[0]!.includes(row!.id))![2]!
			if (lastUsed === 'never') {
				lastUsed = ''
				await Bun.sleep(50)
			}
		}
		expect(lastUsed).toMatch(/UTC$/)

		await owner.get(`/vendors/${vendorId}`)
		const revoked = await owner.post(`/vendors/${vendorId}/keys/${row!.id}/revoke`)
		expect([revoked.status, revoked.headers.get('location')]).toEqual([303, `/vendors/${vendorId}?done=key-revoked#api`])
		expect((await owner.get(`/vendors/${vendorId}?done=key-revoked`)).text).toContain('The key was revoked')
		expect((await callOn(app, 'GET', '/api/v1/jobs', { key })).status).toBe(401)
		// Revoking it again changes nothing and logs nothing.
		await owner.get(`/vendors/${vendorId}`)
		expect((await owner.post(`/vendors/${vendorId}/keys/${row!.id}/revoke`)).status).toBe(303)
		const log = await deps.database.rows<{ action: string; kind: string; name: string; detail: { keyId: string } }>(
			sql`select action, credential_kind as kind, credential_name as name, detail from activity where workspace_id = ${ws.id} and target_id = ${vendorId} and detail->>'keyId' = ${row!.id} order by at, seq`,
		)
		expect(log.map((l) => [l.action, l.kind, l.name])).toEqual([
			['vendor.key_created', 'session', 'portal session'],
			['vendor.key_revoked', 'session', 'portal session'],
		])
	})

	test('Create key: shown once is recorded by the server, so the sealed cookie sent again within its two minutes shows nothing (issue 26)', async () => {
		const owner = people.owner
		await owner.get(`/vendors/${vendorId}`)
		expect((await owner.post(`/vendors/${vendorId}/keys`)).status).toBe(303)
		const sealed = owner.cookies.get('bl_new_vendor_key')!
		expect(keyIn((await owner.get(`/vendors/${vendorId}`)).text)).toBeTruthy()
		owner.cookies.set('bl_new_vendor_key', sealed)
		const replayed = await owner.get(`/vendors/${vendorId}`)
		expect(replayed.status).toBe(200)
		expect(keyIn(replayed.text)).toBeUndefined()
	})

	test('API access off refuses every key of the vendor (403), on lets them work again; both logged', async () => {
		const admin = people.admin
		await admin.get(`/vendors/${vendorId}`)
		await admin.post(`/vendors/${vendorId}/keys`)
		const key = keyIn((await admin.get(`/vendors/${vendorId}`)).text)!
		const off = await admin.post(`/vendors/${vendorId}/api-access/off`)
		expect([off.status, off.headers.get('location')]).toEqual([303, `/vendors/${vendorId}?done=api-access-off#api`])
		expect((await callOn(app, 'GET', '/api/v1/jobs', { key })).status).toBe(403)
		const page = await admin.get(`/vendors/${vendorId}?done=api-access-off`)
		expect(page.text).toContain('API access off')
		expect(page.text).toContain('Switch API access on')
		await admin.post(`/vendors/${vendorId}/api-access/on`)
		expect((await callOn(app, 'GET', '/api/v1/jobs', { key })).status).toBe(200)
		const log = await deps.database.rows<{ action: string; kind: string }>(
			sql`select action, credential_kind as kind from activity where workspace_id = ${ws.id} and target_id = ${vendorId} and action like 'vendor.api\\_access%' order by at, seq`,
		)
		expect(log).toEqual([
			{ action: 'vendor.api_access_off', kind: 'session' },
			{ action: 'vendor.api_access_on', kind: 'session' },
		])
	})

	test('no form works without its CSRF token, for a recruiter, or on another vendor’s key', async () => {
		const before = await deps.database.rows<{ n: number }>(sql`select count(*)::int as n from vendor_api_keys where vendor_id = ${vendorId}`)
		const owner = people.owner
		for (const path of [`/vendors/${vendorId}/keys`, `/vendors/${vendorId}/api-access/off`]) {
			const res = await owner.request('POST', path, { form: {} })
			expect([path, res.status]).toEqual([path, 403])
		}
		const recruiter = people.recruiter
		await recruiter.get(`/vendors/${vendorId}`)
		for (const path of [`/vendors/${vendorId}/keys`, `/vendors/${vendorId}/api-access/off`])
			expect([path, (await recruiter.post(path)).status]).toEqual([path, 403])
		expect(await deps.database.rows<{ n: number }>(sql`select count(*)::int as n from vendor_api_keys where vendor_id = ${vendorId}`)).toEqual(before)
		const [{ api_access }] = (await deps.database.rows<{ api_access: boolean }>(sql`select api_access from vendors where id = ${vendorId}`)) as [
			{ api_access: boolean },
		]
		expect(api_access).toBe(true)
		// A key of another vendor, even of the same workspace, is not found through this vendor.
		const other = await newSubmissionVendor(ws, { name: 'Other Vendor' }, deps)
		const [otherKey] = await deps.database.rows<{ id: string }>(sql`select id from vendor_api_keys where vendor_id = ${other}`)
		await owner.get(`/vendors/${vendorId}`)
		expect((await owner.post(`/vendors/${vendorId}/keys/${otherKey!.id}/revoke`)).status).toBe(404)
		expect(
			(await deps.database.rows<{ revoked: boolean }>(sql`select revoked_at is not null as revoked from vendor_api_keys where id = ${otherKey!.id}`))[0]!
				.revoked,
		).toBe(false)
	})
})

test('the key services themselves refuse anyone without vendors:keys (the same rule behind every door)', async () => {
	const recruiter = await personActor(deps, ws.slug, (await newPerson(ws, 'recruiter', {}, deps)).email)
	const [key] = await deps.database.rows<{ id: string }>(sql`select id from vendor_api_keys where vendor_id = ${vendorId} limit 1`)
	for (const attempt of [
		() => createKey(deps, recruiter, vendorId),
		() => revokeVendorKey(deps, recruiter, vendorId, key!.id),
		() => setApiAccess(deps, recruiter, vendorId, false),
		() => vendorKeys(deps, recruiter, vendorId),
	])
		await expect(attempt()).rejects.toMatchObject({ code: 'FORBIDDEN' })
})

test('the vendors list: every vendor A to Z with its open jobs and submissions as the database counts them', async () => {
	const page = parsePage((await people.recruiter.get('/vendors')).text)
	const rows = tableRows(section(page, 'list-h'))
	const expected = await deps.database.rows<{ name: string; open: number; subs: number }>(
		sql`select v.name, (select count(*)::int from jobs j where j.vendor_id = v.id and j.status = 'Open') as open, (select count(*)::int from vendor_submissions s where s.vendor_id = v.id) as subs from vendors v where v.workspace_id = ${ws.id} order by lower(v.name), v.id`,
	)
	expect(rows.map((r) => [r[0], Number(r[2]), Number(r[3])])).toEqual(expected.map((e) => [e.name, e.open, e.subs]))
})
