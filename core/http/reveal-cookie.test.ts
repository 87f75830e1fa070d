/**
 * The one "shown once" mechanism (every secret shown once across a redirect uses it): the value
 * opens once for its session, and that it was shown is recorded in the database, so the same sealed
 * cookie opened again, or twice at the same time, shows it at most once (issue 26).
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { lt } from 'drizzle-orm'
import { pendingReveals } from '../../db/core-tables.ts'
import { clock, testDeps } from '../../tests/helpers.ts'
import { revealCookie } from './reveal-cookie.ts'

setDefaultTimeout(60_000)
beforeAll(() => testDeps(), 120_000)

const secretCookie = revealCookie<string>('bl_test_secret', '/settings/test', (v): v is string => typeof v === 'string')

/** A cookie jar as Elysia hands it to a route: `jar[name].value`, `jar[name].set(...)`. */
function jar() {
	const values = new Map<string, string>()
	const cookie = new Proxy({} as Record<string, any>, {
		get: (_, name: string) => ({
			get value() {
				return values.get(name)
			},
			set: (o: { value: string; maxAge?: number }) => void (o.maxAge === 0 ? values.delete(name) : values.set(name, o.value)),
		}),
	})
	return { cookie, values }
}

describe('a secret shown once', () => {
	test('opens once for its session; a copy of the sealed cookie opened again shows nothing, and the row is gone', async () => {
		const deps = await testDeps()
		const { cookie, values } = jar()
		await secretCookie.seal(deps, cookie, 'session-a', 'whsec_example')
		const sealed = values.get('bl_test_secret')!
		expect(sealed).not.toContain('whsec')
		expect(await secretCookie.open(deps, cookie, 'session-b')).toBeNull()
		values.set('bl_test_secret', sealed)
		expect(await secretCookie.open(deps, cookie, 'session-a')).toBe('whsec_example')
		expect(values.has('bl_test_secret')).toBe(false)
		values.set('bl_test_secret', sealed)
		expect(await secretCookie.open(deps, cookie, 'session-a')).toBeNull()
	})

	test('two opens of one sealed cookie at the same time: exactly one shows it', async () => {
		const deps = await testDeps()
		const { cookie, values } = jar()
		await secretCookie.seal(deps, cookie, 'session-c', 'bl_pat_example')
		const sealed = values.get('bl_test_secret')!
		const jars = Array.from({ length: 6 }, () => {
			const j = jar()
			j.values.set('bl_test_secret', sealed)
			return j
		})
		const opened = await Promise.all(jars.map((j) => secretCookie.open(deps, j.cookie, 'session-c')))
		expect(opened.filter((v) => v !== null)).toEqual(['bl_pat_example'])
	})

	test('after two minutes it shows nothing, and rows of secrets never shown are cleared as new ones are sealed', async () => {
		const deps = await testDeps()
		const { cookie, values } = jar()
		await secretCookie.seal(deps, cookie, 'session-d', 'never shown')
		try {
			clock.advance(3 * 60_000)
			expect(await secretCookie.open(deps, cookie, 'session-d')).toBeNull()
			await secretCookie.seal(deps, jar().cookie, 'session-e', 'later')
			expect(await deps.db.select().from(pendingReveals).where(lt(pendingReveals.expiresAt, clock.now()))).toEqual([])
		} finally {
			clock.reset()
		}
		expect(values.has('bl_test_secret')).toBe(false)
	})
})
