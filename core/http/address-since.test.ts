import { beforeAll, expect, test } from 'bun:test'
import { testDeps } from '../../tests/helpers.ts'
import { addressSince } from './address-since.ts'

// Opening the shared test database can take a while on a busy machine.
beforeAll(() => testDeps(), 120_000)

test('the portal’s address is dated from when it was first served there: a restart at it keeps the date, a move renews it', async () => {
	const at = (url: string) => testDeps({ BASE_URL: url }).then(addressSince)
	const first = await at('https://since-a.example')
	await Bun.sleep(20)
	expect((await at('https://since-a.example')).getTime()).toBe(first.getTime())
	const moved = await at('https://since-b.example')
	expect(moved.getTime()).toBeGreaterThan(first.getTime() + 20)
	await Bun.sleep(20)
	expect((await at('https://since-b.example')).getTime()).toBe(moved.getTime())
})
