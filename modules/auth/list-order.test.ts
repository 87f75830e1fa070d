/**
 * Lists a person or an operator reads come in the same order every time: when the first sort key
 * ties (two workspaces made in the same millisecond or with the same name, two people with the same
 * name), a unique key decides, never the order the database happens to return rows in.
 * Each case inserts its rows out of order, so the table's own order would be a wrong one.
 */
import { expect, test } from 'bun:test'
import { newId } from '../../core/credentials.ts'
import { newWorkspace, testDeps, unique } from '../../tests/helpers.ts'
import { addPerson, invitationsFor, listPeople, listWorkspaces, operatorActor } from './index.ts'
import { invitations, workspaces } from './table.ts'

const SHUFFLED = ['cc', 'aa', 'ee', 'bb', 'dd']

/** Five workspaces with the same name and creation time, made in an order their slugs do not sort in. */
async function twinWorkspaces() {
	const deps = await testDeps()
	const tag = unique('twin')
	const createdAt = new Date('2001-02-03T04:05:06.007Z')
	const slugs = SHUFFLED.map((p) => `${p}-${tag}`)
	for (const slug of slugs) await deps.db.insert(workspaces).values({ id: newId('ws'), slug, name: `Twin Staffing ${tag}`, createdAt })
	return { deps, slugs }
}

test('workspaces made in the same millisecond are listed by slug', async () => {
	const { deps, slugs } = await twinWorkspaces()
	const listed = (await listWorkspaces(deps.db)).map((w) => w.slug).filter((s) => slugs.includes(s))
	expect(listed).toEqual([...slugs].sort())
})

test('people with the same name are listed by e-mail address', async () => {
	const deps = await testDeps()
	const ws = await newWorkspace(deps)
	const tag = unique('alex')
	const emails = SHUFFLED.map((p) => `${p}-${tag}@example.test`)
	for (const email of emails) await addPerson(deps, operatorActor(ws), ws, { email, name: 'Alex Kim', role: 'recruiter', password: 'correct horse battery' })
	const listed = (await listPeople(deps.db, ws.id)).filter((p) => p.name === 'Alex Kim').map((p) => p.email)
	expect(listed).toEqual([...emails].sort())
})

test('invitations from workspaces with the same name are listed by slug', async () => {
	const { deps, slugs } = await twinWorkspaces()
	const home = await newWorkspace(deps)
	const email = `${unique('invited')}@example.test`
	const { userId } = await addPerson(deps, operatorActor(home), home, { email, name: 'Invited Person', role: 'recruiter', password: 'correct horse battery' })
	const ids = new Map((await listWorkspaces(deps.db)).map((w) => [w.slug, w.id]))
	for (const slug of slugs)
		await deps.db.insert(invitations).values({
			id: newId('inv'),
			workspaceId: ids.get(slug)!,
			email,
			name: 'Invited Person',
			role: 'recruiter',
			expiresAt: new Date(deps.now().getTime() + 86_400_000),
		})
	expect((await invitationsFor(deps, userId)).map((i) => i.workspace.slug)).toEqual([...slugs].sort())
})
