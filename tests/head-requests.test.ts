/**
 * HEAD is GET without the body (RFC 9110 §9.3.2): the same status and headers. The pages of a form
 * anyone may send (`auth: 'form'`: sign-in, forgot password, SSO, the careers privacy request) answered
 * HEAD with 403 "This form has expired", because their CSRF check let only GET through; a signed-in
 * page asked without a session answered HEAD with a 401 page where GET is sent to sign in, and the
 * metrics port answered HEAD /metrics with 404.
 */
import { beforeAll, expect, test } from 'bun:test'
import { declaredAuth } from '../core/http/auth.ts'
import { metricsOnly } from '../core/http/metrics-route.ts'
import { portalApp, uniqueAddress } from './portal.ts'

const fillPath = (path: string) => path.replace(/:[A-Za-z]+/g, 'x1').replace(/\*/g, 'x')

beforeAll(() => portalApp(), 60_000)

async function ask(method: 'GET' | 'HEAD', path: string) {
	const { app } = await portalApp()
	const res = await app.handle(new Request(`http://localhost${path}`, { method, headers: { 'x-forwarded-for': uniqueAddress() } }))
	await res.arrayBuffer()
	return { status: res.status, location: res.headers.get('location'), csrfCookie: res.headers.getSetCookie().some((c) => c.startsWith('csrf=')) }
}

test('every page of an anonymous form answers HEAD as it answers GET, the CSRF cookie included', async () => {
	const { app } = await portalApp()
	const formPages = app.routes.filter((r) => r.method === 'GET' && declaredAuth(r.hooks) === 'form').map((r) => fillPath(r.path))
	expect(formPages).toContain('/sign-in')
	expect(formPages.length).toBeGreaterThanOrEqual(7)
	const differ: string[] = []
	for (const path of formPages) {
		const [get, head] = [await ask('GET', path), await ask('HEAD', path)]
		if (JSON.stringify(get) !== JSON.stringify(head)) differ.push(`${path}: GET ${JSON.stringify(get)}, HEAD ${JSON.stringify(head)}`)
	}
	expect(differ).toEqual([])
	expect(await ask('HEAD', '/sign-in')).toEqual({ status: 200, location: null, csrfCookie: true })
})

test('a signed-in page asked with HEAD and no session is sent to sign in, as GET is', async () => {
	expect(await ask('HEAD', '/portal')).toEqual({ status: 303, location: '/sign-in?next=%2Fportal', csrfCookie: false })
})

test('the metrics port answers HEAD /metrics as GET', async () => {
	const { deps } = await portalApp()
	for (const method of ['GET', 'HEAD']) expect((await metricsOnly(deps)(new Request('http://127.0.0.1:9464/metrics', { method }))).status).toBe(200)
})
