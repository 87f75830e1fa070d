/**
 * The MCP Apps test host, served next to the app on loopback: the host page (its script bundled
 * for the browser from `host/host.ts`), the sandbox proxy on a second origin with the CSP built from
 * the view's `_meta.ui.csp`, and the host's backend, which forwards MCP requests to `/api/mcp` with
 * the person's token (the browser, and so the view, never sees a credential).
 */
import { readFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { serveApp } from '../helpers.ts'

export interface TestHost {
	url: string
	/** Gives the host's backend a person's token, used for `/mcp/<name>`. */
	signIn(name: string, token: string): void
	close(): void
}

interface Csp {
	connectDomains?: string[]
	resourceDomains?: string[]
	frameDomains?: string[]
	baseUriDomains?: string[]
}

/** The CSP a web host puts on the sandbox proxy for a view (the MCP Apps spec's rules). */
export function sandboxCsp(csp: Csp): string {
	const with_ = (base: string, domains?: string[]) => [base, ...(domains ?? [])].join(' ')
	return [
		"default-src 'none'",
		with_("script-src 'unsafe-inline'", csp.resourceDomains),
		with_("style-src 'unsafe-inline'", csp.resourceDomains),
		with_('img-src data:', csp.resourceDomains),
		with_('font-src data:', csp.resourceDomains),
		with_('media-src data:', csp.resourceDomains),
		`connect-src ${csp.connectDomains?.length ? csp.connectDomains.join(' ') : "'none'"}`,
		`frame-src ${csp.frameDomains?.length ? csp.frameDomains.join(' ') : "'none'"}`,
		`base-uri ${csp.baseUriDomains?.length ? csp.baseUriDomains.join(' ') : "'none'"}`,
	].join('; ')
}

let hostScript: Promise<string> | undefined
function bundleHostScript(): Promise<string> {
	hostScript ??= (async () => {
		const build = await Bun.build({ entrypoints: [`${import.meta.dir}/host/host.ts`], target: 'browser', format: 'esm' })
		if (!build.success) throw new Error(`the test host did not build: ${build.logs.join('\n')}`)
		return build.outputs[0]!.text()
	})()
	return hostScript
}

const FORWARDED_REQUEST = ['content-type', 'accept', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id']
const FORWARDED_RESPONSE = ['content-type', 'mcp-session-id', 'mcp-protocol-version', 'www-authenticate', 'allow']

export async function startTestHost(): Promise<TestHost> {
	const { url: appUrl } = await serveApp()
	const script = await bundleHostScript()
	const sandboxPage = readFileSync(`${import.meta.dir}/host/sandbox.html`, 'utf8')
	const tokens = new Map<string, string>()

	const sandbox = Bun.serve({
		port: 0,
		hostname: '127.0.0.1',
		fetch(request) {
			const url = new URL(request.url)
			if (url.pathname !== '/sandbox.html') return new Response('not found', { status: 404 })
			const csp = url.searchParams.get('csp') ?? '{}'
			// `none`: no CSP from the host at all, to see what the view's own CSP does.
			const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' }
			if (csp !== 'none') headers['content-security-policy'] = sandboxCsp(JSON.parse(csp))
			return new Response(sandboxPage, { headers })
		},
	})
	const sandboxOrigin = `http://127.0.0.1:${sandbox.port}`
	const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="sandbox-origin" content="${sandboxOrigin}"><title>Benchline test host</title>
<style>body { margin: 0; padding: 16px; background: #e9ecf2; font-family: system-ui, sans-serif; } #frame { max-width: 1000px; margin: 0 auto; background: #fff; border: 1px solid #c9ced8; border-radius: 12px; overflow: hidden; } iframe { border: 0; width: 100%; height: 120px; display: block; }</style>
</head><body><div id="frame"></div><script type="module" src="/host.js"></script></body></html>`

	const host = Bun.serve({
		port: 0,
		hostname: '127.0.0.1',
		async fetch(request) {
			const url = new URL(request.url)
			if (url.pathname === '/' || url.pathname === '/host.html') return new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8' } })
			if (url.pathname === '/host.js') return new Response(script, { headers: { 'content-type': 'text/javascript; charset=utf-8' } })
			const person = /^\/mcp\/([\w-]+)$/.exec(url.pathname)?.[1]
			const token = person ? tokens.get(person) : undefined
			if (!token) return new Response('not found', { status: 404 })
			const headers = new Headers({ authorization: `Bearer ${token}` })
			for (const name of FORWARDED_REQUEST) if (request.headers.has(name)) headers.set(name, request.headers.get(name)!)
			const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer()
			const answer = await fetch(`${appUrl}/api/mcp`, { method: request.method, headers, body })
			const out = new Headers()
			for (const name of FORWARDED_RESPONSE) if (answer.headers.has(name)) out.set(name, answer.headers.get(name)!)
			return new Response(answer.body, { status: answer.status, headers: out })
		},
	})
	// Shared by the test files of a run; they end with the process.
	host.unref()
	sandbox.unref()
	return {
		url: `http://127.0.0.1:${host.port}`,
		signIn: (name, token) => void tokens.set(name, token),
		close() {
			host.stop(true)
			sandbox.stop(true)
		},
	}
}

export interface HostLog {
	result: any
	viewCalls: { name: string; arguments?: Record<string, any>; result?: any }[]
	writes: { name: string; arguments?: Record<string, any>; decided: boolean }[]
	messages: any[]
	heights: number[]
	resource: { uri: string; mimeType: string; meta: any } | null
	initialized: boolean
}

/** Opens the host page, shows `tool`'s result in its view, and returns the view's frame. */
export async function openView(
	page: Page,
	host: TestHost,
	options: { as: string; tool: string; args?: Record<string, unknown>; sandbox?: string; theme?: 'light' | 'dark'; variables?: Record<string, string> },
) {
	await page.goto(`${host.url}/host.html`)
	await page.evaluate(({ as, ...o }) => (window as any).host.show({ role: as, ...o }), options)
	return page.frameLocator('#app').frameLocator('iframe')
}

export const hostLog = (page: Page): Promise<HostLog> => page.evaluate(() => JSON.parse(JSON.stringify((window as any).host.log)))

/** Plays the person: allows or refuses the n-th write the view asked for. */
export const decide = (page: Page, index: number, allow: boolean) => page.evaluate(([i, a]) => (window as any).host.decide(i, a), [index, allow] as const)

/** Waits until `check` holds (the view draws asynchronously, after read tools answer). */
export async function until(what: string, check: () => Promise<boolean>, ms = 30_000) {
	const end = Date.now() + ms
	while (!(await check())) {
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
		await Bun.sleep(100)
	}
}

/**
 * With MCP_APPS_SCREENSHOTS=<dir>, saves the host's frame around the view as `<dir>/<name>.png`
 * (the README's pictures: `MCP_APPS_SCREENSHOTS=docs/mcp-apps bun test tests/apps/`).
 */
export async function screenshot(page: Page, name: string) {
	const dir = process.env.MCP_APPS_SCREENSHOTS
	if (!dir) return
	await page.locator('#frame').screenshot({ path: `${dir}/${name}.png`, animations: 'disabled' })
}
