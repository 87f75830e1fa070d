/**
 * A link whose path is its only credential (a job-alert confirmation, an unsubscribe link, a privacy
 * request's confirmation and download, a document upload, a password reset) is answered with
 * `X-Robots-Tag: noindex, nofollow` and `Cache-Control: no-store`, whatever the answer (the page, an
 * expired link's page): robots.txt lets crawlers into /careers, and a forwarded or logged link must
 * not end up in a search index or a shared cache. The rest of the careers site stays indexable.
 */
import { beforeAll, expect, test } from 'bun:test'
import { newWorkspace } from './helpers.ts'
import { portalApp, uniqueAddress } from './portal.ts'

beforeAll(() => portalApp(), 60_000)

const get = async (path: string) => {
	const { app } = await portalApp()
	const res = await app.handle(new Request(`http://localhost${path}`, { headers: { 'x-forwarded-for': uniqueAddress() } }))
	await res.arrayBuffer()
	return { robots: res.headers.get('x-robots-tag'), cache: res.headers.get('cache-control') }
}

test('every GET route with a :token answers noindex and no-store, an unknown token too', async () => {
	const { app } = await portalApp()
	const ws = await newWorkspace()
	const links = app.routes.filter((r) => r.method === 'GET' && /\/:token(\/|$)/.test(r.path)).map((r) => r.path)
	expect(links.length).toBeGreaterThanOrEqual(6)
	const wrong: string[] = []
	for (const path of links) {
		const url = path.replace(':workspace', ws.slug).replace(':token', 'not-a-real-token-0000')
		const got = await get(url)
		if (got.robots !== 'noindex, nofollow' || got.cache !== 'no-store') wrong.push(`${url}: ${JSON.stringify(got)}`)
	}
	expect(wrong).toEqual([])
})

test('the careers site itself stays indexable', async () => {
	const ws = await newWorkspace()
	expect((await get(`/careers/${ws.slug}`)).robots).toBeNull()
	expect((await get('/robots.txt')).robots).toBeNull()
})
