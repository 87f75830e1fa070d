/**
 * Building the MCP Apps views at start: one self-contained document per view, its address a hash
 * of its content, and no view script that parses HTML, runs strings as code or reaches the network.
 */
import { describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { buildRegistry } from '../../registry.ts'
import { modules } from '../../../modules/index.ts'
import type { ViewDef } from '../../module.ts'
import { TEXT_AUTHORS } from '../../untrusted.ts'
import { buildView, runtimeAsGlobal } from './views.ts'

const dir = mkdtempSync(join(tmpdir(), 'bl-views-'))
function viewFile(name: string, html: string, settings?: Record<string, unknown>): ViewDef {
	const path = join(dir, `${name}.html`)
	writeFileSync(path, html)
	return { name, title: 'Test view', description: 'A view for the tests', file: pathToFileURL(path), tools: ['list_jobs'], ...(settings ? { settings } : {}) }
}
const page = (body = '') => `<!doctype html><html><head><!-- benchline:head --></head><body><main>${body}</main><!-- benchline:runtime --></body></html>`

describe('building views', () => {
	test('the runtime’s closing export becomes a global, every name kept', () => {
		expect(runtimeAsGlobal('var q=1,z=2;function w(){}export{q as App,z as PostMessageTransport,w};\n')).toBe(
			'var q=1,z=2;function w(){}globalThis.ExtApps={"App":q,"PostMessageTransport":z,"w":w};',
		)
		expect(() => runtimeAsGlobal('var q=1;')).toThrow(/export statement/)
	})

	test('the real runtime is inlined byte for byte (it holds `$&` and `$`` sequences a string replacement would expand)', () => {
		const bundle = readFileSync(fileURLToPath(import.meta.resolve('@modelcontextprotocol/ext-apps/app-with-deps')), 'utf8')
		expect(bundle).toContain('$&')
		const body = bundle.slice(0, bundle.lastIndexOf('export{'))
		expect(buildView(viewFile('verbatim', page())).html).toContain(body)
	})

	test('a view without its markers is refused, naming the file', () => {
		const missing = viewFile('missing', '<!doctype html><html><body><!-- benchline:runtime --></body></html>')
		expect(() => buildView(missing)).toThrow(`${fileURLToPath(missing.file)} must hold <!-- benchline:head --> exactly once`)
		const twice = viewFile('twice', page('<!-- benchline:runtime -->'))
		expect(() => buildView(twice)).toThrow('must hold <!-- benchline:runtime --> exactly once')
	})

	test('settings reach the view as JSON that cannot end its script element', () => {
		const settings = { label: '</script><script>alert(1)</script><!--' }
		const { html } = buildView(viewFile('settings', page(), settings))
		expect(html).not.toContain('</script><script>alert(1)')
		const json = /<script type="application\/json" id="view-settings">([\s\S]*?)<\/script>/.exec(html)![1]!
		expect(JSON.parse(json)).toEqual(settings)
	})

	test('the address is ui://benchline/<name>-<hash of the content>.html: the same content, the same address; new content, a new one', () => {
		const first = buildView(viewFile('hashed', page('one')))
		expect(first.uri).toMatch(/^ui:\/\/benchline\/hashed-[0-9a-f]{12}\.html$/)
		expect(buildView(viewFile('hashed', page('one'))).uri).toBe(first.uri)
		expect(buildView(viewFile('hashed', page('two'))).uri).not.toBe(first.uri)
	})
})

describe('view scripts', () => {
	// Parsing strings as HTML or code, and reaching the network, are what the views must never do:
	// text from tool results is set as text, and data comes only through the assistant app.
	const FORBIDDEN = [
		/\.innerHTML/,
		/\.outerHTML/,
		/insertAdjacentHTML/,
		/document\.write/,
		/DOMParser/,
		/createContextualFragment/,
		/setHTMLUnsafe/,
		/\.srcdoc/,
		/\beval\(/,
		/new Function/,
		/\bfetch\(/,
		/XMLHttpRequest/,
		/WebSocket/,
		/EventSource/,
		/sendBeacon/,
		/window\.open/,
		/\blocation\./,
		/import\(/,
	]
	const sources = [new URL('./kit.js', import.meta.url), ...buildRegistry(modules).views.map((v) => v.file)]

	test('no view nor the shared script parses HTML, runs strings as code or reaches the network', () => {
		expect(sources.length).toBe(6)
		for (const source of sources) {
			const text = readFileSync(fileURLToPath(source), 'utf8')
			for (const pattern of FORBIDDEN)
				expect({ file: fileURLToPath(source), found: pattern.exec(text)?.[0] ?? null }).toEqual({ file: fileURLToPath(source), found: null })
		}
	})

	test('every view of the module list builds', () => {
		for (const def of buildRegistry(modules).views) expect(buildView(def).html.length).toBeGreaterThan(100_000)
	})
})

test('the views’ kit says who wrote a quoted text for every author an envelope may carry (the reader’s own words included)', () => {
	const kit = readFileSync(fileURLToPath(new URL('./kit.js', import.meta.url)), 'utf8')
	const authors = /const AUTHORS = \{([^}]*)\}/.exec(kit)![1]!
	const named = [...authors.matchAll(/(\w+):\s*'[^']+'/g)].map((m) => m[1])
	expect(named.sort()).toEqual([...TEXT_AUTHORS].sort())
})
