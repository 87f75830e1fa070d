/**
 * Notes and ratings written in the same millisecond keep the order they were written in: `seq`
 * (insertion order), not the random id, breaks a tie of `created_at`. Each pair is written in one
 * transaction, where `now()` — their `created_at` — is the same, first `…_z…` then `…_a…`, so that
 * their ids sort the other way round.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { newApplication, newCandidate, newVendorJob, workspaceWithOwner } from '../../tests/staffing-fixtures.ts'
import { getApplication } from './application-service.ts'
import { getCandidate } from './candidate-service.ts'
import { notes, ratings } from './table.ts'

setDefaultTimeout(30_000)

let deps: AppDeps
let ws: TestWorkspace
let owner: Actor
let candidateId: string
let applicationId: string

beforeAll(async () => {
	deps = await testDeps()
	;({ ws, owner } = await workspaceWithOwner(deps))
	candidateId = await newCandidate(ws, {}, deps)
	applicationId = await newApplication(ws, candidateId, await newVendorJob(ws, {}, deps), {}, deps)
}, 60_000)

describe('written in the same millisecond', () => {
	test('notes: newest first, the one written last on top (candidate and application alike)', async () => {
		const note = (id: string, body: string) => ({ id, workspaceId: ws.id, candidateId, applicationId, authorUserId: owner.userId!, body })
		await deps.db.transaction(async (tx) => {
			await tx.insert(notes).values(note(`note_z${ws.id}`, 'Written first'))
			await tx.insert(notes).values(note(`note_a${ws.id}`, 'Written second'))
		})
		// One transaction, one `now()`: the same created_at.
		const written = await deps.db.select({ createdAt: notes.createdAt }).from(notes).where(eq(notes.candidateId, candidateId))
		expect(new Set(written.map((n) => n.createdAt.getTime())).size).toBe(1)
		expect((await getCandidate(deps, owner, candidateId)).notes.map((n) => n.body.text)).toEqual(['Written second', 'Written first'])
		expect((await getApplication(deps, owner, applicationId)).notes.map((n) => n.body.text)).toEqual(['Written second', 'Written first'])
	})

	test('ratings: in the order they were given', async () => {
		const rating = (id: string, comment: string) => ({ id, applicationId, userId: owner.userId!, score: 4, comment })
		await deps.db.transaction(async (tx) => {
			await tx.insert(ratings).values(rating(`rat_z${ws.id}`, 'Given first'))
			await tx.insert(ratings).values(rating(`rat_a${ws.id}`, 'Given second'))
		})
		expect((await getApplication(deps, owner, applicationId)).ratings.map((r) => r.comment?.text)).toEqual(['Given first', 'Given second'])
	})
})
