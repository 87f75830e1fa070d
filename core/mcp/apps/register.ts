/**
 * Views on an MCP server, with the official MCP Apps helpers: each view a `ui://` resource of MIME
 * type `text/html;profile=mcp-app`, each tool it shows linked through `_meta.ui.resourceUri`.
 *
 * Linked unconditionally: the server is stateless, so a 2025-era `tools/list` arrives without the
 * client's capabilities and nothing could be gated on them. Apps without the extension ignore
 * `_meta` and read the same text and `structuredContent` as before.
 */
import { EXTENSION_ID, RESOURCE_MIME_TYPE, registerAppResource, registerAppTool } from '@modelcontextprotocol/ext-apps/server'
import type { McpServer } from '@modelcontextprotocol/server'
import { VIEW_META, type BuiltView } from './views.ts'

/**
 * What a server with views declares: resources (no change notifications: without a session none
 * could reach the client) and the MCP Apps extension, in the SDK's `extensions` map.
 */
export const VIEW_CAPABILITIES = {
	resources: { listChanged: false },
	extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } },
}

/** Registers a tool whose results `view` shows (the helper also writes the older flat `ui/resourceUri` key). */
export function linkView(
	server: McpServer,
	name: string,
	config: Parameters<McpServer['registerTool']>[1],
	view: BuiltView,
	run: (args: unknown, ctx?: never) => unknown,
) {
	registerAppTool(server, name, { ...(config as object), _meta: { ui: { resourceUri: view.uri } } } as never, run as never)
}

/** Lists and serves the views; `_meta.ui` goes on both the listing and the content (apps read either). */
export function registerViews(server: McpServer, views: readonly BuiltView[]) {
	for (const view of views)
		registerAppResource(
			server,
			view.def.name,
			view.uri,
			{ title: view.def.title, description: view.def.description, mimeType: RESOURCE_MIME_TYPE, _meta: { ui: VIEW_META } },
			async () => ({
				contents: [{ uri: view.uri, mimeType: RESOURCE_MIME_TYPE, text: view.html, _meta: { ui: VIEW_META } }],
			}),
		)
}
