import { expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { newId } from '../../core/credentials.ts'
import { clock, newPerson, newWorkspace, testDeps } from '../../tests/helpers.ts'
import { cleanUp } from './housekeeping.ts'
import { sessions, signInFailures } from './table.ts'

test('clean-up removes old sign-in failures and expired sessions, keeps recent ones', async () => {
	const deps = await testDeps()
	const ws = await newWorkspace()
	const person = await newPerson(ws, 'recruiter')
	const email = `${newId('x')}@example.test`
	const old = newId('sif')
	const recent = newId('sif')
	await deps.db.insert(signInFailures).values([
		{ id: old, email, address: '10.0.0.1', at: new Date(Date.now() - 2 * 86_400_000) },
		{ id: recent, email, address: '10.0.0.1', at: new Date() },
	])
	const expired = newId('s')
	const live = newId('s')
	await deps.db.insert(sessions).values([
		{ id: expired, userId: person.userId, workspaceId: ws.id, expiresAt: new Date(Date.now() - 1000) },
		{ id: live, userId: person.userId, workspaceId: ws.id, expiresAt: new Date(Date.now() + 86_400_000) },
	])
	clock.reset()
	await cleanUp(deps)
	const failures = await deps.db.select({ id: signInFailures.id }).from(signInFailures).where(eq(signInFailures.email, email))
	expect(failures.map((f) => f.id)).toEqual([recent])
	const left = await deps.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, person.userId))
	expect(left.map((s) => s.id)).toEqual([live])
})
