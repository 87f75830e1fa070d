/** Staffing lookups: the service rules, the owners' and admins' page, the CLI and the seed. */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { runCommand } from '../../core/cli.ts'
import { activityFor } from '../activity/index.ts'
import { operatorActor, personActor } from '../auth/index.ts'
import { newPerson, newWorkspace, testDeps } from '../../tests/helpers.ts'
import { signedIn } from '../../tests/portal.ts'
import { addLookup, listLookups, removeLookup } from './index.ts'
import { seedLookups } from './seed.ts'

setDefaultTimeout(30_000)
beforeAll(() => testDeps())

describe('lookup values', () => {
	test('unique per kind without regard to case; removed values are not listed and may come back; the query matches literally', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const op = operatorActor(ws)
		const me = await personActor(deps, ws.slug, (await newPerson(ws, 'hiring_manager')).email)
		const infosys = await addLookup(deps, op, { kind: 'implementation_partner', name: '  Infosys   Ltd ' })
		expect(infosys.name).toBe('Infosys Ltd')
		await expect(addLookup(deps, op, { kind: 'implementation_partner', name: 'INFOSYS LTD' })).rejects.toMatchObject({ code: 'CONFLICT' })
		// The same name in another list is fine.
		await addLookup(deps, op, { kind: 'client', name: 'Infosys Ltd' })
		await addLookup(deps, op, { kind: 'implementation_partner', name: '100% Talent_Co' })
		await expect(addLookup(deps, op, { kind: 'implementation_partner', name: 'x'.repeat(121) })).rejects.toMatchObject({ code: 'VALIDATION' })
		// One line of visible text, the rule of every name people type: nothing visible or a line break is refused, direction controls dropped.
		for (const name of ['\u200b', 'Evil\nCo', 'red\u001b[31m'])
			await expect(addLookup(deps, op, { kind: 'client', name })).rejects.toMatchObject({ code: 'VALIDATION' })
		expect((await addLookup(deps, op, { kind: 'client', name: 'Glo\u202ebex\u200b' })).name).toBe('Globex')
		await expect(addLookup(deps, op, { kind: 'partner', name: 'X' })).rejects.toMatchObject({ code: 'VALIDATION' })

		expect((await listLookups(deps, me, { kind: 'implementation_partner', limit: 25 })).values.map((v) => v.name)).toEqual(['100% Talent_Co', 'Infosys Ltd'])
		expect((await listLookups(deps, me, { kind: 'implementation_partner', query: '%', limit: 25 })).values.map((v) => v.name)).toEqual(['100% Talent_Co'])
		expect((await listLookups(deps, me, { kind: 'implementation_partner', query: 'o_c', limit: 25 })).values).toHaveLength(0)

		await removeLookup(deps, op, infosys.id)
		expect((await listLookups(deps, me, { kind: 'implementation_partner', limit: 25 })).values.map((v) => v.name)).toEqual(['100% Talent_Co'])
		await expect(removeLookup(deps, op, infosys.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
		await addLookup(deps, op, { kind: 'implementation_partner', name: 'Infosys Ltd' })
		// Another workspace's lists are its own.
		const elsewhere = await newWorkspace()
		const stranger = await personActor(deps, elsewhere.slug, (await newPerson(elsewhere, 'owner')).email)
		expect((await listLookups(deps, stranger, { kind: 'implementation_partner', limit: 25 })).values).toEqual([])
		await expect(removeLookup(deps, stranger, infosys.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
	})

	test('paging keeps working when the last value seen is removed', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const op = operatorActor(ws)
		const me = await personActor(deps, ws.slug, (await newPerson(ws, 'recruiter')).email)
		const added = []
		for (const n of ['Echo', 'Alpha', 'Delta', 'Bravo', 'Charlie']) added.push(await addLookup(deps, op, { kind: 'client', name: n }))
		const first = await listLookups(deps, me, { kind: 'client', limit: 2 })
		expect(first.values.map((v) => v.name)).toEqual(['Alpha', 'Bravo'])
		await removeLookup(deps, op, first.values[1]!.id)
		const second = await listLookups(deps, me, { kind: 'client', limit: 2, cursor: first.nextCursor! })
		expect(second.values.map((v) => v.name)).toEqual(['Charlie', 'Delta'])
		const third = await listLookups(deps, me, { kind: 'client', limit: 2, cursor: second.nextCursor! })
		expect(third.values.map((v) => v.name)).toEqual(['Echo'])
		expect(third.nextCursor).toBeNull()
	})
})

describe('the lookups page', () => {
	test('owners and admins add and remove values (logged); other roles are refused', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const admin = await signedIn(await newPerson(ws, 'admin'))
		const page = await admin.get('/lookups')
		expect(page.status).toBe(200)
		expect(page.text).toContain('Implementation partners')
		const added = await admin.submit('/lookups', { kind: 'client', name: 'Harbor <Mutual>' })
		expect(added.redirectedTo).toBe('/lookups?done=added-client#list-client')
		expect(added.text).toContain('The name was added to clients.')
		expect(added.text).toContain('Harbor &lt;Mutual&gt;')
		const duplicate = await admin.post('/lookups', { kind: 'client', name: 'harbor <mutual>' })
		expect(duplicate.status).toBe(409)
		expect(duplicate.text).toContain('already in the clients list')
		const id = added.text.match(/action="\/lookups\/([^/]+)\/remove"/)![1]!
		const removed = await admin.submit(`/lookups/${id}/remove`)
		expect(removed.text).toContain('The name was removed from clients.')
		expect((await activityFor(deps.db, ws.id, 'staffing_lookup', id)).map((a) => a.action)).toEqual(['lookup.added', 'lookup.removed'])
		for (const role of ['recruiter', 'hiring_manager', 'viewer']) {
			const other = await signedIn(await newPerson(ws, role))
			expect((await other.get('/lookups')).status).toBe(403)
			expect((await other.post('/lookups', { kind: 'client', name: 'X' })).status).toBe(403)
		}
	})
})

describe('the lookup commands and the seed', () => {
	test('lookup add, list and remove; the seed fills every list once', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const added = await runCommand(deps, 'lookup add', { workspace: ws.slug, kind: 'vendor', name: 'Summit Bridge' })
		const id = (added.json.lookup as { id: string }).id
		expect((await runCommand(deps, 'lookup list', { workspace: ws.slug, kind: 'vendor' })).json.lookups).toEqual([
			expect.objectContaining({ id, name: 'Summit Bridge' }),
		])
		await runCommand(deps, 'lookup remove', { workspace: ws.slug, id })
		expect((await runCommand(deps, 'lookup list', { workspace: ws.slug })).lines).toEqual(['No lookup values.'])

		await seedLookups(deps, ws)
		const once = (await runCommand(deps, 'lookup list', { workspace: ws.slug })).json.lookups as { kind: string }[]
		await seedLookups(deps, ws)
		const twice = (await runCommand(deps, 'lookup list', { workspace: ws.slug })).json.lookups
		expect(twice).toEqual(once)
		expect(new Set(once.map((l) => l.kind))).toEqual(new Set(['vendor', 'implementation_partner', 'client']))
		expect(once.length).toBeGreaterThan(25)
	})
})
