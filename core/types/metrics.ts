/**
 * What the app's metrics offer (core/metrics.ts builds them): a leaf of types, imported by the app's
 * dependencies without importing the metrics' code.
 */

/** How a tool call ended: answered, answered with a tool error, or past `MCP_TOOL_TIMEOUT`. */
export type ToolOutcome = 'ok' | 'error' | 'timeout'

/** Where a credential was presented: the REST API, the MCP endpoint, the OAuth token endpoint, SCIM, `/metrics` (its token). */
export type CredentialDoor = 'rest' | 'mcp' | 'oauth' | 'scim' | 'metrics'

export interface Metrics {
	readonly enabled: boolean
	/** One answered HTTP request, by the route template that answered (`unmatched` when none did). */
	httpRequest(method: string, route: string | undefined, status: number, seconds: number): void
	toolCall(tool: string, outcome: ToolOutcome, seconds: number): void
	credentialFailure(door: CredentialDoor): void
	/** A wrong password (or an unknown account) at the portal's sign-in. */
	signInFailure(): void
	/** The exposition in Prometheus' text format. */
	render(): Promise<{ contentType: string; text: string }>
}
