import { describe, expect, test } from 'bun:test'
import { loadConfig } from '../../core/config.ts'
import { configProblems } from '../../tests/helpers.ts'
import { hashPassword, verifyAgainstNothing } from './password-hash.ts'

describe('password hashes', () => {
	test('argon2id at full cost (64 MiB, two passes) unless PASSWORD_HASH_FAST is on', async () => {
		const full = await hashPassword({ passwordHashFast: false }, 'correct horse battery')
		expect(full).toMatch(/^\$argon2id\$v=19\$m=65536,t=2,/)
		const fast = await hashPassword({ passwordHashFast: true }, 'correct horse battery')
		expect(fast).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,/)
		// Either checks whatever the setting now: a switch never locks anyone out.
		for (const hash of [full, fast]) {
			expect(await Bun.password.verify('correct horse battery', hash)).toBe(true)
			expect(await Bun.password.verify('wrong horse battery', hash)).toBe(false)
		}
		expect(await verifyAgainstNothing({ passwordHashFast: false }, 'anything')).toBe(false)
	})

	test('PASSWORD_HASH_FAST is off by default and refused in production', () => {
		expect(loadConfig({}).passwordHashFast).toBe(false)
		expect(loadConfig({ PASSWORD_HASH_FAST: 'on' }).passwordHashFast).toBe(true)
		expect(configProblems({ PASSWORD_HASH_FAST: 'on', NODE_ENV: 'production', BASE_URL: 'https://bench.example' }).join(' ')).toContain(
			'PASSWORD_HASH_FAST must be off in production',
		)
		expect(configProblems({ NODE_ENV: 'production', BASE_URL: 'https://bench.example' }).join(' ')).not.toContain('PASSWORD_HASH_FAST')
	})
})
