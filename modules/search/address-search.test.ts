/**
 * An address typed into search finds its candidate and its conversation in either spelling of the
 * domain (core/email.ts): records keep the ASCII form, people may type the Unicode one, in any case.
 */
import { expect, test } from 'bun:test'
import { normalDomain } from '../../core/email.ts'
import { newPerson, newWorkspace, testDeps, unique } from '../../tests/helpers.ts'
import { newCandidate } from '../../tests/staffing-fixtures.ts'
import { personActor } from '../auth/index.ts'
import { counterpartAt, threadFor } from '../inbox/threads.ts'
import { search } from './service.ts'

test('an address in its Unicode spelling finds the candidate and the conversation stored in ASCII', async () => {
	const deps = await testDeps()
	const ws = await newWorkspace()
	const owner = await newPerson(ws, 'owner')
	const unicode = `bücher-${unique('d')}.example`
	const ascii = normalDomain(unicode)!
	const candidate = await newCandidate(ws, { name: 'Ann Weber', email: `ann@${ascii}` })
	const other = await counterpartAt(deps, ws.id, `orders@${ascii}`, null, async () => new Map())
	const thread = await threadFor(deps.db, ws.id, other, 'Your order', new Date())
	const actor = await personActor(deps, ws.slug, owner.email)

	const byCandidate = await search(deps, actor, `Ann@${unicode.toUpperCase()}`)
	expect(byCandidate.results.map((r) => r.id)).toContain(candidate)
	const byThread = await search(deps, actor, `orders@${unicode}`)
	expect(byThread.results.map((r) => r.id)).toContain(thread)
})
