/**
 * Writes the person confirms: a tool that sends a candidate's data or a message outside the firm
 * (`ToolDef.confirm`) first asks the client's user, showing what goes to whom, and does nothing on
 * "no" or cancel. Asked with an input request (protocol revision 2026-07-28: the tool answers
 * `input_required` with a form-mode elicitation, the client asks its user and calls again with the
 * answer), and only of clients that declare they can ask (`elicitation` in the request's client
 * capabilities). A client that cannot is not asked and the tool runs as it always did: the endpoint
 * is stateless, so a 2025-era client's capabilities (sent once, in `initialize`) are not known when
 * it calls a tool, and it is not asked either.
 */
import { CLIENT_CAPABILITIES_META_KEY, inputRequired } from '@modelcontextprotocol/server'

export const CONFIRM_KEY = 'confirm'

const SCHEMA = {
	type: 'object' as const,
	properties: { confirm: { type: 'boolean' as const, title: 'Go ahead', description: 'Yes: do it now. No: nothing is sent.' } },
	required: ['confirm'],
}

/** What the tool handler's context carries that this needs (the SDK's `ServerContext`). */
export interface ConfirmContext {
	mcpReq?: { envelope?: Record<string, unknown>; inputResponses?: Record<string, unknown> }
}

/** Whether the calling client said, on this request, that it can ask its user. */
export function clientCanAsk(ctx: ConfirmContext | undefined): boolean {
	const capabilities = ctx?.mcpReq?.envelope?.[CLIENT_CAPABILITIES_META_KEY] as { elicitation?: unknown } | undefined
	return Boolean(capabilities?.elicitation)
}

/** The user's answer carried by a retried call: none yet, yes, or no (declined, cancelled, or unchecked). */
export function confirmationAnswer(ctx: ConfirmContext | undefined): 'none' | 'yes' | 'no' {
	const response = ctx?.mcpReq?.inputResponses?.[CONFIRM_KEY] as { action?: string; content?: { confirm?: unknown } } | undefined
	if (!response) return 'none'
	return response.action === 'accept' && response.content?.confirm === true ? 'yes' : 'no'
}

/** The `input_required` answer that asks the user `message`. */
export function askToConfirm(message: string) {
	return inputRequired({ inputRequests: { [CONFIRM_KEY]: inputRequired.elicit({ message, requestedSchema: SCHEMA }) } })
}

/** The tool's answer when the user said no: nothing was done, in words the assistant can pass on. */
export const declined = (tool: string) => ({
	isError: true,
	content: [{ type: 'text' as const, text: `Nothing was done: the person did not confirm ${tool}. Ask them before trying again.` }],
})
