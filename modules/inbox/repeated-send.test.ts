/**
 * A message sent twice by mistake goes once: New message's form sent twice at once (a double click),
 * a bulk send run again, a reply sent twice. Each was queued and written twice before: two e-mails
 * to the candidate. A different message, or another sender's, still goes.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { newPerson, testApp, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { newCandidate, workspaceWithOwner } from '../../tests/staffing-fixtures.ts'
import { personActor } from '../auth/index.ts'
import { outbox } from '../outbox/table.ts'
import { createTemplate } from '../templates/service.ts'
import { bulkSendMessage } from './bulk-send-service.ts'
import { composeMessage } from './compose.ts'
import { replyToThread } from './service.ts'

setDefaultTimeout(30_000)

let deps: AppDeps
let ws: TestWorkspace
let owner: Actor
let recruiter: Actor

beforeAll(async () => {
	await testApp()
	deps = await testDeps()
	;({ ws, owner } = await workspaceWithOwner(deps))
	recruiter = await personActor(deps, ws.slug, (await newPerson(ws, 'recruiter', {}, deps)).email)
}, 180_000)

const mailTo = (address: string) =>
	deps.db
		.select({ subject: outbox.subject })
		.from(outbox)
		.where(and(eq(outbox.workspaceId, ws.id), eq(outbox.to, address)))

describe('The same message sent twice goes once', () => {
	test('New message sent twice at once: one e-mail, the second answered as repeated in the same conversation', async () => {
		const email = `twice.${ws.slug}@mail.example`
		const candidateId = await newCandidate(ws, { name: 'Tia Twice', email }, deps)
		const input = { candidateId, channel: 'email', subject: 'Hello', body: 'Are you free on Monday?' }
		const both = await Promise.all([composeMessage(deps, owner, input), composeMessage(deps, owner, input)])
		expect(both.map((s) => s.repeated).sort()).toEqual([false, true])
		expect(both[0]!.threadId).toBe(both[1]!.threadId)
		expect(await mailTo(email)).toHaveLength(1)
		// Another text, or another sender, is another message.
		expect((await composeMessage(deps, owner, { ...input, body: 'Or on Tuesday?' })).repeated).toBe(false)
		expect((await composeMessage(deps, recruiter, input)).repeated).toBe(false)
		expect(await mailTo(email)).toHaveLength(3)
	})

	test('a bulk send run again moments later sends nothing more: each record reported unchanged', async () => {
		const emails = ['ana', 'bo'].map((n) => `${n}.bulk.${ws.slug}@mail.example`)
		const candidateIds = await Promise.all(emails.map((email, i) => newCandidate(ws, { name: `Person ${i}`, email }, deps)))
		const template = await createTemplate(deps, owner, {
			name: 'Hello',
			channel: 'email',
			kind: 'transactional',
			subject: 'Hi',
			body: 'Hi {{candidate.firstName}}',
			shared: false,
		})
		const input = { templateId: template.id, applicationIds: [], candidateIds }
		const first = await bulkSendMessage(deps, owner, input)
		expect(first.lines.map((l) => l.result)).toEqual(['done', 'done'])
		const again = await bulkSendMessage(deps, owner, input)
		expect(again.lines.map((l) => [l.result, l.note])).toEqual([
			['unchanged', 'Already sent this message moments ago: not sent again.'],
			['unchanged', 'Already sent this message moments ago: not sent again.'],
		])
		for (const email of emails) expect(await mailTo(email)).toHaveLength(1)
	})

	test('a reply sent twice at once goes once', async () => {
		const email = `reply.${ws.slug}@mail.example`
		const candidateId = await newCandidate(ws, { name: 'Rae Reply', email }, deps)
		const { threadId } = await composeMessage(deps, owner, { candidateId, channel: 'email', subject: 'Start', body: 'First' })
		const both = await Promise.all([replyToThread(deps, owner, threadId, 'Thanks!'), replyToThread(deps, owner, threadId, 'Thanks!')])
		expect(both.map((r) => r.repeated).sort()).toEqual([false, true])
		expect(both[0]!.id).toBe(both[1]!.id)
		expect((await mailTo(email)).map((m) => m.subject).sort()).toEqual(['Re: Start', 'Start'])
	})
})
