/**
 * Writes the person confirms: a tool that sends a candidate's data or a message outside the firm
 * (`ToolDef.confirm`) first asks the client's user, showing what goes to whom, and does nothing on
 * "no", cancel or no answer. Only clients that declare they can ask (`elicitation` in their client
 * capabilities) are asked; a client that cannot is not, and the tool runs as it always did.
 *
 * - Protocol revision 2026-07-28: the capabilities come with every request; the tool answers
 *   `input_required` with a form-mode elicitation, the client asks its user and calls again with
 *   the answer (`askToConfirm`, `confirmationAnswer`).
 * - 2025 revisions: the capabilities come once, in `initialize`, and the endpoint is stateless, so
 *   a client that declares `elicitation` there gets an `Mcp-Session-Id` that is no server state
 *   but its declaration sealed for its credential (`sessionFor`); with it on a tool call, the
 *   question (`elicitation/create`) goes out on the call's own stream and the call waits for the
 *   answer the client posts, on whichever instance it lands (`askOnStream`, `answers.ts`).
 */
import { CLIENT_CAPABILITIES_META_KEY, createRequestStateCodec, inputRequired, type RequestStateCodec } from '@modelcontextprotocol/server'
import type { Actor } from '../actor.ts'
import { hashSecret, hmacSha256 } from '../credentials.ts'
import type { AppDeps } from '../deps.ts'
import { sealedBox } from '../sealed-box.ts'
import { issueTicket, useTicket } from '../single-use.ts'
import type { AnswerRelay, PostedAnswer } from './answers.ts'

export const CONFIRM_KEY = 'confirm'

const SCHEMA = {
	type: 'object' as const,
	properties: { confirm: { type: 'boolean' as const, title: 'Go ahead', description: 'Yes: do it now. No: nothing is sent.' } },
	required: ['confirm'],
}

/** What the tool handler's context carries that this needs (the SDK's `ServerContext`). */
export interface ConfirmContext {
	mcpReq?: {
		id?: string | number
		signal?: AbortSignal
		envelope?: Record<string, unknown>
		inputResponses?: Record<string, unknown>
		/** The retried call's `requestState`, as `confirmState().verify` decoded it (undefined when it carried none). */
		requestState?: <T>() => T | undefined
	}
}

/** How long a 2026-07-28 question stays answerable: the client asks its user, then calls again. */
const QUESTION_SECONDS = 600

/**
 * What a question binds, carried signed in the call's `requestState` (the client can read it: hashes
 * and an id only): the very call it was asked about, and a single-use ticket.
 */
interface Asked {
	call: string
	ticket: string
}

/** Objects with their keys in order, so one call's arguments give one text however a client orders them. */
const inOrder = (value: unknown): unknown =>
	Array.isArray(value)
		? value.map(inOrder)
		: value && typeof value === 'object'
			? Object.fromEntries(
					Object.keys(value)
						.sort()
						.map((k) => [k, inOrder((value as Record<string, unknown>)[k])]),
				)
			: value

/** The call a question is about: the tool, its arguments and whose credential, hashed. */
const callDigest = (tool: string, args: unknown, actor: Actor) => hashSecret(JSON.stringify([tool, inOrder(args ?? {}), questionOwner(actor)]))

const codecs = new WeakMap<Uint8Array, RequestStateCodec<Asked>>()
/**
 * The codec of questions' `requestState` (HMAC with a key derived from the server secret, so every
 * instance verifies what another minted; expired after `QUESTION_SECONDS`). Its `verify` goes into
 * every server's options: a forged or expired state is refused by the SDK before any tool runs.
 */
export function confirmState(secret: Uint8Array): RequestStateCodec<Asked> {
	let codec = codecs.get(secret)
	if (!codec) codecs.set(secret, (codec = createRequestStateCodec<Asked>({ key: hmacSha256(secret, 'mcp-confirm-state'), ttlSeconds: QUESTION_SECONDS })))
	return codec
}

/** Whether the calling client said, on this request, that it can ask its user. */
export function clientCanAsk(ctx: ConfirmContext | undefined): boolean {
	const capabilities = ctx?.mcpReq?.envelope?.[CLIENT_CAPABILITIES_META_KEY] as { elicitation?: unknown } | undefined
	return Boolean(capabilities?.elicitation)
}

/**
 * The user's answer carried by a retried call: none yet, yes, or no (declined, cancelled, or
 * unchecked). A yes counts only for the call the question was asked about (same tool, same
 * arguments, same credential) and only once: a yes sent without a question, moved to other
 * arguments, or replayed is no answer, and the person is asked again. A no needs no proof.
 */
export async function confirmationAnswer(
	deps: Pick<AppDeps, 'db' | 'now'>,
	ctx: ConfirmContext | undefined,
	call: { tool: string; args: unknown; actor: Actor },
): Promise<'none' | 'yes' | 'no'> {
	const response = ctx?.mcpReq?.inputResponses?.[CONFIRM_KEY]
	if (!response) return 'none'
	if (yesOrNo(response) === 'no') return 'no'
	const asked = ctx?.mcpReq?.requestState?.<Asked>()
	if (!asked || typeof asked !== 'object' || asked.call !== callDigest(call.tool, call.args, call.actor) || typeof asked.ticket !== 'string') return 'none'
	return (await useTicket(deps, asked.ticket)) ? 'yes' : 'none'
}

/** An elicitation result: yes only when accepted with the box ticked. */
const yesOrNo = (result: unknown): 'yes' | 'no' => {
	const answer = result as { action?: unknown; content?: { confirm?: unknown } } | null
	return answer?.action === 'accept' && answer.content?.confirm === true ? 'yes' : 'no'
}

/** The `input_required` answer that asks the user `message` about this call (its `requestState` binds the answer to it). */
export async function askToConfirm(deps: Pick<AppDeps, 'db' | 'now' | 'secret'>, message: string, call: { tool: string; args: unknown; actor: Actor }) {
	const asked: Asked = { call: callDigest(call.tool, call.args, call.actor), ticket: await issueTicket(deps, QUESTION_SECONDS * 1000) }
	return inputRequired({
		inputRequests: { [CONFIRM_KEY]: inputRequired.elicit({ message, requestedSchema: SCHEMA }) },
		requestState: await confirmState(deps.secret).mint(asked),
	})
}

/** Why a write the person was to confirm did not happen. */
export type NotConfirmed = 'no' | 'no answer' | 'not asked'

/** The tool's answer when the user did not say yes: nothing was done, in words the assistant can pass on. */
export const declined = (tool: string, why: NotConfirmed = 'no', seconds?: number) => ({
	isError: true,
	content: [
		{
			type: 'text' as const,
			text:
				why === 'no'
					? `Nothing was done: the person did not confirm ${tool}. Ask them before trying again.`
					: why === 'no answer'
						? `Nothing was done: the person did not answer within ${seconds} seconds whether to go ahead with ${tool}. Try again when they are there to confirm.`
						: `Nothing was done: the app could not ask the person to confirm ${tool}. Try again.`,
		},
	],
})

/** Whose questions and answers these are: one credential of one person in one workspace. */
export const questionOwner = (actor: Actor) => `${actor.workspaceId}/${actor.userId ?? ''}/${actor.credential.kind}/${actor.credential.id}`

const sessions = sealedBox('mcp-session')
/** Longer than any session id this endpoint hands out: not worth opening. */
const MAX_SESSION_ID = 512

/**
 * The `Mcp-Session-Id` for a 2025-era client's `initialize` that declares it can ask its user:
 * the declaration sealed for this credential (it opens for no other, and says nothing readable).
 * Undefined for a client that cannot ask: it gets no session, as before.
 */
export async function sessionFor(secret: Uint8Array, actor: Actor, initialize: unknown): Promise<string | undefined> {
	const capabilities = (initialize as { params?: { capabilities?: { elicitation?: unknown } } } | null)?.params?.capabilities
	if (!capabilities?.elicitation || typeof capabilities.elicitation !== 'object') return undefined
	return sessions.seal(secret, questionOwner(actor), JSON.stringify({ elicitation: true }))
}

/** Whether the session a 2025-era request names (its `Mcp-Session-Id`) is one whose client can ask its user. */
export async function sessionCanAsk(secret: Uint8Array, actor: Actor, sessionId: string | null): Promise<boolean> {
	if (!sessionId || sessionId.length > MAX_SESSION_ID) return false
	try {
		return (JSON.parse(await sessions.open(secret, questionOwner(actor), sessionId)) as { elicitation?: unknown }).elicitation === true
	} catch {
		// Not ours, or for another credential: a client that cannot be asked.
		return false
	}
}

/** Questions this endpoint asks carry ids of this shape, so their answers are told from anything else. */
export const QUESTION_ID_PREFIX = 'bl-confirm-'

/** The call's own SSE stream to a 2025-era client (the SDK transport, sending with the call's request id). */
export interface QuestionStream {
	send(message: { jsonrpc: '2.0'; id?: string; method: string; params: Record<string, unknown> }): Promise<void>
}

/**
 * Asks a 2025-era client's user `message` now, on the tool call's stream, and waits at most
 * `seconds` for the answer it posts. Form mode without `mode` (the form every 2025 revision reads).
 */
export async function askOnStream(
	relay: AnswerRelay,
	stream: QuestionStream,
	owner: string,
	message: string,
	seconds: number,
	signal?: AbortSignal,
): Promise<'yes' | NotConfirmed> {
	const id = `${QUESTION_ID_PREFIX}${crypto.randomUUID()}`
	const waiting = relay.wait(id, owner, seconds * 1000, signal)
	try {
		await stream.send({ jsonrpc: '2.0', id, method: 'elicitation/create', params: { message, requestedSchema: SCHEMA } })
	} catch {
		waiting.cancel()
		return 'not asked'
	}
	const answer: PostedAnswer | undefined = await waiting.answer
	if (!answer) {
		// The client closes its question (the form the person may still have open).
		await stream
			.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'No answer in time: nothing was done.' } })
			.catch(() => {})
		return 'no answer'
	}
	return answer.error !== undefined ? 'not asked' : yesOrNo(answer.result)
}
