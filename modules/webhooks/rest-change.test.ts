/**
 * A vendor changes its webhook endpoint in place (`PATCH /api/v1/webhooks/{id}`) and rotates its secret
 * (`POST /api/v1/webhooks/{id}/rotate-secret`), as an integrator meets them: the secret kept, every
 * field judged as an add judges it, the firm's switch-off never undone, every change in the audit trail.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { callOn, newVendor, newWorkspace, type TestWorkspace } from '../../tests/helpers.ts'
import { portalApp } from '../../tests/portal.ts'
import { runCommand } from '../../core/cli.ts'
import { operatorActor } from '../auth/index.ts'
import { activityFor } from '../activity/index.ts'
import { createKey, revokeVendorKey } from '../vendors/index.ts'
import { activitySentences } from '../activity/sentences.ts'
import { addEndpoint, setEndpointEnabled } from './service.ts'
import { switchedOff } from './switch-off.ts'
import { webhookDeliveries, webhookEndpoints } from './table.ts'

let app: Awaited<ReturnType<typeof portalApp>>['app']
let deps: AppDeps
let ws: TestWorkspace
beforeAll(async () => {
	;({ app, deps } = await portalApp({ WEBHOOKS_ALLOW_PRIVATE: 'on' }))
	ws = await newWorkspace(deps)
})

/** An address that is only stored here: nothing is delivered in these tests. */
const HOOK = 'http://127.0.0.1:9/hook'

async function added(key: string, path = 'a', events = ['job.published']) {
	const res = await callOn(app, 'POST', '/api/v1/webhooks', { key, body: { url: `${HOOK}/${path}`, events } })
	expect(res.status).toBe(201)
	return res.json
}
const patch = (key: string, id: string, body: unknown) => callOn(app, 'PATCH', `/api/v1/webhooks/${id}`, { key, body })
const read = async (key: string, id: string) => (await callOn(app, 'GET', `/api/v1/webhooks/${id}`, { key })).json
const row = async (id: string) => (await deps.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0]!
const activity = async (id: string) =>
	(await activityFor(deps.db, ws.id, 'webhook_endpoint', id))
		.filter((a) => a.action !== 'webhook.endpoint_added')
		.map((a) => ({ action: a.action, detail: a.detail }))

describe('PATCH /api/v1/webhooks/{id}', () => {
	test('changes the address, event types and description in place: same id and secret, answered as GET answers', async () => {
		const { apiKey } = await newVendor(ws, 'Mover Staffing', deps)
		const created = await added(apiKey, 'old')
		const sealed = (await row(created.id)).secretSealed
		const res = await patch(apiKey, created.id, { url: `${HOOK}/new`, events: ['job.closed', 'submission.created'], description: 'Our ATS' })
		expect(res.status).toBe(200)
		expect(res.json).toEqual(await read(apiKey, created.id))
		expect(res.json).toMatchObject({ id: created.id, url: `${HOOK}/new`, events: ['job.closed', 'submission.created'], description: 'Our ATS', enabled: true })
		expect('secret' in res.json || 'warnings' in res.json).toBe(false)
		expect((await row(created.id)).secretSealed).toBe(sealed)
		// Only what is sent changes; null description is none; an empty change changes nothing and logs nothing.
		const cleared = await patch(apiKey, created.id, { description: null })
		expect([cleared.status, cleared.json.description, cleared.json.url, cleared.json.events]).toEqual([
			200,
			null,
			`${HOOK}/new`,
			['job.closed', 'submission.created'],
		])
		const before = (await activity(created.id)).length
		expect((await patch(apiKey, created.id, {})).json).toEqual(cleared.json)
		expect((await patch(apiKey, created.id, { events: ['job.closed', 'submission.created'] })).status).toBe(200)
		expect((await activity(created.id)).length).toBe(before)
	})

	test('judges each field sent as POST does: the address, the event types (any case, with a warning), unknown fields ignored with a warning', async () => {
		const { apiKey } = await newVendor(ws, 'Strict Staffing', deps)
		const { id } = await added(apiKey, 'strict')
		const fieldsOf = async (body: unknown) => {
			const res = await patch(apiKey, id, body)
			return [res.status, res.json.fields?.map((f: { field: string }) => f.field)]
		}
		expect(await fieldsOf({ url: 'ftp://example.com/x' })).toEqual([422, ['url']])
		expect(await fieldsOf({ url: 'http://user:pw@127.0.0.1:9/x' })).toEqual([422, ['url']])
		expect(await fieldsOf({ url: null })).toEqual([422, ['url']])
		expect(await fieldsOf({ events: [] })).toEqual([422, ['events']])
		expect(await fieldsOf({ events: ['application.created'] })).toEqual([422, ['events']])
		expect(await fieldsOf({ events: 'job.closed' })).toEqual([422, ['events']])
		expect(await fieldsOf({ enabled: 'yes' })).toEqual([422, ['enabled']])
		expect(await fieldsOf({ description: 7 })).toEqual([422, ['description']])
		// Nothing of a refused change was kept.
		expect(await read(apiKey, id)).toMatchObject({ url: `${HOOK}/strict`, events: ['job.published'], enabled: true })
		const loud = await patch(apiKey, id, { events: ['JOB.CLOSED'], format: 'xml', secret: 'whsec_x', createdAt: 'now' })
		expect([loud.status, loud.json.events]).toEqual([200, ['job.closed']])
		expect(loud.json.warnings).toEqual([
			'events "JOB.CLOSED" was stored as "job.closed", its listed spelling',
			'secret, createdAt are made by the service, not sent, and were ignored',
			'Unknown fields were ignored: format',
		])
		// What a read returns can be sent back (enabled is the vendor's to send here).
		const { id: _, disabledReason: __, createdAt: ___, ...back } = await read(apiKey, id)
		const again = await patch(apiKey, id, back)
		expect([again.status, 'warnings' in again.json]).toEqual([200, false])
		const twice = await callOn(app, 'PATCH', `/api/v1/webhooks/${id}`, { key: apiKey, raw: '{"url":"http://127.0.0.1:9/a","url":"http://127.0.0.1:9/b"}' })
		expect(twice.status).toBe(400)
		const notObject = await callOn(app, 'PATCH', `/api/v1/webhooks/${id}`, { key: apiKey, raw: '[1]', headers: { 'content-type': 'application/json' } })
		expect(notObject.status).toBe(400)
	})

	test('another vendor’s endpoint, in this workspace or another, or the firm’s own, is 404 exactly as an unknown id, and is left as it was', async () => {
		const owner = await newVendor(ws, 'Owning Staffing', deps)
		const endpoint = await added(owner.apiKey, 'owned')
		const neighbour = await newVendor(ws, 'Nosy Staffing', deps)
		const far = await newVendor(await newWorkspace(deps), 'Distant Staffing', deps)
		const firms = await addEndpoint(deps, operatorActor(ws), { url: `${HOOK}/firm`, events: ['application.created'] })
		const answer = async (key: string, id: string) => {
			const res = await patch(key, id, { url: `${HOOK}/stolen`, enabled: false })
			return { status: res.status, body: JSON.stringify(res.json).replaceAll(id, '<id>') }
		}
		const absent = await answer(owner.apiKey, `whe_${'b'.repeat(20)}`)
		expect(absent.status).toBe(404)
		for (const key of [neighbour.apiKey, far.apiKey]) expect(await answer(key, endpoint.id)).toEqual(absent)
		expect(await answer(owner.apiKey, firms.endpoint.id)).toEqual(absent)
		expect(await read(owner.apiKey, endpoint.id)).toMatchObject({ url: `${HOOK}/owned`, enabled: true })
		expect((await row(firms.endpoint.id)).url).toBe(`${HOOK}/firm`)
		for (const odd of ['%00', 'x'.repeat(5000)]) expect((await patch(owner.apiKey, odd, {})).status).toBe(404)
		// 400 before 404 before 422, as on every operation of the API: out of reach is 404 whatever the body holds.
		for (const body of [{ url: 7 }, { url: 'ftp://x' }, { events: ['nope'] }]) expect((await patch(neighbour.apiKey, endpoint.id, body)).status).toBe(404)
		const broken = await callOn(app, 'PATCH', `/api/v1/webhooks/${endpoint.id}`, {
			key: neighbour.apiKey,
			raw: '{',
			headers: { 'content-type': 'application/json' },
		})
		expect(broken.status).toBe(400)
	})
})

describe('switching on and pausing through PATCH', () => {
	test('false pauses (nothing is queued meanwhile); true switches on again', async () => {
		const { apiKey } = await newVendor(ws, 'Pausing Staffing', deps)
		const { id } = await added(apiKey, 'pause')
		const paused = await patch(apiKey, id, { enabled: false })
		expect([paused.status, paused.json.enabled, paused.json.disabledReason]).toEqual([200, false, 'paused_by_vendor'])
		expect((await patch(apiKey, id, { enabled: false })).json.disabledReason).toBe('paused_by_vendor')
		const on = await patch(apiKey, id, { enabled: true })
		expect([on.status, on.json.enabled, on.json.disabledReason]).toEqual([200, true, null])
		expect((await activity(id)).map((a) => a.action)).toEqual(['webhook.endpoint_disabled', 'webhook.endpoint_enabled'])
	})

	test('true switches on an endpoint Benchline switched off (410 Gone, 5 days failing), clears its failures and makes what waited due now', async () => {
		const { apiKey } = await newVendor(ws, 'Returning Staffing', deps)
		for (const cause of ['answered_410_gone', 'deliveries_failing'] as const) {
			const { id } = await added(apiKey, cause)
			const long = new Date(Date.now() - 6 * 86_400_000)
			await deps.db
				.update(webhookEndpoints)
				.set({ ...switchedOff(cause, 'words'), failingSince: long, lastFailureAt: long })
				.where(eq(webhookEndpoints.id, id))
			await deps.db
				.insert(webhookDeliveries)
				.values({ id: `msg_${crypto.randomUUID().slice(0, 18)}`, endpointId: id, workspaceId: ws.id, type: 'job.published', body: '{}', nextAttemptAt: long })
			expect((await read(apiKey, id)).disabledReason).toBe(cause)
			const on = await patch(apiKey, id, { enabled: true })
			expect([on.status, on.json.enabled, on.json.disabledReason]).toEqual([200, true, null])
			const after = await row(id)
			expect([after.failingSince, after.lastFailureAt, after.disabledBy, after.disabledReason]).toEqual([null, null, null, null])
			const [waiting] = await deps.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, id))
			expect(waiting!.nextAttemptAt.getTime()).toBeGreaterThan(long.getTime())
		}
	})

	test('never undoes the firm’s switch-off: switching on, or moving, an endpoint the firm switched off is 409, and so is moving one to an address the firm switched off', async () => {
		const { apiKey } = await newVendor(ws, 'Stopped Staffing', deps)
		const stopped = await added(apiKey, 'stopped')
		const other = await added(apiKey, 'other')
		await setEndpointEnabled(deps, operatorActor(ws), stopped.id, false)
		for (const body of [{ enabled: true }, { url: `${HOOK}/elsewhere` }, { url: `${HOOK}/elsewhere`, enabled: false }]) {
			const res = await patch(apiKey, stopped.id, body)
			expect([res.status, res.json.error]).toEqual([409, expect.stringContaining('the firm switched off your endpoint')])
		}
		expect(await read(apiKey, stopped.id)).toMatchObject({ url: `${HOOK}/stopped`, enabled: false, disabledReason: 'switched_off_by_firm' })
		// Its event types may change: it stays off.
		expect((await patch(apiKey, stopped.id, { events: ['job.closed'] })).json).toMatchObject({ events: ['job.closed'], enabled: false })
		const moved = await patch(apiKey, other.id, { url: `${HOOK}/stopped` })
		expect([moved.status, moved.json.error]).toEqual([409, expect.stringContaining(`${stopped.id} is at the same address`)])
		expect((await read(apiKey, other.id)).url).toBe(`${HOOK}/other`)
	})

	test('the firm’s switch-off of an endpoint the vendor paused is the firm’s: the vendor cannot switch it on', async () => {
		const { apiKey } = await newVendor(ws, 'Paused Then Stopped Staffing', deps)
		const { id } = await added(apiKey, 'paused-stopped')
		await patch(apiKey, id, { enabled: false })
		await setEndpointEnabled(deps, operatorActor(ws), id, false)
		expect((await read(apiKey, id)).disabledReason).toBe('switched_off_by_firm')
		expect((await patch(apiKey, id, { enabled: true })).status).toBe(409)
	})
})

describe('a revoked key', () => {
	test('leaves nothing it added that the vendor could switch on again with another key: one paused, or switched off by Benchline, becomes the firm’s switch-off', async () => {
		const vendor = await newVendor(ws, 'Leaky Staffing', deps)
		const paused = await added(vendor.apiKey, 'leak-paused')
		const gone = await added(vendor.apiKey, 'leak-gone')
		const stopped = await added(vendor.apiKey, 'leak-stopped')
		await patch(vendor.apiKey, paused.id, { enabled: false })
		await deps.db.update(webhookEndpoints).set(switchedOff('answered_410_gone', 'words')).where(eq(webhookEndpoints.id, gone.id))
		await setEndpointEnabled(deps, operatorActor(ws), stopped.id, false)
		const fresh = await createKey(deps, operatorActor(ws), vendor.vendorId)
		const revoked = await revokeVendorKey(deps, operatorActor(ws), vendor.vendorId, vendor.keyId)
		expect(revoked.switchedOff.webhookEndpoints!.sort()).toEqual([paused.id, gone.id].sort())
		for (const id of [paused.id, gone.id]) {
			expect((await read(fresh.apiKey, id)).disabledReason).toBe('api_key_revoked')
			expect((await patch(fresh.apiKey, id, { enabled: true })).status).toBe(409)
		}
		// The firm's own switch-off keeps its reason.
		expect((await read(fresh.apiKey, stopped.id)).disabledReason).toBe('switched_off_by_firm')
	})
})

describe('a key that moved an endpoint', () => {
	test('is the key it is counted as set up by: revoking it switches the endpoint off, though another key added it', async () => {
		const vendor = await newVendor(ws, 'Two Keys Staffing', deps)
		const { id } = await added(vendor.apiKey, 'two-keys')
		const leaked = await createKey(deps, operatorActor(ws), vendor.vendorId)
		expect((await patch(leaked.apiKey, id, { url: `${HOOK}/attacker` })).status).toBe(200)
		const revoked = await revokeVendorKey(deps, operatorActor(ws), vendor.vendorId, leaked.keyId)
		expect(revoked.switchedOff.webhookEndpoints).toEqual([id])
		expect(await read(vendor.apiKey, id)).toMatchObject({ url: `${HOOK}/attacker`, enabled: false, disabledReason: 'api_key_revoked' })
		// A change that does not move it leaves it the adding key's.
		const other = await added(vendor.apiKey, 'kept')
		const third = await createKey(deps, operatorActor(ws), vendor.vendorId)
		await patch(third.apiKey, other.id, { events: ['job.closed'] })
		expect((await revokeVendorKey(deps, operatorActor(ws), vendor.vendorId, third.keyId)).switchedOff.webhookEndpoints ?? []).toEqual([])
	})
})

describe('the audit trail', () => {
	test('records a change with what changed, and where the events now go, in the firm’s words', async () => {
		const { apiKey } = await newVendor(ws, 'Audited Staffing', deps)
		const { id } = await added(apiKey, 'before')
		await patch(apiKey, id, { url: `${HOOK}/after`, events: ['job.closed'] })
		const [line] = await activity(id)
		expect(line).toEqual({
			action: 'webhook.endpoint_changed',
			detail: { changed: ['url', 'events'], from: `${HOOK}/before`, to: `${HOOK}/after`, events: ['job.closed'] },
		})
		const rows = (await activityFor(deps.db, ws.id, 'webhook_endpoint', id)).filter((a) => a.action === 'webhook.endpoint_changed')
		const [sentence] = await activitySentences(deps, operatorActor(ws), rows as never)
		expect([sentence!.did, sentence!.change]).toEqual([
			'changed the webhook endpoint',
			`changing its address from ${HOOK}/before to ${HOOK}/after, its event types`,
		])
	})
})

describe('POST /api/v1/webhooks/{id}/rotate-secret', () => {
	test('gives a new secret once, the one replaced signing beside it for 24 hours; another vendor’s id is 404', async () => {
		const { apiKey } = await newVendor(ws, 'Rotating Staffing', deps)
		const created = await added(apiKey, 'rotate')
		const res = await callOn(app, 'POST', `/api/v1/webhooks/${created.id}/rotate-secret`, { key: apiKey })
		expect(res.status).toBe(200)
		const { secret, previousSecretValidUntil, ...endpoint } = res.json
		expect(secret).toMatch(/^whsec_/)
		expect(secret).not.toBe(created.secret)
		expect(endpoint).toEqual(await read(apiKey, created.id))
		const hours = (Date.parse(previousSecretValidUntil) - Date.now()) / 3_600_000
		expect(hours).toBeGreaterThan(23.9)
		expect(hours).toBeLessThanOrEqual(24)
		expect((await row(created.id)).previousSecrets).toHaveLength(1)
		const other = await newVendor(ws, 'Jealous Staffing', deps)
		expect((await callOn(app, 'POST', `/api/v1/webhooks/${created.id}/rotate-secret`, { key: other.apiKey })).status).toBe(404)
	})
})

describe('the OpenAPI description', () => {
	test('describes the change and the rotation, each answer in the shape of GET (plus warnings, or the new secret)', async () => {
		const doc = (await callOn(app, 'GET', '/api/v1/openapi.json')).json
		const { Webhook, WebhookChanged, WebhookSecretRotated } = doc.components.schemas
		expect(WebhookChanged.properties).toEqual({ ...Webhook.properties, warnings: expect.any(Object) })
		expect(WebhookChanged.required).toEqual(Webhook.required)
		expect(WebhookSecretRotated.required.sort()).toEqual([...Webhook.required, 'secret', 'previousSecretValidUntil'].sort())
		expect(doc.paths['/webhooks/{id}'].patch.operationId).toBe('changeWebhook')
		expect(Object.keys(doc.components.schemas.WebhookChange.properties)).toEqual(['url', 'events', 'description', 'enabled'])
		expect(doc.paths['/webhooks/{id}/rotate-secret'].post.operationId).toBe('rotateWebhookSecret')
	})
})

describe('the CLI’s webhook add', () => {
	test('says what the service adjusted, as the API does: a Warning line, and `warnings` in --json (empty when nothing), the other fields kept', async () => {
		const loud = await runCommand(deps, 'webhook add', { workspace: ws.slug, url: `${HOOK}/cli-loud`, events: 'JOB.PUBLISHED,job.closed' })
		expect(Object.keys(loud.json)).toEqual(['endpointId', 'secret', 'warnings'])
		expect(loud.json.warnings).toEqual(['events "JOB.PUBLISHED" was stored as "job.published", its listed spelling'])
		expect(loud.lines).toContain('Warning: events "JOB.PUBLISHED" was stored as "job.published", its listed spelling.')
		const plain = await runCommand(deps, 'webhook add', { workspace: ws.slug, url: `${HOOK}/cli-plain`, events: 'job.published' })
		expect(plain.json.warnings).toEqual([])
		expect(plain.lines.some((l) => l.startsWith('Warning'))).toBe(false)
	})
})
