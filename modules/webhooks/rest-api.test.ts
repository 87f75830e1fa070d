/**
 * A vendor's webhook endpoints through the Job Publish REST API, as an integrator meets them: one
 * shape of an endpoint in every answer, one endpoint read by its id within the vendor's reach.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import type { AppDeps } from '../../core/deps.ts'
import { callOn, newVendor, newWorkspace, type TestWorkspace } from '../../tests/helpers.ts'
import { portalApp } from '../../tests/portal.ts'
import { operatorActor } from '../auth/index.ts'
import { runCommand } from '../../core/cli.ts'
import {
	addEndpoint,
	deliveryLog,
	endPreviousSecrets,
	getEndpoint,
	removeEndpoint,
	replayDelivery,
	rotateSecret,
	sendTestEvent,
	setEndpointEnabled,
} from './service.ts'

let app: Awaited<ReturnType<typeof portalApp>>['app']
let deps: AppDeps
let ws: TestWorkspace
beforeAll(async () => {
	;({ app, deps } = await portalApp({ WEBHOOKS_ALLOW_PRIVATE: 'on' }))
	ws = await newWorkspace(deps)
})

/** An address that is only stored here: nothing is delivered in these tests. */
const HOOK = 'http://127.0.0.1:9/hook'

async function added(key: string, path = 'a') {
	const res = await callOn(app, 'POST', '/api/v1/webhooks', { key, body: { url: `${HOOK}/${path}`, events: ['job.published'] } })
	expect(res.status).toBe(201)
	return res.json
}

const listed = async (key: string) => (await callOn(app, 'GET', '/api/v1/webhooks', { key })).json.webhooks as Record<string, unknown>[]

describe('GET /api/v1/webhooks/{id}', () => {
	test('answers one endpoint exactly as the list shows it, on or switched off, and never its secret', async () => {
		const { apiKey } = await newVendor(ws, 'Reader Staffing', deps)
		const on = await added(apiKey, 'on')
		const off = await added(apiKey, 'off')
		await setEndpointEnabled(deps, operatorActor(ws), off.id, false)
		const list = await listed(apiKey)
		for (const id of [on.id, off.id]) {
			const one = await callOn(app, 'GET', `/api/v1/webhooks/${id}`, { key: apiKey })
			expect(one.status).toBe(200)
			expect(one.json).toEqual(list.find((w) => w.id === id)!)
			expect(one.text).not.toContain('whsec_')
		}
		expect((await callOn(app, 'GET', `/api/v1/webhooks/${off.id}`, { key: apiKey })).json).toMatchObject({
			enabled: false,
			disabledReason: 'switched_off_by_firm',
		})
	})

	test('another vendor’s endpoint, in this workspace or another, or the firm’s own, answers 404 exactly as an id that never existed', async () => {
		const owner = await newVendor(ws, 'Owner Staffing', deps)
		const endpoint = await added(owner.apiKey)
		const sameWorkspace = await newVendor(ws, 'Neighbour Staffing', deps)
		const elsewhere = await newVendor(await newWorkspace(deps), 'Far Staffing', deps)
		const unknown = `whe_${'a'.repeat(20)}`
		const answer = async (key: string, id: string) => {
			const res = await callOn(app, 'GET', `/api/v1/webhooks/${id}`, { key })
			// The id asked is named in the message: an unknown id's answer, with this id in it, is the same.
			return { status: res.status, body: JSON.stringify(res.json).replaceAll(id, '<id>') }
		}
		const absent = await answer(owner.apiKey, unknown)
		expect(absent).toEqual({ status: 404, body: JSON.stringify({ error: 'No webhook endpoint with the id "<id>"' }) })
		for (const key of [sameWorkspace.apiKey, elsewhere.apiKey]) expect(await answer(key, endpoint.id)).toEqual(absent)
		// The firm's own endpoint in the vendor's workspace is out of its reach too.
		const firms = await addEndpoint(deps, operatorActor(ws), { url: `${HOOK}/firm`, events: ['application.created'] })
		expect(await answer(owner.apiKey, firms.endpoint.id)).toEqual(absent)
	})
})

describe('an id no endpoint can have', () => {
	// NUL, a broken percent-encoding (the router gives no id), a lone surrogate's bytes, kilobytes of id.
	const paths = ['%00', 'whe_a%00b', '%E0%A4%A', '%ED%A0%80', 'x'.repeat(5000)]

	test('is 404 through the API as an unknown id is, never a 422 about stored text nor an id of "null"; the message stays short', async () => {
		const { apiKey } = await newVendor(ws, 'Odd Ids Staffing', deps)
		for (const path of paths)
			for (const method of ['GET', 'DELETE']) {
				const res = await callOn(app, method, `/api/v1/webhooks/${path}`, { key: apiKey })
				expect([method, path.slice(0, 12), res.status, Object.keys(res.json)]).toEqual([method, path.slice(0, 12), 404, ['error']])
				// An id no record can have (a NUL, a broken escape) is refused before the route, with the router's own words.
				expect(res.json.error).toMatch(/^(No webhook endpoint with (the id ".{1,101}"|that id)|Not found)$/su)
				expect(res.json.error).not.toContain('null')
			}
	})

	test('is "not found" for every operation by id, the firm’s and the operator’s CLI', async () => {
		const firm = operatorActor(ws)
		const byId = [
			getEndpoint,
			removeEndpoint,
			rotateSecret,
			endPreviousSecrets,
			sendTestEvent,
			deliveryLog,
			replayDelivery,
			(d: AppDeps, a: typeof firm, id: string) => setEndpointEnabled(d, a, id, true),
		]
		for (const id of ['\u0000', 'whe_\u0000', '\ud800', 'x'.repeat(5000)])
			for (const operation of byId) await expect(operation(deps, firm, id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
		for (const [command, option] of [
			['webhook remove', 'endpoint'],
			['webhook end-previous-secrets', 'endpoint'],
			['webhook replay', 'delivery'],
		] as const)
			await expect(runCommand(deps, command, { [option]: 'whe_\u0000' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
	})
})

describe('POST /api/v1/webhooks', () => {
	test('answers the endpoint in the shape every other answer has, with its signing secret beside it', async () => {
		const { apiKey } = await newVendor(ws, 'Shape Staffing', deps)
		const created = await added(apiKey)
		const { secret, ...endpoint } = created
		expect(secret).toMatch(/^whsec_/)
		expect(endpoint).toEqual((await listed(apiKey))[0]!)
		expect(endpoint).toMatchObject({ enabled: true, disabledReason: null })
	})

	test('names the endpoint it added in Location, which GET answers', async () => {
		const { apiKey } = await newVendor(ws, 'Location Staffing', deps)
		const res = await callOn(app, 'POST', '/api/v1/webhooks', { key: apiKey, body: { url: `${HOOK}/where`, events: ['job.closed'] } })
		const { secret, ...endpoint } = res.json
		expect(res.headers.get('location')).toBe(`/api/v1/webhooks/${endpoint.id}`)
		expect((await callOn(app, 'GET', res.headers.get('location')!, { key: apiKey })).json).toEqual(endpoint)
	})
})

describe('the OpenAPI description', () => {
	test('gives one endpoint and the 201 the list’s shape of an endpoint (the 201 with its secret)', async () => {
		const doc = (await callOn(app, 'GET', '/api/v1/openapi.json')).json
		const { Webhook, WebhookCreated } = doc.components.schemas
		expect(WebhookCreated.required.sort()).toEqual([...Webhook.required, 'secret'].sort())
		expect(WebhookCreated.properties).toEqual({ ...Webhook.properties, secret: expect.any(Object), warnings: expect.any(Object) })
		expect(doc.components.schemas.WebhookBody.additionalProperties).toBeUndefined()
		expect(doc.paths['/webhooks/{id}'].get.responses[200].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Webhook' })
	})
})

describe('an endpoint’s description', () => {
	test('is in every answer as it was stored, null when none; null sent is none, so what a read returns can be sent back', async () => {
		const { apiKey } = await newVendor(ws, 'Words Staffing', deps)
		const sent = { url: `${HOOK}/words`, events: ['job.published'], description: '  Our ATS \u202e😀 Zürich  ' }
		const created = await callOn(app, 'POST', '/api/v1/webhooks', { key: apiKey, body: sent })
		expect(created.status).toBe(201)
		// Stored as one line, without the direction control: the vendor sees what the firm's page shows.
		expect(created.json.description).toBe('Our ATS 😀 Zürich')
		expect((await callOn(app, 'GET', `/api/v1/webhooks/${created.json.id}`, { key: apiKey })).json.description).toBe('Our ATS 😀 Zürich')
		const { url, events } = created.json
		for (const description of [null, undefined]) {
			const none = await callOn(app, 'POST', '/api/v1/webhooks', { key: apiKey, body: { url: `${url}/${description}`, events, description } })
			expect([description, none.status, none.json.description]).toEqual([description, 201, null])
		}
		// A noncharacter is refused as every string of the API is refused it, never stored as the firm's pages would show it.
		const noncharacter = await callOn(app, 'POST', '/api/v1/webhooks', { key: apiKey, body: { url: `${url}/nc`, events, description: 'CRM \uffff' } })
		expect([noncharacter.status, noncharacter.json.fields]).toEqual([
			422,
			[{ field: 'description', message: 'holds a noncharacter (such as U+FFFF), which is not text' }],
		])
		const wrong = await callOn(app, 'POST', '/api/v1/webhooks', { key: apiKey, body: { url: `${url}/n`, events, description: 7 } })
		expect([wrong.status, wrong.json.fields]).toEqual([422, [{ field: 'description', message: 'must be text or null' }]])
	})
})

describe('fields the API does not know', () => {
	test('are ignored with a warning naming them, as on every body of the API; an endpoint read and sent back is added, its answer fields ignored saying why', async () => {
		const { apiKey } = await newVendor(ws, 'Extra Fields Staffing', deps)
		const odd = await callOn(app, 'POST', '/api/v1/webhooks', {
			key: apiKey,
			body: { url: `${HOOK}/extra`, events: ['job.published'], format: 'xml', retries: 3 },
		})
		expect([odd.status, odd.json.warnings]).toEqual([201, ['Unknown fields were ignored: format, retries']])
		const read = (await callOn(app, 'GET', `/api/v1/webhooks/${odd.json.id}`, { key: apiKey })).json
		const again = await callOn(app, 'POST', '/api/v1/webhooks', { key: apiKey, body: { ...read, url: `${HOOK}/again`, secret: 'whsec_mine' } })
		expect(again.status).toBe(201)
		expect(again.json.warnings).toEqual(['id, enabled, disabledReason, createdAt, secret are made by the service, not sent, and were ignored'])
		expect([again.json.id === read.id, again.json.secret === 'whsec_mine']).toEqual([false, false])
		// Nothing to say: no warnings at all.
		const plain = await callOn(app, 'POST', '/api/v1/webhooks', { key: apiKey, body: { url: `${HOOK}/plain`, events: ['job.published'] } })
		expect([plain.status, 'warnings' in plain.json]).toEqual([201, false])
	})
})

describe('event types in another case', () => {
	test('are stored as listed, each with a warning saying so, as the API takes its choices; one that is no event type in any case is still refused', async () => {
		const { apiKey } = await newVendor(ws, 'Shouting Staffing', deps)
		const loud = await callOn(app, 'POST', '/api/v1/webhooks', {
			key: apiKey,
			body: { url: `${HOOK}/loud`, events: ['JOB.PUBLISHED', ' job.closed ', 'job.published'], format: 'xml' },
		})
		expect([loud.status, loud.json.events]).toEqual([201, ['job.published', 'job.closed']])
		expect(loud.json.warnings).toEqual([
			'events "JOB.PUBLISHED" was stored as "job.published", its listed spelling',
			'events " job.closed " was stored as "job.closed", its listed spelling',
			'Unknown fields were ignored: format',
		])
		const wrong = await callOn(app, 'POST', '/api/v1/webhooks', { key: apiKey, body: { url: `${HOOK}/wrong`, events: ['JOB.EXPLODED'] } })
		expect([wrong.status, wrong.json.fields[0].field]).toEqual([422, 'events'])
		// A vendor may not reach a workspace's event by spelling it another way.
		const other = await callOn(app, 'POST', '/api/v1/webhooks', { key: apiKey, body: { url: `${HOOK}/other`, events: ['APPLICATION.CREATED'] } })
		expect([other.status, other.json.fields[0].message]).toEqual([
			422,
			expect.stringContaining('"APPLICATION.CREATED" is not an event type a vendor may subscribe to'),
		])
	})
})
