import { describe, expect, test } from 'bun:test'
import { sealedBox } from './sealed-box.ts'

describe('sealedBox', () => {
	const secret = crypto.getRandomValues(new Uint8Array(32))

	test('opens what it sealed for the same record, and nothing for another record, purpose or server secret', async () => {
		const box = sealedBox('purpose-a')
		const sealed = await box.seal(secret, 'rec_1', 'the secret')
		expect(sealed).not.toContain('the secret')
		expect(await box.open(secret, 'rec_1', sealed)).toBe('the secret')
		await expect(box.open(secret, 'rec_2', sealed)).rejects.toThrow()
		await expect(sealedBox('purpose-b').open(secret, 'rec_1', sealed)).rejects.toThrow()
		await expect(box.open(crypto.getRandomValues(new Uint8Array(32)), 'rec_1', sealed)).rejects.toThrow()
	})

	test('sealing twice gives two texts (a fresh IV each time)', async () => {
		const box = sealedBox('purpose-a')
		expect(await box.seal(secret, 'rec_1', 'x')).not.toBe(await box.seal(secret, 'rec_1', 'x'))
	})
})
