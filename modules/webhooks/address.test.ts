/**
 * Addresses that parse as web addresses but that no delivery could honour as written: a fragment
 * (never sent), port 0, and a fully qualified name (`hooks.example.`), the same receiver as without its
 * dot, which must not be another address to the firm's switch-off.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import type { AppDeps } from '../../core/deps.ts'
import type { OutboundNetwork } from '../../core/http/outbound.ts'
import { publicAddress } from '../../core/http/public-address.ts'
import { newVendor, newWorkspace, testDeps } from '../../tests/helpers.ts'
import { operatorActor } from '../auth/index.ts'
import { verifyVendorKey } from '../vendors/index.ts'
import { addEndpoint, changeEndpoint, setEndpointEnabled } from './service.ts'

let deps: AppDeps
beforeAll(async () => {
	deps = await testDeps({})
})

/** Every name is a public address here: nothing is delivered, only stored. */
const network: OutboundNetwork = { resolve: async () => ['93.184.216.34'], reachable: publicAddress }

const refusal = (promise: Promise<unknown>) =>
	promise.then(
		() => 'added',
		(e) => e.fields?.map((f: { field: string; message: string }) => `${f.field} ${f.message}`).join('; ') ?? e.message,
	)

describe('an endpoint’s address', () => {
	test('with a fragment, or port 0, is refused naming url, on an add and a change; other ports are kept', async () => {
		const ws = await newWorkspace(deps)
		const firm = operatorActor(ws)
		const add = (url: string) => addEndpoint(deps, firm, { url, events: ['job.published'] }, { network })
		for (const url of ['https://hooks.example/in#token=abc', 'https://hooks.example/in#', 'https://hooks.example:0/in'])
			expect([url, await refusal(add(url))]).toEqual([url, expect.stringMatching(/^url must not (hold a fragment|name port 0)/)])
		const { endpoint } = await add('https://hooks.example:8443/in')
		expect(endpoint.url).toBe('https://hooks.example:8443/in')
		expect(await refusal(changeEndpoint(deps, firm, endpoint.id, { url: 'https://hooks.example/in#x' }, { network }))).toStartWith(
			'url must not hold a fragment',
		)
	})

	test('written fully qualified (a trailing dot) is stored and called without it, so the firm’s switch-off of the address holds against it', async () => {
		const ws = await newWorkspace(deps)
		const vendor = await newVendor(ws, 'Dotted Staffing', deps)
		const actor = (await verifyVendorKey(deps, vendor.apiKey))!
		const add = (url: string) => addEndpoint(deps, actor, { url, events: ['job.published'] }, { network })
		const { endpoint } = await add('https://hooks.example./in')
		expect(endpoint.url).toBe('https://hooks.example/in')
		await setEndpointEnabled(deps, operatorActor(ws), endpoint.id, false)
		for (const url of ['https://hooks.example./in', 'https://HOOKS.example/in', 'https://hooks.example:443/in'])
			expect([url, await refusal(add(url))]).toEqual([url, expect.stringContaining('the firm switched off your endpoint at this address')])
	})
})
