/**
 * A 2026-07-28 confirmation binds its yes to the question asked: the same tool, the same arguments
 * (whatever their key order), the same credential, within its time, and once. A no needs no proof.
 * (Over HTTP, with the SDK's own client: tests/mcp/confirmed-writes.test.ts.)
 */
import { expect, test } from 'bun:test'
import type { Actor } from '../actor.ts'
import { newWorkspace, testDeps } from '../../tests/helpers.ts'
import { operatorActor } from '../../modules/auth/index.ts'
import { askToConfirm, type ConfirmContext, confirmationAnswer, confirmState } from './confirm.ts'

const YES = { action: 'accept', content: { confirm: true } }

test('a yes counts for the call it was asked about, once; any other call, credential or replay is asked again', async () => {
	const deps = await testDeps()
	const actor: Actor = operatorActor(await newWorkspace())
	const call = { tool: 'submit_to_vendor', args: { applicationId: 'app_1', documents: ['dl', 'workAuth'] }, actor }
	/** The retried call as the SDK hands it to the tool: the state verified and decoded, the answer beside it. */
	const retry = async (asked: Awaited<ReturnType<typeof askToConfirm>>, answer: unknown = YES): Promise<ConfirmContext> => {
		const decoded = await confirmState(deps.secret).verify(asked.requestState!, {} as never)
		return { mcpReq: { inputResponses: { confirm: answer }, requestState: <T>() => decoded as T } }
	}

	const question = await askToConfirm(deps, 'Submit Mei Chen to Acme?', call)
	const answered = await retry(question)
	// The same arguments in another key order are the same call; then the yes is spent.
	expect(await confirmationAnswer(deps, answered, { ...call, args: { documents: ['dl', 'workAuth'], applicationId: 'app_1' } })).toBe('yes')
	expect(await confirmationAnswer(deps, answered, call)).toBe('none')

	const other = await retry(await askToConfirm(deps, 'Submit Mei Chen to Acme?', call))
	expect(await confirmationAnswer(deps, other, { ...call, args: { ...call.args, applicationId: 'app_2' } })).toBe('none')
	expect(await confirmationAnswer(deps, other, { ...call, tool: 'request_candidate_documents' })).toBe('none')
	expect(await confirmationAnswer(deps, other, { ...call, actor: { ...actor, credential: { ...actor.credential, id: 'another' } } })).toBe('none')
	// Those refusals spent nothing: the call asked about still counts.
	expect(await confirmationAnswer(deps, other, call)).toBe('yes')

	// No question behind the yes: none. A no is a no whatever it carries.
	expect(await confirmationAnswer(deps, { mcpReq: { inputResponses: { confirm: YES } } }, call)).toBe('none')
	expect(await confirmationAnswer(deps, { mcpReq: { inputResponses: { confirm: { action: 'decline' } } } }, call)).toBe('no')
	// A state altered, or minted with another server secret, does not verify.
	await expect(confirmState(deps.secret).verify(`${question.requestState}x`, {} as never)).rejects.toThrow()
	await expect(confirmState(new Uint8Array(32)).verify(question.requestState!, {} as never)).rejects.toThrow()
})
