/**
 * A small MCP Apps host, in the browser (bundled by tests/apps/host.ts): the official MCP client
 * connected to Benchline through the host's backend (which holds the person's token), and the
 * official host-side bridge (`AppBridge`) talking to the view through a sandbox proxy on another
 * origin, as the MCP Apps spec lays out for web hosts.
 *
 * Like a real assistant app, it runs read tools the view asks for and holds every write until the
 * person decides (`host.decide`); the test plays the person.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { AppBridge, getToolUiResourceUri, PostMessageTransport, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/app-bridge'

const EXTENSION_ID = 'io.modelcontextprotocol/ui'

interface ToolCall {
	name: string
	arguments?: Record<string, unknown>
	/** What the server answered (absent while a write waits, or when the person refused it). */
	result?: unknown
}

interface PendingWrite extends ToolCall {
	decided: boolean
	resolve(allow: boolean): void
}

const log = {
	/** The result of the tool call the view was opened with, as handed to it. */
	result: null as unknown,
	/** Every tool call the view asked for, in order. */
	viewCalls: [] as ToolCall[],
	/** Writes waiting for (or given) the person's decision. */
	writes: [] as PendingWrite[],
	/** Messages the view posted to the chat. */
	messages: [] as unknown[],
	heights: [] as number[],
	resource: null as null | { uri: string; mimeType: string | undefined; meta: unknown },
	initialized: false,
}

const sandboxOrigin = document.querySelector<HTMLMetaElement>('meta[name="sandbox-origin"]')!.content

async function show(options: {
	role: string
	tool: string
	args?: Record<string, unknown>
	sandbox?: string
	theme?: 'light' | 'dark'
	variables?: Record<string, string>
}) {
	const args = options.args ?? {}
	const client = new Client(
		{ name: 'benchline-test-host', version: '1.0.0' },
		{ capabilities: { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } } as never },
	)
	await client.connect(new StreamableHTTPClientTransport(new URL(`/mcp/${options.role}`, location.origin)))
	const { tools } = await client.listTools()
	const tool = tools.find((t) => t.name === options.tool)
	if (!tool) throw new Error(`${options.tool} is not listed for ${options.role}`)
	const uri = getToolUiResourceUri(tool)
	if (!uri) throw new Error(`${options.tool} names no view`)
	const { contents } = await client.readResource({ uri })
	const content = contents[0] as { uri: string; mimeType?: string; text?: string; _meta?: { ui?: { csp?: object; permissions?: object } } }
	if (content.mimeType !== RESOURCE_MIME_TYPE || typeof content.text !== 'string') throw new Error(`${uri} is not an MCP Apps view (${content.mimeType})`)
	log.resource = { uri: content.uri, mimeType: content.mimeType, meta: content._meta }

	// The sandbox proxy, on another origin; the host sets its CSP from the view's `_meta.ui.csp`.
	const frame = document.createElement('iframe')
	frame.id = 'app'
	frame.title = 'Benchline view'
	frame.setAttribute('sandbox', 'allow-scripts allow-same-origin')
	const csp = options.sandbox ?? JSON.stringify(content._meta?.ui?.csp ?? {})
	frame.src = `${sandboxOrigin}/sandbox.html?csp=${encodeURIComponent(csp)}`
	const ready = new Promise<void>((resolve) =>
		window.addEventListener('message', function listen(event) {
			if (event.source === frame.contentWindow && event.data?.method === 'ui/notifications/sandbox-proxy-ready') {
				window.removeEventListener('message', listen)
				resolve()
			}
		}),
	)
	document.getElementById('frame')!.replaceChildren(frame)
	await ready

	const bridge = new AppBridge(
		client,
		{ name: 'Benchline test host', version: '1.0.0' },
		{ openLinks: {}, serverTools: {}, serverResources: {}, logging: {}, updateModelContext: { text: {} }, message: { text: {} } },
		{
			hostContext: {
				theme: options.theme ?? 'light',
				...(options.variables ? { styles: { variables: options.variables as never } } : {}),
				platform: 'web',
				displayMode: 'inline',
				availableDisplayModes: ['inline'],
				locale: 'en-US',
				timeZone: 'UTC',
				containerDimensions: { maxHeight: 6000 },
			},
		},
	)
	bridge.onsizechange = ({ height }) => {
		if (height) {
			log.heights.push(height)
			frame.style.height = `${height}px`
		}
	}
	bridge.onmessage = async (params) => {
		log.messages.push(params)
		return {}
	}
	bridge.onupdatemodelcontext = async () => ({})
	bridge.onloggingmessage = () => {}
	const delivered = new Promise<void>((resolve, reject) => {
		bridge.oninitialized = async () => {
			log.initialized = true
			try {
				await bridge.sendToolInput({ arguments: args })
				log.result = await client.callTool({ name: options.tool, arguments: args })
				await bridge.sendToolResult(log.result as never)
				resolve()
			} catch (error) {
				reject(error)
			}
		}
	})
	await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!))
	// After connect, which installed plain pass-through: reads run, writes wait for the person.
	bridge.oncalltool = async (params) => {
		const call: ToolCall = { name: params.name, arguments: params.arguments }
		log.viewCalls.push(call)
		const listed = tools.find((t) => t.name === params.name)
		if (!listed) return { isError: true, content: [{ type: 'text', text: `${params.name} is not a tool of this server` }] }
		if (listed.annotations?.readOnlyHint !== true) {
			const allow = await new Promise<boolean>((resolve) => log.writes.push({ name: call.name, arguments: call.arguments, decided: false, resolve }))
			if (!allow) return { isError: true, content: [{ type: 'text', text: 'The person did not allow this action.' }] }
		}
		call.result = await client.callTool({ name: params.name, arguments: params.arguments })
		return call.result as never
	}
	await bridge.sendSandboxResourceReady({ html: content.text, csp: content._meta?.ui?.csp, permissions: content._meta?.ui?.permissions } as never)
	await delivered
}

/** The person's answer to the n-th write the view asked for. */
function decide(index: number, allow: boolean) {
	const write = log.writes[index]
	if (!write || write.decided) throw new Error(`no undecided write #${index}`)
	write.decided = true
	write.resolve(allow)
}

Object.assign(window, { host: { show, decide, log } })
