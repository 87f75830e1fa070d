/**
 * Search engines told of job pages, against real local receivers: IndexNow's JSON (host, key, key
 * location, the pages of one host in one request) and the Google Indexing API's (URL_UPDATED on
 * publish, change and re-open, URL_DELETED on close), its bearer token a JWT the service account
 * signed, checked with the account's public key. Retries, refusals, the key file and the settings.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createPublicKey, generateKeyPairSync } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { importSPKI, jwtVerify } from 'jose'
import type { AppDeps } from '../../core/deps.ts'
import { underPath } from '../../core/registry.ts'
import { callOn, configProblems, newVendor, newWorkspace, unique, type TestWorkspace } from '../../tests/helpers.ts'
import { portalApp } from '../../tests/portal.ts'
import { drainEvents } from '../events/index.ts'
import { jobUrl } from '../jobs/index.ts'
import { indexingNotices } from './table.ts'
import { sendDueNotices } from './worker.ts'

interface Got {
	path: string
	body: Record<string, unknown>
	authorization: string | null
}

const got: Got[] = []
let answer = 200
/** Run once while the next request waits for its answer (a change made during a send). */
let whileSending: (() => Promise<void>) | null = null
const receiver = Bun.serve({
	hostname: '127.0.0.1',
	port: 0,
	async fetch(request) {
		got.push({
			path: new URL(request.url).pathname,
			body: (await request.json()) as Record<string, unknown>,
			authorization: request.headers.get('authorization'),
		})
		const during = whileSending
		whileSending = null
		await during?.()
		return new Response(null, { status: answer })
	},
})
afterAll(() => receiver.stop(true))

const KEY = 'a1b2c3d4e5f6a7b8'
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
const account = {
	type: 'service_account',
	client_email: 'jobs-indexing@benchline-demo.iam.gserviceaccount.com',
	private_key_id: 'k1',
	private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
}
const dir = mkdtempSync(join(tmpdir(), 'bl-indexing-'))
const keyFile = join(dir, 'service-account.json')
writeFileSync(keyFile, JSON.stringify(account))

const SETTINGS = {
	INDEXNOW_KEY: KEY,
	INDEXNOW_ENDPOINT: `http://127.0.0.1:${receiver.port}/indexnow`,
	GOOGLE_INDEXING_CREDENTIALS: keyFile,
	GOOGLE_INDEXING_ENDPOINT: `http://127.0.0.1:${receiver.port}/google`,
}

let deps: AppDeps
let app: Awaited<ReturnType<typeof portalApp>>['app']
beforeAll(async () => {
	;({ app, deps } = await portalApp(SETTINGS))
	await drainEvents(deps, ['indexing'])
})

async function publish(ws: TestWorkspace, apiKey: string, vendorJobId = unique('REQ-')) {
	const res = await callOn(app, 'POST', '/api/v1/jobs', { key: apiKey, body: { vendorJobId, title: 'Salesforce Developer', location: 'Charlotte, NC' } })
	expect(res.status).toBe(201)
	const [job] = await deps.database.rows<{ slug: string }>(sql`select slug from jobs where workspace_id = ${ws.id} and vendor_job_id = ${vendorJobId}`)
	return { vendorJobId, url: jobUrl(deps.config.baseUrl, ws.slug, job!.slug) }
}

async function round(ws: TestWorkspace) {
	got.length = 0
	await drainEvents(deps, ['indexing'])
	await sendDueNotices(deps, { workspaceId: ws.id })
	return { indexNow: got.filter((g) => g.path === '/indexnow'), google: got.filter((g) => g.path === '/google') }
}

const waiting = (ws: TestWorkspace) =>
	deps.database.rows<{ target: string; action: string; attempts: number }>(
		sql`select target, action, attempts from ${indexingNotices} where workspace_id = ${ws.id} order by target`,
	)

describe('notices', () => {
	test('a publish reaches IndexNow and the Indexing API; a close is URL_DELETED, a re-open URL_UPDATED; the Google token is signed by the service account', async () => {
		const ws = await newWorkspace(deps)
		const vendor = await newVendor(ws, 'Acme', deps)
		const { vendorJobId, url } = await publish(ws, vendor.apiKey)
		const first = await round(ws)
		expect(first.indexNow).toHaveLength(1)
		expect(first.indexNow[0]!.body).toEqual({ host: new URL(url).host, key: KEY, keyLocation: `${deps.config.baseUrl}/${KEY}.txt`, urlList: [url] })
		expect(first.google.map((g) => g.body)).toEqual([{ url, type: 'URL_UPDATED' }])
		const token = first.google[0]!.authorization!.replace(/^Bearer /, '')
		const { payload, protectedHeader } = await jwtVerify(
			token,
			await importSPKI(createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }) as string, 'RS256'),
		)
		expect(payload).toMatchObject({ iss: account.client_email, sub: account.client_email, scope: 'https://www.googleapis.com/auth/indexing' })
		expect(protectedHeader.kid).toBe('k1')
		expect(await waiting(ws)).toEqual([])

		const closed = await callOn(app, 'DELETE', `/api/v1/jobs/${vendorJobId}`, { key: vendor.apiKey })
		expect(closed.status).toBe(200)
		expect((await round(ws)).google.map((g) => g.body)).toEqual([{ url, type: 'URL_DELETED' }])
		// Publishing a closed job's vendorJobId again re-opens it.
		const reopened = await callOn(app, 'POST', '/api/v1/jobs', {
			key: vendor.apiKey,
			body: { vendorJobId, title: 'Salesforce Developer', location: 'Charlotte, NC' },
		})
		expect(reopened.status).toBe(200)
		const again = await round(ws)
		expect(again.google.map((g) => g.body)).toEqual([{ url, type: 'URL_UPDATED' }])
		expect(again.indexNow[0]!.body.urlList).toEqual([url])
	})

	test('pages waiting together go to IndexNow in one request; a job published then closed before the round is announced once, deleted', async () => {
		const ws = await newWorkspace(deps)
		const vendor = await newVendor(ws, 'Acme', deps)
		const pages = [await publish(ws, vendor.apiKey), await publish(ws, vendor.apiKey), await publish(ws, vendor.apiKey)]
		expect((await callOn(app, 'DELETE', `/api/v1/jobs/${pages[2]!.vendorJobId}`, { key: vendor.apiKey })).status).toBe(200)
		const { indexNow, google } = await round(ws)
		expect(indexNow).toHaveLength(1)
		expect((indexNow[0]!.body.urlList as string[]).sort()).toEqual(pages.map((p) => p.url).sort())
		expect(google.map((g) => g.body).sort((a, b) => String(a.url).localeCompare(String(b.url)))).toEqual(
			pages.map((p, i) => ({ url: p.url, type: i === 2 ? 'URL_DELETED' : 'URL_UPDATED' })).sort((a, b) => a.url.localeCompare(b.url)),
		)
	})

	test('an engine that fails is tried again later; one that refuses the request is not; the publish never waits on either', async () => {
		const ws = await newWorkspace(deps)
		const vendor = await newVendor(ws, 'Acme', deps)
		answer = 503
		await publish(ws, vendor.apiKey)
		await round(ws)
		expect(await waiting(ws)).toEqual([
			{ target: 'google', action: 'updated', attempts: 1 },
			{ target: 'indexnow', action: 'updated', attempts: 1 },
		])
		// Not due yet: nothing is sent in the next round.
		expect((await round(ws)).indexNow).toHaveLength(0)
		answer = 200
		await deps.database.rows(sql`update ${indexingNotices} set next_attempt_at = now() where workspace_id = ${ws.id}`)
		const retried = await round(ws)
		expect(retried.indexNow).toHaveLength(1)
		expect(retried.google).toHaveLength(1)
		expect(await waiting(ws)).toEqual([])
		// 403 (a key the engine does not accept): dropped at once, never retried.
		answer = 403
		await publish(ws, vendor.apiKey)
		await round(ws)
		expect(await waiting(ws)).toEqual([])
		answer = 200
	})
})

describe('retries, notice by notice', () => {
	/** Each waiting notice of the workspace: its attempts and in how many seconds it is due. */
	const schedule = (ws: TestWorkspace) =>
		deps.database.rows<{ target: string; url: string; action: string; attempts: number; dueIn: number }>(
			sql`select target, url, action, attempts, extract(epoch from next_attempt_at - now())::float8 as "dueIn"
				from ${indexingNotices} where workspace_id = ${ws.id} order by target, url`,
		)

	test('a failed request moves each notice it carried one step along its own schedule; only those past the last step are dropped (IndexNow and Google)', async () => {
		const ws = await newWorkspace(deps)
		const vendor = await newVendor(ws, 'Acme', deps)
		const oldest = await publish(ws, vendor.apiKey)
		const old = await publish(ws, vendor.apiKey)
		await drainEvents(deps, ['indexing'])
		// Failed before: `old` five times (one step left), `oldest` six (none left); both due now.
		for (const [page, attempts] of [
			[oldest, 6],
			[old, 5],
		] as const)
			await deps.database.rows(sql`update ${indexingNotices} set attempts = ${attempts}, next_attempt_at = now() - interval '1 hour' where url = ${page.url}`)
		// A job published and closed meanwhile: its notice is new, and created after the others.
		const fresh = await publish(ws, vendor.apiKey)
		expect((await callOn(app, 'DELETE', `/api/v1/jobs/${fresh.vendorJobId}`, { key: vendor.apiKey })).status).toBe(200)
		answer = 503
		const { indexNow, google } = await round(ws)
		answer = 200
		// One IndexNow request carried the three pages; Google got one request a page.
		expect(indexNow).toHaveLength(1)
		expect((indexNow[0]!.body.urlList as string[]).sort()).toEqual([oldest.url, old.url, fresh.url].sort())
		expect(google).toHaveLength(3)
		// Within 5 s of the step's wait (10 s after a first failure, 6 h after a sixth).
		const expected = [
			{ url: fresh.url, action: 'deleted', attempts: 1, dueIn: expect.closeTo(10, -1) },
			{ url: old.url, action: 'updated', attempts: 6, dueIn: expect.closeTo(21_600, -1) },
		].sort((a, b) => a.url.localeCompare(b.url))
		expect(await schedule(ws)).toEqual([...expected.map((n) => ({ target: 'google', ...n })), ...expected.map((n) => ({ target: 'indexnow', ...n }))])
	})

	test('a notice changed while its request was failing keeps its change: due at once, attempts started over', async () => {
		const ws = await newWorkspace(deps)
		const vendor = await newVendor(ws, 'Acme', deps)
		const page = await publish(ws, vendor.apiKey)
		await drainEvents(deps, ['indexing'])
		await deps.database.rows(sql`update ${indexingNotices} set attempts = 3 where url = ${page.url}`)
		answer = 503
		whileSending = async () => {
			expect((await callOn(app, 'DELETE', `/api/v1/jobs/${page.vendorJobId}`, { key: vendor.apiKey })).status).toBe(200)
			await drainEvents(deps, ['indexing'])
		}
		await sendDueNotices(deps, { workspaceId: ws.id })
		answer = 200
		expect(whileSending).toBeNull()
		for (const notice of await schedule(ws)) expect(notice).toMatchObject({ action: 'deleted', attempts: 0, dueIn: expect.closeTo(0, -1) })
		expect(await schedule(ws)).toHaveLength(2)
	})
})

describe('the key file and the settings', () => {
	test('the key is served at /<key>.txt as text; without INDEXNOW_KEY there is no such file and nothing is queued', async () => {
		const res = await callOn(app, 'GET', `/${KEY}.txt`)
		expect(res.status).toBe(200)
		expect(res.text).toBe(KEY)
		expect(res.headers.get('content-type')).toStartWith('text/plain')
		const plain = await portalApp()
		expect((await callOn(plain.app, 'GET', `/${KEY}.txt`)).status).toBe(404)
		const ws = await newWorkspace(plain.deps)
		const vendor = await newVendor(ws, 'Acme', plain.deps)
		const res2 = await callOn(plain.app, 'POST', '/api/v1/jobs', { key: vendor.apiKey, body: { vendorJobId: unique('REQ-'), title: 'Data Engineer' } })
		expect(res2.status).toBe(201)
		await drainEvents(plain.deps, ['indexing'])
		expect(await waiting(ws)).toEqual([])
	})

	test('a key that breaks the IndexNow rule, and a credentials file that is not a key file, stop the start with what is wrong (never the file’s content)', () => {
		expect(configProblems({ INDEXNOW_KEY: 'short' })).toEqual([expect.stringContaining('INDEXNOW_KEY must be 8 to 128 letters')])
		const notJson = join(dir, 'not-json.json')
		writeFileSync(notJson, 'secret-looking-text {')
		const problems = configProblems({ GOOGLE_INDEXING_CREDENTIALS: notJson })
		expect(problems).toEqual([expect.stringContaining('it is not JSON')])
		expect(problems.join()).not.toContain('secret-looking-text')
		expect(configProblems({ GOOGLE_INDEXING_CREDENTIALS: join(dir, 'missing.json') })).toEqual([
			expect.stringContaining('GOOGLE_INDEXING_CREDENTIALS must name a readable'),
		])
		writeFileSync(join(dir, 'partial.json'), '{"client_email":"x@y"}')
		expect(configProblems({ GOOGLE_INDEXING_CREDENTIALS: join(dir, 'partial.json') })).toEqual([expect.stringContaining('no client_email and private_key')])
		expect(configProblems({ INDEXNOW_ENDPOINT: 'ftp://example.com' })).toEqual([expect.stringContaining('INDEXNOW_ENDPOINT')])
	})

	test('a declared path with * holds one segment: /*.txt is a text file at the root, nothing deeper', () => {
		expect(underPath(`/${KEY}.txt`, '/*.txt')).toBe(true)
		expect(underPath('/a/b.txt', '/*.txt')).toBe(false)
		expect(underPath('/.txt', '/*.txt')).toBe(false)
		expect(underPath('/:file.txt', '/*.txt')).toBe(false)
		expect(underPath('/x.txtx', '/*.txt')).toBe(false)
		expect(underPath('/careers/a', '/careers')).toBe(true)
		expect(underPath('/careersx', '/careers')).toBe(false)
	})
})
