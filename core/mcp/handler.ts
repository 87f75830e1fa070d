/** Placeholder replaced by the MCP adapter (issue 3). */
import type { Elysia } from 'elysia'
import type { AppDeps } from '../deps.ts'

export function mcpRoute(_deps: AppDeps) {
	return (app: Elysia) => app
}
