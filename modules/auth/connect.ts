/**
 * Connecting an assistant app: the MCP address and, for each app people use, the exact text to
 * paste with this server's address filled in. Shown on `/settings/api` (with Copy buttons) and on
 * the public page `/help/assistants` that the protected resource metadata names as its
 * `resource_documentation`. Apps that sign in with OAuth need nothing else; the personal-token
 * variants show a placeholder, never a real token.
 */
import { breakable, html, raw, type SafeHtml } from '../../core/html.ts'
import { copyButton, scriptButton } from '../../core/ui.ts'

export const mcpAddress = (baseUrl: string) => `${baseUrl}/api/mcp`

/** What a person pastes where a personal token goes: a placeholder, never a token. */
export const TOKEN_PLACEHOLDER = 'YOUR_PERSONAL_TOKEN'

export interface ClientSetup {
	readonly id: string
	readonly app: string
	/** The steps in the app, before the text to paste. */
	readonly steps: readonly string[]
	/** The text to paste (JSON or a command), for OAuth sign-in. */
	readonly snippet: string
	readonly kind: 'json' | 'command' | 'address'
	/** The same with a personal token in the `Authorization` header, for apps that cannot sign in with OAuth. */
	readonly withToken?: string
}

const json = (value: unknown) => JSON.stringify(value, null, 2)

/** The set-up of every app, with `address` filled in. */
export function clientSetups(baseUrl: string): ClientSetup[] {
	const url = mcpAddress(baseUrl)
	const bearer = `Bearer ${TOKEN_PLACEHOLDER}`
	return [
		{
			id: 'claude',
			app: 'Claude (claude.ai and the desktop app)',
			steps: [
				'Open Settings → Connectors and choose Add custom connector.',
				'Name it Benchline and paste this address as the remote MCP server URL.',
				'Choose Connect: Benchline asks you to sign in and to allow Claude.',
			],
			snippet: url,
			kind: 'address',
		},
		{
			id: 'chatgpt',
			app: 'ChatGPT (developer mode)',
			steps: [
				'Open Settings → Apps & Connectors → Advanced settings and turn on Developer mode.',
				'Choose Create, name it Benchline, paste this address as the MCP server URL and choose OAuth as the authentication.',
				'Save: Benchline asks you to sign in and to allow ChatGPT.',
			],
			snippet: url,
			kind: 'address',
		},
		{
			id: 'vscode',
			app: 'VS Code (GitHub Copilot agent mode)',
			steps: [
				'Create .vscode/mcp.json in your project (or run MCP: Add Server) with this content.',
				'Start the server from the file: VS Code opens Benchline to sign in.',
			],
			snippet: json({ servers: { benchline: { type: 'http', url } } }),
			kind: 'json',
			// VS Code asks for the token once and keeps it in its secret storage.
			withToken: json({
				inputs: [{ type: 'promptString', id: 'benchline-token', description: 'Benchline personal token', password: true }],
				// biome-ignore lint/suspicious/noTemplateCurlyInString: VS Code's own input-variable syntax, written literally
				servers: { benchline: { type: 'http', url, headers: { Authorization: 'Bearer ${input:benchline-token}' } } },
			}),
		},
		{
			id: 'cursor',
			app: 'Cursor',
			steps: [
				'Open ~/.cursor/mcp.json (all projects) or .cursor/mcp.json (this project) and add Benchline.',
				'Cursor shows Benchline under Settings → MCP; choose Login to sign in.',
			],
			snippet: json({ mcpServers: { benchline: { url } } }),
			kind: 'json',
			withToken: json({ mcpServers: { benchline: { url, headers: { Authorization: bearer } } } }),
		},
		{
			id: 'claude-code',
			app: 'Claude Code',
			steps: ['Run this in a terminal, then /mcp inside Claude Code to sign in.'],
			snippet: `claude mcp add --transport http benchline ${url}`,
			kind: 'command',
			withToken: `claude mcp add --transport http benchline ${url} --header "Authorization: ${bearer}"`,
		},
	]
}

const copyable = (id: string, text: string, label: string) =>
	html`<div class="snippet"><pre id="${id}">${breakable(text)}</pre>${copyButton(id, `Copy ${label}`)}</div>`

/** The set-up steps of every app, each in a disclosure (one open at a time is enough to read). */
export function clientSetupList(baseUrl: string, idPrefix = 'setup'): SafeHtml {
	return html`${clientSetups(baseUrl).map(
		(c) => html`<details class="setup" id="${idPrefix}-${c.id}"><summary>${c.app}</summary>
<ol>${c.steps.map((s) => html`<li>${s}</li>`)}</ol>
${copyable(`${idPrefix}-${c.id}-snippet`, c.snippet, `the ${c.app} set-up`)}
${c.withToken ? html`<p class="meta">If you cannot sign in from the app, use a personal token (created below) in the <code>Authorization</code> header instead:</p>${copyable(`${idPrefix}-${c.id}-token`, c.withToken, `the ${c.app} set-up with a personal token`)}` : ''}
</details>`,
	)}`
}

/** The "Connect an assistant" panel of the API access page. */
export function connectPanel(baseUrl: string, csrf: string): SafeHtml {
	return html`<section class="card" aria-labelledby="connect"><h2 id="connect">Connect an assistant</h2>
<p>Assistant apps reach Benchline at this address, acting as you with your role:</p>
${copyable('mcp-address', mcpAddress(baseUrl), 'the MCP server address')}
<p>Apps that sign in with OAuth (Claude, ChatGPT, VS Code, Cursor, Claude Code) need nothing else: they ask you to sign in and to allow them. Use a personal token only for an app that cannot sign in; it goes in the <code>Authorization: Bearer ${TOKEN_PLACEHOLDER}</code> header.</p>
${clientSetupList(baseUrl)}
<h3>Test connection</h3>
<p>Checks from this browser that the address answers, in which workspace, and how many tools your role has there.</p>
<div class="test-connection">${scriptButton('Test connection', { 'data-test-connection': csrf })}
<p role="status" aria-live="polite" id="connection-result"></p></div>
</section>`
}

/** The public page about connecting assistants (the protected resource metadata's `resource_documentation`). */
export function assistantsHelp(baseUrl: string): SafeHtml {
	return html`<section class="card"><h1>Connect an assistant app to Benchline</h1>
<p>Benchline is an MCP server (streamable HTTP) at:</p>
${copyable('mcp-address', mcpAddress(baseUrl), 'the MCP server address')}
<p>It acts for one signed-in person with that person's role. Apps sign in with OAuth 2.1 (Benchline is its own authorization server: discovery starts at <code>${baseUrl}/.well-known/oauth-protected-resource</code>), or send a personal token created on the portal's API access page as <code>Authorization: Bearer ${TOKEN_PLACEHOLDER}</code>.</p>
<h2>Set-up by app</h2>
${clientSetupList(baseUrl, 'help')}
<p>${raw('Vendors publishing jobs use the <a href="/api/v1/docs">Job Publish REST API</a> instead.')}</p></section>`
}
