/**
 * Vendors as recruiters see them: counts, contact, submission method, document rules; the operator
 * command that sets them, addresses kept in their normal form (core/email.ts).
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { Actor } from '../../core/actor.ts'
import { runCommand } from '../../core/cli.ts'
import { UsageError } from '../../core/module.ts'
import { operatorActor, personActor } from '../auth/index.ts'
import { newPerson, newVendor, newWorkspace, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { newVendorJob } from '../../tests/staffing-fixtures.ts'
import { AppError } from '../../core/errors.ts'
import { createVendor } from './service.ts'
import { getVendor, listVendors, parseRules, requiredDocuments, updateVendorProfile } from './index.ts'

setDefaultTimeout(30_000)
beforeAll(() => testDeps())

async function recruiterOf(ws: TestWorkspace): Promise<Actor> {
	const p = await newPerson(ws, 'recruiter')
	return personActor(await testDeps(), ws.slug, p.email)
}

describe('list_vendors and get_vendor', () => {
	test('A to Z with open-job counts, paged; another workspace’s vendor is not found', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const me = await recruiterOf(ws)
		const names = ['delta Partners', 'Alpha Staffing', 'Charlie IT', 'Bravo Tech']
		const ids: Record<string, string> = {}
		for (const n of names) ids[n] = (await newVendor(ws, n)).vendorId
		await newVendorJob(ws, { vendorId: ids['Bravo Tech']!, status: 'Open' })
		await newVendorJob(ws, { vendorId: ids['Bravo Tech']!, status: 'Open' })
		await newVendorJob(ws, { vendorId: ids['Bravo Tech']!, status: 'Closed' })
		await newVendorJob(ws, { vendorId: ids['Bravo Tech']!, status: 'Draft' })

		const first = await listVendors(deps, me, { limit: 3 })
		expect(first.vendors.map((v) => v.name)).toEqual(['Alpha Staffing', 'Bravo Tech', 'Charlie IT'])
		expect(first.vendors[1]).toMatchObject({ openJobCount: 2, submissionCount: 0, submissionMethod: null, apiAccess: true })
		const second = await listVendors(deps, me, { limit: 3, cursor: first.nextCursor! })
		expect(second.vendors.map((v) => v.name)).toEqual(['delta Partners'])
		expect(second.nextCursor).toBeNull()
		// A cursor is bound to the person who got it.
		await expect(listVendors(deps, await recruiterOf(ws), { limit: 3, cursor: first.nextCursor! })).rejects.toMatchObject({ code: 'VALIDATION' })

		const bravo = await getVendor(deps, me, ids['Bravo Tech']!)
		expect(bravo).toMatchObject({
			jobCount: 4,
			openJobCount: 2,
			contact: { name: null, email: null, phone: null },
			submission: { method: null, email: null, portalUrl: null },
			documentRules: { always: [], byWorkAuthorization: {} },
			lastSubmittedAt: null,
		})
		await expect(getVendor(deps, await recruiterOf(await newWorkspace()), ids['Bravo Tech']!)).rejects.toMatchObject({ code: 'NOT_FOUND' })
	})
})

describe('a vendor’s name and contact are one line of visible text', () => {
	test('`vendor create` refuses a line break, an ESC or nothing visible; direction controls are dropped', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const create = (name: string) => runCommand(deps, 'vendor create', { workspace: ws.slug, name }).catch((e: AppError) => e)
		for (const [name, message] of [
			['Evil\nVendor', 'must be one line, without control characters'],
			['red\u001b[31m', 'must be one line, without control characters'],
			['\u200b', 'must be 1 to 120 characters'],
		]) {
			const refused = await create(name)
			expect([name, refused instanceof AppError ? refused.fields : 'accepted']).toEqual([name, [{ field: 'name', message }]])
		}
		const { vendorId } = await createVendor(deps, operatorActor(ws), { name: 'Key\u202estone\u200b Staffing' })
		expect((await getVendor(deps, await recruiterOf(ws), vendorId)).name).toBe('Keystone Staffing')
		await expect(runCommand(deps, 'vendor set-submission', { vendor: vendorId, 'contact-name': 'Kim\r\nKey' })).rejects.toMatchObject({
			code: 'VALIDATION',
			fields: [{ field: 'contactName', message: 'must be one line, without control characters' }],
		})
		await runCommand(deps, 'vendor set-submission', { vendor: vendorId, 'contact-name': 'Kim \u202eKey\u200b' })
		expect((await getVendor(deps, await recruiterOf(ws), vendorId)).contact.name).toBe('Kim Key')
	})
})

describe('vendor set-submission (CLI)', () => {
	test('sets contact, method and rules; choosing a portal clears the e-mail address; bad input is refused', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const { vendorId } = await newVendor(ws, 'Keystone')
		const set = await runCommand(deps, 'vendor set-submission', {
			vendor: vendorId,
			email: 'subs@keystone.example',
			'contact-name': 'Kim Key',
			'contact-phone': '+1 404 555 0100',
			rules: '{"always":["dl"],"byWorkAuthorization":{"H-1B":["visa","i94"]}}',
		})
		expect(set.lines[0]).toBe('Updated Keystone: submissions by e-mail to subs@keystone.example; documents always: dl.')
		const me = await recruiterOf(ws)
		expect(await getVendor(deps, me, vendorId)).toMatchObject({
			submissionMethod: 'email',
			contact: { name: 'Kim Key', phone: '+1 404 555 0100' },
			documentRules: { always: ['dl'], byWorkAuthorization: { H1B: ['visa', 'i94'] } },
		})

		await runCommand(deps, 'vendor set-submission', { vendor: vendorId, portal: 'https://vms.keystone.example' })
		expect((await getVendor(deps, me, vendorId)).submission).toEqual({ method: 'portal', email: null, portalUrl: 'https://vms.keystone.example' })

		await expect(runCommand(deps, 'vendor set-submission', { vendor: vendorId, email: 'a@b.example', portal: 'https://x.example' })).rejects.toBeInstanceOf(
			UsageError,
		)
		await expect(runCommand(deps, 'vendor set-submission', { vendor: vendorId })).rejects.toBeInstanceOf(UsageError)
		await expect(runCommand(deps, 'vendor set-submission', { vendor: vendorId, rules: 'not json' })).rejects.toBeInstanceOf(UsageError)
		await expect(runCommand(deps, 'vendor set-submission', { vendor: vendorId, email: 'not an address' })).rejects.toMatchObject({
			code: 'VALIDATION',
			fields: [{ field: 'submissionEmail' }],
		})
		await expect(runCommand(deps, 'vendor set-submission', { vendor: vendorId, portal: 'javascript:alert(1)' })).rejects.toMatchObject({ code: 'VALIDATION' })
		await expect(runCommand(deps, 'vendor set-submission', { vendor: vendorId, rules: '{"always":["passport"]}' })).rejects.toMatchObject({
			code: 'VALIDATION',
			fields: [{ field: 'rules.always' }],
		})
	})

	test('contact and submission addresses are kept in their normal form; a domain with no ASCII form is refused on its field, saying so', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const { vendorId } = await newVendor(ws, 'Bücher Staffing')
		const set = await updateVendorProfile(deps, operatorActor(ws), vendorId, {
			contactEmail: ' Kim@Bücher.example ',
			submissionEmail: 'Subs@XN--BCHER-KVA.example.',
		})
		expect([set.contact.email, set.submission.email]).toEqual(['kim@xn--bcher-kva.example', 'subs@xn--bcher-kva.example'])
		await expect(
			updateVendorProfile(deps, operatorActor(ws), vendorId, { contactEmail: 'kim@exa mple.com', submissionEmail: 'subs@xn--a.example' }),
		).rejects.toMatchObject({
			code: 'VALIDATION',
			fields: [
				{ field: 'contactEmail', message: '“exa mple.com” is not a domain name: it has no ASCII (IDNA) form' },
				{ field: 'submissionEmail', message: '“xn--a.example” is not a domain name: it has no ASCII (IDNA) form' },
			],
		})
	})

	test('rules: the vendor’s "always" kinds plus those for the work authorization, in the spec’s order', () => {
		const rules = parseRules({ always: ['workAuth', 'dl'], byWorkAuthorization: { 'h-1b': ['i94', 'visa'], TN: ['i94'] } })
		expect(requiredDocuments(rules, 'H1B')).toEqual(['dl', 'visa', 'i94', 'workAuth'])
		expect(requiredDocuments(rules, 'tn')).toEqual(['dl', 'i94', 'workAuth'])
		expect(requiredDocuments(rules, 'USC')).toEqual(['dl', 'workAuth'])
		expect(requiredDocuments(rules, null)).toEqual(['dl', 'workAuth'])
		expect(() => parseRules(['dl'])).toThrow()
		expect(() => parseRules({ byWorkAuthorization: { H1B: 'visa' } })).toThrow()
	})
})
