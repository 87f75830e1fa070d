/**
 * When a vendor key was last used (shown by `vendor list`): recorded on every door that takes a key
 * (a request checked by the key lookup, and a publish, whose statement looks its key up itself),
 * kept to the minute, off the request's path.
 */
import { describe, expect, test } from 'bun:test'
import { runCommand } from '../../core/cli.ts'
import { call, clock, newVendor, newWorkspace, testDeps } from '../../tests/helpers.ts'
import { operatorActor } from '../auth/index.ts'
import { createKey } from './service.ts'

/** The keys of the vendor as `vendor list` shows them, by key id. */
async function keysOf(slug: string, vendorId: string): Promise<Record<string, { lastUsedAt: string | null }>> {
	const { json } = await runCommand(await testDeps(), 'vendor list', { workspace: slug })
	const vendor = (json.vendors as { vendorId: string; keys: { keyId: string; lastUsedAt: string | null }[] }[]).find((v) => v.vendorId === vendorId)!
	return Object.fromEntries(vendor.keys.map((k) => [k.keyId, { lastUsedAt: k.lastUsedAt }]))
}

/** Waits for the write that follows the request (it is never on the request's path). */
async function until(check: () => Promise<boolean>) {
	const deadline = Date.now() + 5_000
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error('timed out waiting for the last-used time')
		await Bun.sleep(20)
	}
}

describe('vendor keys: last used', () => {
	test('a list request and a publish each record their key’s use, to the minute', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const vendor = await newVendor(ws)
		const second = await createKey(deps, operatorActor(ws), vendor.vendorId)
		expect(await keysOf(ws.slug, vendor.vendorId)).toEqual({ [vendor.keyId]: { lastUsedAt: null }, [second.keyId]: { lastUsedAt: null } })

		expect((await call('GET', '/api/v1/jobs', { key: vendor.apiKey })).status).toBe(200)
		await until(async () => (await keysOf(ws.slug, vendor.vendorId))[vendor.keyId]!.lastUsedAt !== null)
		expect((await call('POST', '/api/v1/jobs', { key: second.apiKey, body: { vendorJobId: 'REQ-1', title: 'Java Developer' } })).status).toBe(201)
		await until(async () => (await keysOf(ws.slug, vendor.vendorId))[second.keyId]!.lastUsedAt !== null)
		const first = (await keysOf(ws.slug, vendor.vendorId))[vendor.keyId]!.lastUsedAt!

		// Within the minute: no new write.
		expect((await call('GET', '/api/v1/jobs', { key: vendor.apiKey })).status).toBe(200)
		await Bun.sleep(50)
		expect((await keysOf(ws.slug, vendor.vendorId))[vendor.keyId]!.lastUsedAt).toBe(first)
		clock.advance(61_000)
		try {
			expect((await call('GET', '/api/v1/jobs', { key: vendor.apiKey })).status).toBe(200)
			await until(async () => (await keysOf(ws.slug, vendor.vendorId))[vendor.keyId]!.lastUsedAt !== first)
		} finally {
			clock.reset()
		}
	})
})
