/**
 * Text the calling person wrote themselves comes back labelled `writtenBy: "self"`, a colleague's as
 * "colleague" (notes, rating comments, to-dos, scorecard notes, messages we sent), and a
 * conversation's subject is labelled with whoever wrote the message that began it: the counterpart,
 * a colleague, or the reader.
 */
import { expect, test } from 'bun:test'
import { personActor } from '../../modules/auth/index.ts'
import { getCandidate } from '../../modules/candidates/candidate-service.ts'
import { addNote } from '../../modules/candidates/notes.ts'
import { candidateMessages } from '../../modules/inbox/candidate-section.ts'
import { inboxSearchProvider } from '../../modules/inbox/contributions.ts'
import { getThread, listThreads } from '../../modules/inbox/service.ts'
import { appendMessage, threadFor } from '../../modules/inbox/threads.ts'
import { newPerson, newWorkspace, testDeps, unique } from '../helpers.ts'
import { newApplication, newCandidate, newVendorJob } from '../staffing-fixtures.ts'

async function world() {
	const deps = await testDeps()
	const ws = await newWorkspace(deps)
	const [me, colleague] = [await newPerson(ws, 'recruiter', {}, deps), await newPerson(ws, 'recruiter', {}, deps)]
	const actors = { me: await personActor(deps, ws.slug, me.email), colleague: await personActor(deps, ws.slug, colleague.email) }
	return { deps, ws, actors }
}

test('my own note is "self", a colleague’s "colleague"', async () => {
	const { deps, ws, actors } = await world()
	const candidateId = await newCandidate(ws, { name: 'Nia Notes' }, deps)
	await newApplication(ws, candidateId, await newVendorJob(ws, {}, deps), {}, deps)
	await addNote(deps, actors.me, { candidateId, text: 'Mine: call back Monday', private: false })
	await addNote(deps, actors.colleague, { candidateId, text: 'Theirs: strong on Spark', private: false })
	const labels = async (actor: typeof actors.me) =>
		Object.fromEntries(((await getCandidate(deps, actor, candidateId)) as any).notes.map((n: any) => [n.body.text, n.body.writtenBy]))
	expect(await labels(actors.me)).toEqual({ 'Mine: call back Monday': 'self', 'Theirs: strong on Spark': 'colleague' })
	expect(await labels(actors.colleague)).toEqual({ 'Mine: call back Monday': 'colleague', 'Theirs: strong on Spark': 'self' })
})

test('a conversation’s subject is labelled with who began it; what we sent is the reader’s own or a colleague’s', async () => {
	const { deps, ws, actors } = await world()
	const conversation = async (name: string, first: 'colleague' | 'candidate') => {
		const email = `${unique('c')}@example.test`
		const candidateId = await newCandidate(ws, { name, email }, deps)
		const counterpart = { key: `candidate:${candidateId}`, type: 'candidate' as const, candidateId, vendorId: null, name, address: email }
		const subject = `${name} start date`
		const threadId = await threadFor(deps.db, ws.id, counterpart, subject, new Date())
		const base = { workspaceId: ws.id, threadId, channel: 'email' as const, subject, messageId: null }
		const ours = {
			...base,
			direction: 'out' as const,
			from: 'team@benchline.test',
			to: email,
			text: 'When can you start?',
			sentByUserId: actors.colleague.userId,
		}
		const theirs = {
			...base,
			direction: 'in' as const,
			from: email,
			to: 'team@benchline.test',
			text: 'In two weeks.',
			sender: { writtenBy: 'candidate' as const, counterpart: true },
		}
		const [a, b] = first === 'colleague' ? [ours, theirs] : [theirs, ours]
		await appendMessage(deps.db, { ...a, at: new Date(Date.now() - 60_000) })
		await appendMessage(deps.db, { ...b, at: new Date() })
		return { threadId, candidateId }
	}
	const { threadId: started } = await conversation('Cole Colleague', 'colleague')
	const { threadId: answered, candidateId: cara } = await conversation('Cara Candidate', 'candidate')
	const subjects = async (actor: typeof actors.me) =>
		Object.fromEntries(
			(await listThreads(deps, actor, { limit: 100 })).threads.map((t) => [t.id, { subject: t.subject.writtenBy, snippet: t.snippet.writtenBy }]),
		)
	expect(await subjects(actors.me)).toEqual({
		[started]: { subject: 'colleague', snippet: 'candidate' },
		[answered]: { subject: 'candidate', snippet: 'colleague' },
	})
	expect(await subjects(actors.colleague)).toEqual({
		[started]: { subject: 'self', snippet: 'candidate' },
		[answered]: { subject: 'candidate', snippet: 'self' },
	})
	const thread = await getThread(deps, actors.colleague, started)
	expect(thread.messages.map((m) => m.text.writtenBy)).toEqual(['self', 'candidate'])
	expect((await getThread(deps, actors.me, started)).messages.map((m) => m.text.writtenBy)).toEqual(['colleague', 'candidate'])
	// The same words wherever they are read: the candidate page's messages and a search hit's snippet.
	const onCandidatePage = async (actor: typeof actors.me) => (await candidateMessages(deps, actor, cara)).map((m) => m.preview.writtenBy)
	expect(await onCandidatePage(actors.colleague)).toEqual(['self', 'candidate'])
	expect(await onCandidatePage(actors.me)).toEqual(['colleague', 'candidate'])
	const hit = async (actor: typeof actors.me) => (await inboxSearchProvider.search(deps, actor, 'Cara Candidate', 5))!.hits.find((h) => h.id === answered)
	expect((await hit(actors.colleague))!.snippet.writtenBy).toBe('self')
	expect((await hit(actors.me))!.snippet.writtenBy).toBe('colleague')
})
