/**
 * MCP Apps views (SEP-1865), made self-contained once at server start. The view's sandbox has no
 * network (its CSP below, and the one the assistant app builds from `_meta.ui.csp`), so each view
 * is one HTML document with everything inline: the shared stylesheet (`kit.css`), the official app
 * runtime (`@modelcontextprotocol/ext-apps`'s self-contained browser build), the shared helpers
 * (`kit.js`) and the module's own markup and script.
 *
 * The address carries a hash of the content: assistant apps cache views by address, so a changed
 * view (or a new runtime) gets a new one, and tools always point at the current one.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { McpUiResourceMeta } from '@modelcontextprotocol/ext-apps'
import type { ViewDef } from '../../module.ts'
import { scriptJson } from '../../html.ts'

const HEAD_MARKER = '<!-- benchline:head -->'
const RUNTIME_MARKER = '<!-- benchline:runtime -->'

/**
 * Nothing from any other origin: inline scripts and styles only, images and fonts only as `data:`,
 * no fetch, no frames, no forms, no `<base>`. Written into the view itself, so it holds in an
 * assistant app that ignores `_meta.ui.csp`.
 */
export const VIEW_CSP =
	"default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; font-src data:; connect-src 'none'; frame-src 'none'; form-action 'none'; base-uri 'none'"

/** What assistant apps read from `_meta.ui`: no outside domain of any kind, and a border around the view. */
export const VIEW_META: McpUiResourceMeta = { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true }

export interface BuiltView {
	readonly def: ViewDef
	/** `ui://benchline/<name>-<hash>.html` */
	readonly uri: string
	readonly html: string
}

const read = (url: URL) => readFileSync(fileURLToPath(url), 'utf8')

/**
 * The runtime's browser build ends in `export{a as App,...}`, which an inline script cannot import
 * from: that statement becomes `globalThis.ExtApps={App:a,...}`.
 */
export function runtimeAsGlobal(bundle: string): string {
	const exported = /export\s*\{([^}]*)\}\s*;?\s*$/.exec(bundle)
	if (!exported) throw new Error('The MCP Apps runtime (ext-apps app-with-deps) no longer ends in one export statement: update core/mcp/apps/views.ts')
	const pairs = exported[1]!.split(',').map((part) => {
		const [local, name = local] = part.trim().split(/\s+as\s+/)
		return `${JSON.stringify(name!.trim())}:${local!.trim()}`
	})
	return `${bundle.slice(0, exported.index)}globalThis.ExtApps={${pairs.join(',')}};`
}

function inlineScript(code: string, where: string): string {
	// Either would end the inline script early (or make the HTML parser look for a second `</script>`).
	if (/<\/script|<!--/i.test(code)) throw new Error(`${where} contains "</script" or "<!--", which an inline script cannot hold`)
	return `<script type="module">${code}</script>`
}

let runtime: string | undefined
function sharedRuntime(): string {
	if (runtime) return runtime
	const bundlePath = fileURLToPath(import.meta.resolve('@modelcontextprotocol/ext-apps/app-with-deps'))
	runtime =
		inlineScript(runtimeAsGlobal(readFileSync(bundlePath, 'utf8')), 'the MCP Apps runtime') +
		inlineScript(read(new URL('./kit.js', import.meta.url)), 'core/mcp/apps/kit.js')
	return runtime
}

/** One view, self-contained; throws naming the file when its markers are missing. */
export function buildView(def: ViewDef): BuiltView {
	const template = read(def.file)
	const where = fileURLToPath(def.file)
	for (const marker of [HEAD_MARKER, RUNTIME_MARKER]) if (template.split(marker).length !== 2) throw new Error(`${where} must hold ${marker} exactly once`)
	const head = `<meta http-equiv="Content-Security-Policy" content="${VIEW_CSP}"><style>${read(new URL('./kit.css', import.meta.url))}</style>`
	const settings = `<script type="application/json" id="view-settings">${scriptJson(def.settings ?? {})}</script>`
	// Function replacers: the runtime contains `$&` and `` $` ``, which a replacement string would expand.
	const html = template.replace(HEAD_MARKER, () => head).replace(RUNTIME_MARKER, () => settings + sharedRuntime())
	const hash = createHash('sha256').update(html).digest('hex').slice(0, 12)
	return { def, uri: `ui://benchline/${def.name}-${hash}.html`, html }
}
