/**
 * The webhook pages through the real app: Add endpoint (refused address and event types kept with
 * the reason, the secret shown once with Copy), Send test event, Rotate secret, Disable / Enable,
 * Replay and Delete; a vendor's endpoint (added with its API key) listed, switched off and deleted by
 * the owner; another workspace's endpoint is not found; recruiters are refused.
 */
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import { callOn, newPerson, newVendor, newWorkspace } from '../../tests/helpers.ts'
import { portalApp, signedIn } from '../../tests/portal.ts'
import { activityFor } from '../activity/index.ts'
import { activitySentences } from '../activity/sentences.ts'
import { operatorActor } from '../auth/index.ts'
import { createKey } from '../vendors/index.ts'
import { MAX_PREVIOUS_SECRETS } from './service.ts'
import { switchedOff } from './switch-off.ts'
import { webhookEndpoints } from './table.ts'
import { deliverDueWebhooks } from './worker.ts'

const ALLOW = { WEBHOOKS_ALLOW_PRIVATE: 'on' }

describe('/settings/webhooks', () => {
	test('an owner adds an endpoint, sees the secret once, tests, rotates, switches it off and on, replays and deletes it', async () => {
		const { deps } = await portalApp(ALLOW)
		const ws = await newWorkspace(deps)
		const owner = await newPerson(ws, 'owner', {}, deps)
		const page = await signedIn(owner, { overrides: ALLOW })
		const got: { id: string; headers: Record<string, string>; body: string }[] = []
		const server = Bun.serve({
			port: 0,
			hostname: '127.0.0.1',
			async fetch(request) {
				got.push({ id: request.headers.get('webhook-id')!, headers: Object.fromEntries(request.headers.entries()), body: await request.text() })
				return new Response('ok')
			},
		})
		const url = `http://127.0.0.1:${server.port}/in`
		const list = await page.get('/settings/webhooks')
		expect(list.status).toBe(200)
		expect(list.text).toContain('Add endpoint')

		// Refused: an unknown event type and no URL; what was typed and ticked is kept.
		const refused = await page.post('/settings/webhooks', { url: '', description: 'CRM', events: ['job.published', 'job.nope'] })
		expect(refused.status).toBe(422)
		expect(refused.text).toContain('URL is required.')
		expect(refused.text).toContain('job.nope')
		expect(refused.text).toMatch(/value="job.published" checked/)

		const added = await page.submit('/settings/webhooks', { url, description: 'CRM', events: ['job.published', 'job.closed'] })
		const endpointPath = added.redirectedTo!
		expect(endpointPath).toMatch(/^\/settings\/webhooks\/whe_/)
		const secret = /<code id="new-secret">(whsec_[^<]+)<\/code>/.exec(added.text)?.[1]
		expect(secret).toBeDefined()
		expect(added.text).toContain('data-copy="new-secret"')
		// Shown once: the page again shows no secret.
		expect((await page.get(endpointPath)).text).not.toContain('whsec_')

		const tested = await page.submit(`${endpointPath}/ping`)
		expect(tested.text).toContain('webhook.test')
		await deliverDueWebhooks(deps, { workspaceId: ws.id })
		expect(got).toHaveLength(1)
		const h = got[0]!.headers
		new Webhook(secret!).verify(got[0]!.body, {
			'webhook-id': h['webhook-id']!,
			'webhook-timestamp': h['webhook-timestamp']!,
			'webhook-signature': h['webhook-signature']!,
		})
		const logged = await page.get(endpointPath)
		expect(logged.text).toContain(got[0]!.id)
		expect(logged.text).toContain('Delivered')

		const replayed = await page.submit(`${endpointPath}/deliveries/${got[0]!.id}/replay`)
		expect(replayed.text).toContain('queued again')
		await deliverDueWebhooks(deps, { workspaceId: ws.id })
		expect(got.map((g) => g.id)).toEqual([got[0]!.id, got[0]!.id])

		const rotated = await page.submit(`${endpointPath}/rotate`)
		const fresh = /<code id="new-secret">(whsec_[^<]+)<\/code>/.exec(rotated.text)?.[1]
		expect(fresh).toBeDefined()
		expect(fresh).not.toBe(secret)
		expect(rotated.text).toContain('keeps signing beside it for 24 hours')
		// The previous secret can be cut at once (a leak): the button is there while it signs, then gone.
		expect(rotated.text).toContain('End previous secrets now')
		const ended = await page.submit(`${endpointPath}/end-previous`)
		expect(ended.text).toContain('The previous secrets no longer sign')
		expect(ended.text).not.toContain('Previous secret signs until')
		expect(ended.text).not.toContain('End previous secrets now')

		// Off, saying why in the words of the cause the Job Publish API gives a vendor (switched_off_by_firm), on the page and the list.
		const off = await page.submit(`${endpointPath}/disable`)
		expect(off.text).toContain('The endpoint is off')
		expect(off.text).toContain('Off: switched off by your workspace')
		expect((await page.get('/settings/webhooks')).text).toContain('switched off by your workspace')
		expect((await page.submit(`${endpointPath}/enable`)).text).toContain('The endpoint is on')

		// Another workspace's owner finds nothing there.
		const other = await newWorkspace(deps)
		const stranger = await signedIn(await newPerson(other, 'owner', {}, deps), { overrides: ALLOW })
		expect((await stranger.get(endpointPath)).status).toBe(404)
		expect((await stranger.post(`${endpointPath}/delete`)).status).toBe(404)
		// A recruiter may not manage webhooks.
		const recruiter = await signedIn(await newPerson(ws, 'recruiter', {}, deps), { overrides: ALLOW })
		expect((await recruiter.get('/settings/webhooks')).status).toBe(403)

		const deleted = await page.submit(`${endpointPath}/delete`)
		expect(deleted.text).toContain('were deleted')
		expect((await page.get(endpointPath)).status).toBe(404)
		server.stop(true)
	}, 180_000)

	test('rotating again while the most replaced secrets still sign is refused on the page, saying until when; the page lists when each stops', async () => {
		const { deps } = await portalApp(ALLOW)
		const ws = await newWorkspace(deps)
		const page = await signedIn(await newPerson(ws, 'owner', {}, deps), { overrides: ALLOW })
		const added = await page.submit('/settings/webhooks', { url: 'http://127.0.0.1:9/in', description: '', events: ['job.published'] })
		const endpointPath = added.redirectedTo!
		for (let i = 0; i < MAX_PREVIOUS_SECRETS; i++) expect((await page.submit(`${endpointPath}/rotate`)).text).toContain('New signing secret.')
		const refused = await page.post(`${endpointPath}/rotate`)
		expect(refused.status).toBe(409)
		expect(refused.text).toContain('role="alert"')
		expect(refused.text).toContain('was not rotated')
		expect(refused.text).not.toContain('whsec_')
		// The endpoint's page as ever, with the ends of the secrets still signing.
		expect(refused.text).toContain('Previous secrets sign until')
		expect(refused.text.match(/<dt>Previous secrets sign until<\/dt><dd>(.*?)<\/dd>/s)?.[1]?.match(/<time /g)).toHaveLength(MAX_PREVIOUS_SECRETS)
	})

	test('an endpoint a vendor added with its API key is on the owner’s list, marked with the vendor’s name; revoking the key switches it off (saying why) and the owner deletes it (its secret stays the vendor’s); another workspace finds nothing', async () => {
		const { app, deps } = await portalApp(ALLOW)
		const ws = await newWorkspace(deps)
		const page = await signedIn(await newPerson(ws, 'owner', {}, deps), { overrides: ALLOW })
		const vendor = await newVendor(ws, 'Leaky Staffing', deps)
		const added = await callOn(app, 'POST', '/api/v1/webhooks', {
			key: vendor.apiKey,
			body: { url: 'http://127.0.0.1:9/vendor-in', events: ['job.published'], description: 'Their CRM' },
		})
		expect(added.status).toBe(201)
		const endpointPath = `/settings/webhooks/${added.json.id}`
		// The key leaks and is revoked on the vendor's page: the endpoint it added is switched off with it, and the firm finds it.
		const revoked = await page.submit(`/vendors/${vendor.vendorId}/keys/${vendor.keyId}/revoke`)
		expect(revoked.text).toContain('webhook endpoints the vendor added or last moved with it are switched off')

		const list = await page.get('/settings/webhooks')
		expect(list.text).toContain(`href="${endpointPath}"`)
		expect(list.text).toContain('Leaky Staffing')
		// The key that added it, by its last four characters, marked as revoked.
		expect(list.text).toContain(`address set with its API key <span class="nowrap">…${vendor.apiKey.slice(-4)}</span>`)
		expect(list.text).toContain('Key revoked')
		expect(list.text).toContain('Written by the vendor: Their CRM')
		const reason = `the vendor’s API key …${vendor.apiKey.slice(-4)} that added it or last moved it was revoked`
		expect(list.text).toContain(reason)
		const one = await page.get(endpointPath)
		expect(one.status).toBe(200)
		expect(one.text).toContain(`Off: ${reason}`)
		expect(one.text).toContain('>Enable<')
		expect(one.text).toContain('Leaky Staffing')
		expect(one.text).toContain('Description (written by the vendor)')
		expect(one.text).toContain('Delivery log')
		// No secret actions: the secret was given to the vendor, never to the firm.
		expect(one.text).not.toContain('Rotate secret')
		const rotated = await page.post(`${endpointPath}/rotate`)
		expect(rotated.status).toBe(403)
		expect(rotated.text).not.toContain('whsec_')

		// Another workspace's owner finds nothing, on the list or by its address.
		const other = await newWorkspace(deps)
		const stranger = await signedIn(await newPerson(other, 'owner', {}, deps), { overrides: ALLOW })
		expect((await stranger.get('/settings/webhooks')).text).not.toContain(added.json.id)
		expect((await stranger.get(endpointPath)).status).toBe(404)
		expect((await stranger.post(`${endpointPath}/disable`)).status).toBe(404)
		expect((await stranger.post(`${endpointPath}/delete`)).status).toBe(404)

		// Disable again changes nothing: the reason stays.
		expect((await page.submit(`${endpointPath}/disable`)).text).toContain(`Off: ${reason}`)
		const deleted = await page.submit(`${endpointPath}/delete`)
		expect(deleted.text).toContain('were deleted')
		expect(deleted.text).not.toContain(added.json.id)
		expect((await page.get(endpointPath)).status).toBe(404)
	})
	test('an endpoint another of the vendor’s keys moved is counted as that key’s: the page names it, and revoking it switches the endpoint off in words true of a move', async () => {
		const { app, deps } = await portalApp(ALLOW)
		const ws = await newWorkspace(deps)
		const page = await signedIn(await newPerson(ws, 'owner', {}, deps), { overrides: ALLOW })
		const vendor = await newVendor(ws, 'Two Keys Staffing', deps)
		const added = await callOn(app, 'POST', '/api/v1/webhooks', { key: vendor.apiKey, body: { url: 'http://127.0.0.1:9/first', events: ['job.published'] } })
		const mover = await createKey(deps, operatorActor(ws), vendor.vendorId)
		const moved = await callOn(app, 'PATCH', `/api/v1/webhooks/${added.json.id}`, { key: mover.apiKey, body: { url: 'http://127.0.0.1:9/moved' } })
		expect(moved.status).toBe(200)
		const endpointPath = `/settings/webhooks/${added.json.id}`
		expect((await page.get(endpointPath)).text).toContain(`address set with its API key <span class="nowrap">…${mover.apiKey.slice(-4)}</span>`)

		await page.submit(`/vendors/${vendor.vendorId}/keys/${mover.keyId}/revoke`)
		const one = await page.get(endpointPath)
		expect(one.text).toContain(`Off: the vendor’s API key …${mover.apiKey.slice(-4)} that added it or last moved it was revoked`)
		expect(one.text).not.toContain('that added it was revoked')
		const rows = (await activityFor(deps.db, ws.id, 'webhook_endpoint', added.json.id)).filter((a) => a.action === 'webhook.endpoint_disabled')
		const [sentence] = await activitySentences(deps, operatorActor(ws), rows as never)
		expect(sentence!.change).toBe('as the vendor’s API key that added it or last moved it was revoked')
	})
	test('an endpoint the vendor paused, or Benchline switched off, offers Disable beside Enable: it makes the switch-off the firm’s, which the vendor cannot undo', async () => {
		const { app, deps } = await portalApp(ALLOW)
		const ws = await newWorkspace(deps)
		const page = await signedIn(await newPerson(ws, 'owner', {}, deps), { overrides: ALLOW })
		const vendor = await newVendor(ws, 'Pausing Staffing', deps)
		const add = async (path: string) =>
			(await callOn(app, 'POST', '/api/v1/webhooks', { key: vendor.apiKey, body: { url: `http://127.0.0.1:9/${path}`, events: ['job.published'] } })).json
				.id as string
		const enabled = (id: string, on: boolean) => callOn(app, 'PATCH', `/api/v1/webhooks/${id}`, { key: vendor.apiKey, body: { enabled: on } })
		const paused = await add('paused')
		expect((await enabled(paused, false)).json.disabledReason).toBe('paused_by_vendor')
		const gone = await add('gone')
		await deps.db.update(webhookEndpoints).set(switchedOff('answered_410_gone')).where(eq(webhookEndpoints.id, gone))

		for (const [id, words] of [
			[paused, 'The vendor paused this endpoint'],
			[gone, 'Benchline switched this endpoint off'],
		] as const) {
			const before = await page.get(`/settings/webhooks/${id}`)
			expect(before.text).toContain('>Enable<')
			expect(before.text).toContain('>Disable<')
			expect(before.text).toContain(
				`${words}, not your workspace: the vendor may switch it on again through the Job Publish API. <strong>Disable</strong> makes the switch-off your workspace’s`,
			)
			const after = await page.submit(`/settings/webhooks/${id}/disable`)
			expect(after.text).toContain('Off: switched off by your workspace')
			expect(after.text).toContain('>Enable<')
			expect(after.text).not.toContain('>Disable<')
			expect(after.text).not.toContain('not your workspace')
			// The vendor can no longer switch it on; the firm can.
			const refused = await enabled(id, true)
			expect([refused.status, refused.json.error]).toEqual([409, expect.stringContaining('the firm switched off your endpoint')])
			expect((await callOn(app, 'GET', `/api/v1/webhooks/${id}`, { key: vendor.apiKey })).json.disabledReason).toBe('switched_off_by_firm')
		}
		const lines = await activityFor(deps.db, ws.id, 'webhook_endpoint', paused)
		expect(lines.filter((l) => l.action === 'webhook.endpoint_disabled')).toHaveLength(2)

		// The workspace's own endpoint Benchline switched off: no vendor may switch it on, so only Enable.
		const own = (await page.submit('/settings/webhooks', { url: 'http://127.0.0.1:9/own', description: '', events: ['job.published'] })).redirectedTo!
		await deps.db
			.update(webhookEndpoints)
			.set(switchedOff('deliveries_failing'))
			.where(eq(webhookEndpoints.id, own.split('/').pop()!))
		const ownPage = await page.get(own)
		expect([ownPage.text.includes('>Enable<'), ownPage.text.includes('>Disable<')]).toEqual([true, false])
	})
})
