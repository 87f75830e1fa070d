/** Navigation badges count up to 100 and show "99+" from there: the count stops early on a large table. */
import { expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { testDeps } from '../tests/helpers.ts'
import { badgeText, NAV_COUNT_CAP, navCount } from './nav-count.ts'

test('a counter counts the rows up to the cap, and the badge says 99+ from there', async () => {
	const deps = await testDeps()
	expect(await navCount(deps.database, sql`select 1 from generate_series(1, 42)`)).toBe(42)
	expect(await navCount(deps.database, sql`select 1 from generate_series(1, 1000000)`)).toBe(NAV_COUNT_CAP)
	expect(await navCount(deps.database, sql`select 1 where false`)).toBe(0)
	expect(badgeText(99)).toBe('99')
	expect(badgeText(NAV_COUNT_CAP)).toBe('99+')
})
