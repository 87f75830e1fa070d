/**
 * A cookie-keeping client for the portal pages, in-process (no browser): it signs in through the
 * real sign-in form, keeps the cookies the server sets and posts forms with their CSRF token.
 *
 * Sign-in failures are counted per client address, and in-process requests have none; so the
 * portal app trusts `X-Forwarded-For` and every client gets its own address, which keeps tests
 * (and repeated runs on the same PostgreSQL database) from slowing each other down.
 */
import type { AppDeps } from '../core/deps.ts'
import { createApp } from '../core/main.ts'
import { testDeps } from './helpers.ts'

type App = { handle(request: Request): Promise<Response> }

const apps = new Map<string, Promise<{ app: ReturnType<typeof createApp>; deps: AppDeps }>>()

/** An app that trusts `X-Forwarded-For` (built once per set of settings, and kept for the whole run). */
export function portalApp(overrides: Record<string, string> = {}): Promise<{ app: ReturnType<typeof createApp>; deps: AppDeps }> {
	const settings = { TRUST_PROXY: 'on', ...overrides }
	const key = JSON.stringify(settings)
	let entry = apps.get(key)
	if (!entry) apps.set(key, (entry = testDeps(settings, 'whole run').then((deps) => ({ app: createApp(deps), deps }))))
	return entry
}

export interface PageResponse {
	status: number
	headers: Headers
	text: string
	/** The body as sent (`text` is decoded, without a byte-order mark). */
	bytes: Uint8Array
	/** The `Set-Cookie` lines of this response. */
	setCookies: string[]
}

export class PortalClient {
	readonly cookies = new Map<string, string>()
	/** The CSRF token of the last page that had a form. */
	csrf = ''

	constructor(
		readonly app: App,
		readonly options: { origin?: string; address?: string } = {},
	) {}

	get origin() {
		return this.options.origin ?? 'http://localhost'
	}

	/** `form` fields with a list value are sent once per value (ticked checkboxes). */
	async request(
		method: string,
		path: string,
		init: { form?: Record<string, string | string[]>; headers?: Record<string, string>; body?: string } = {},
	): Promise<PageResponse> {
		const headers: Record<string, string> = { 'x-forwarded-for': this.options.address ?? uniqueAddress(), ...init.headers }
		if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
		let body: string | undefined = init.body
		if (init.form) {
			headers['content-type'] = 'application/x-www-form-urlencoded'
			body = new URLSearchParams(Object.entries(init.form).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]]))).toString()
		}
		// Like a browser, the client never sends an address's #fragment (a redirect may carry one).
		const res = await this.app.handle(new Request(`${this.origin}${path.split('#')[0]}`, { method, headers, body }))
		const setCookies = res.headers.getSetCookie()
		for (const line of setCookies) {
			const [pair, ...attributes] = line.split(';')
			const eq = pair!.indexOf('=')
			const name = pair!.slice(0, eq).trim()
			const value = pair!.slice(eq + 1).trim()
			const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === ''
			if (expired) this.cookies.delete(name)
			else this.cookies.set(name, value)
		}
		// The bytes as sent (a download's byte-order mark, which decoding drops), and the text.
		const bytes = new Uint8Array(await res.arrayBuffer())
		const text = new TextDecoder().decode(bytes)
		const csrf = text.match(/name="csrf" value="([^"]*)"/)
		if (csrf) this.csrf = csrf[1]!
		return { status: res.status, headers: res.headers, text, bytes, setCookies }
	}

	get(path: string, headers?: Record<string, string>) {
		return this.request('GET', path, { headers })
	}

	/** Posts a form with the CSRF token of the last page (unless `csrf` is given). */
	post(path: string, fields: Record<string, string | string[]> = {}, headers?: Record<string, string>) {
		return this.request('POST', path, { form: { csrf: this.csrf, ...fields }, headers })
	}

	/** Posts a form and, like a browser, follows a 303 redirect with a GET (`redirectedTo` says where). */
	async submit(
		path: string,
		fields: Record<string, string | string[]> = {},
		headers?: Record<string, string>,
	): Promise<PageResponse & { redirectedTo: string | null }> {
		const res = await this.post(path, fields, headers)
		const location = res.status === 303 ? res.headers.get('location') : null
		if (!location) return { ...res, redirectedTo: null }
		return { ...(await this.get(location)), redirectedTo: location }
	}

	/** Signs in through the sign-in form; returns the answer to the form post. */
	async signIn(email: string, password: string): Promise<PageResponse> {
		await this.get('/sign-in')
		return this.post('/sign-in', { email, password, next: '/portal' })
	}

	/** After the password, for a person in several workspaces: opens the choice page and picks one (by slug). */
	async chooseWorkspace(slug: string, next = '/portal'): Promise<PageResponse> {
		await this.get(`/sign-in/workspace?next=${encodeURIComponent(next)}`)
		return this.post('/sign-in/workspace', { workspace: slug, next })
	}

	/** After the password: accepts the first invitation on the choice page, which opens its workspace. */
	async acceptFirstInvitation(next = '/portal'): Promise<PageResponse> {
		const page = await this.get(`/sign-in/workspace?next=${encodeURIComponent(next)}`)
		const id = /action="\/sign-in\/invitations\/(inv_[a-z2-7]+)\/accept"/.exec(page.text)?.[1]
		if (!id) throw new Error(`no invitation on the sign-in choice page: ${page.status} ${page.text.slice(0, 300)}`)
		return this.post(`/sign-in/invitations/${id}/accept`, { next })
	}
}

/** A random client address, e.g. 10.3.17.42 (sign-in slow-down is counted per address). */
export function uniqueAddress(): string {
	const [a, b, c] = crypto.getRandomValues(new Uint8Array(3))
	return `10.${a}.${b}.${c}`
}

/**
 * A cookie-keeping anonymous visitor of a public form page (the candidate's upload page), in-process,
 * from an address of its own: such pages are limited per client address, so `portalApp` trusts
 * `X-Forwarded-For`. It opens the page once, then posts files with the page's CSRF token.
 */
export async function anonymousVisitor(path: string, address = uniqueAddress()) {
	const { app } = await portalApp()
	const first = await app.handle(new Request(`http://localhost${path}`, { headers: { 'x-forwarded-for': address } }))
	const cookie = first.headers
		.getSetCookie()
		.map((c) => c.split(';')[0])
		.join('; ')
	const page = await first.text()
	const csrf = page.match(/name="csrf" value="([^"]*)"/)?.[1] ?? ''
	return {
		status: first.status,
		page,
		cookie,
		async upload(kind: string, file: { name: string; bytes: Uint8Array; type?: string }) {
			const form = new FormData()
			form.set('csrf', csrf)
			form.set('kind', kind)
			form.set('file', new File([file.bytes as Uint8Array<ArrayBuffer>], file.name, { type: file.type ?? 'application/octet-stream' }))
			const res = await app.handle(new Request(`http://localhost${path}`, { method: 'POST', body: form, headers: { cookie, 'x-forwarded-for': address } }))
			return { status: res.status, location: res.headers.get('location'), retryAfter: res.headers.get('retry-after'), text: await res.text() }
		},
	}
}

/**
 * A signed-in portal client for a person (their own client address). On the step after the
 * password, a person in several workspaces chooses `workspace` (a slug); with `acceptInvitation`,
 * a person invited to a workspace accepts the first invitation there.
 */
export async function signedIn(
	person: { email: string; password: string },
	options: { origin?: string; overrides?: Record<string, string>; workspace?: string; acceptInvitation?: boolean } = {},
) {
	const { app } = await portalApp(options.overrides)
	const client = new PortalClient(app, { origin: options.origin, address: uniqueAddress() })
	let res = await client.signIn(person.email, person.password)
	if (res.status === 303 && res.headers.get('location')?.startsWith('/sign-in/workspace')) {
		if (options.workspace) res = await client.chooseWorkspace(options.workspace)
		else if (options.acceptInvitation) res = await client.acceptFirstInvitation()
	}
	if (res.status !== 303 || res.headers.get('location')?.startsWith('/sign-in'))
		throw new Error(`sign-in failed for ${person.email}: ${res.status} ${res.headers.get('location') ?? ''} ${res.text.slice(0, 300)}`)
	await client.get('/portal')
	return client
}
