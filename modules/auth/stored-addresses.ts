/**
 * Addresses stored before e-mail domains had one spelling (email-domain.ts): an account or a pending
 * invitation whose address was typed with a Unicode domain (`ann@bücher.example`) or a trailing dot
 * is rewritten in the normal form (`ann@xn--bcher-kva.example`), so signing in, Forgot password,
 * SCIM and single sign-on, which look addresses up in that form, find it.
 *
 * This is the migration of those rows: SQL cannot do IDNA, so it runs here, at each start (once none
 * is left, one scan of the addresses that finds nothing: no index serves a regular expression). An
 * account whose normal address another account already has is left as it is and named in the log:
 * two accounts of one person, which only an operator can merge.
 */
import { and, eq, or, sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { normalEmail } from './email-domain.ts'
import { invitations, users } from './table.ts'

/** Not plain ASCII, or ending in a dot: the rows whose address may not be in the normal form. */
const mayNeedRewrite = (column: typeof users.email | typeof invitations.email) => or(sql`${column} ~ '[^\\x01-\\x7f]'`, sql`${column} like '%.'`)

/** Rewrites the addresses not in their normal form; returns how many accounts and invitations changed. */
export async function normaliseStoredAddresses(deps: AppDeps): Promise<{ accounts: number; invitations: number }> {
	let accounts = 0
	for (const row of await deps.db.select({ id: users.id, email: users.email }).from(users).where(mayNeedRewrite(users.email))) {
		const email = normalEmail(row.email)
		if (email === row.email) continue
		const [taken] = await deps.db.select({ id: users.id }).from(users).where(eq(users.email, email))
		if (taken) {
			deps.log.warn('two accounts have one address in two spellings: left as they are for an operator to merge', { userId: row.id, otherUserId: taken.id })
			continue
		}
		const changed = await deps.db
			.update(users)
			.set({ email })
			.where(and(eq(users.id, row.id), eq(users.email, row.email)))
			.returning({ id: users.id })
			.catch((error) => {
				deps.log.warn('an account’s address could not be rewritten in its normal form', { userId: row.id, error })
				return []
			})
		accounts += changed.length
	}
	let invited = 0
	const pending = await deps.db
		.select({ id: invitations.id, email: invitations.email })
		.from(invitations)
		.where(and(eq(invitations.status, 'pending'), mayNeedRewrite(invitations.email)))
	for (const row of pending) {
		const email = normalEmail(row.email)
		if (email === row.email) continue
		// A pending invitation of the same workspace for the normal address already (unique): this one stays as it was.
		const changed = await deps.db
			.update(invitations)
			.set({ email })
			.where(and(eq(invitations.id, row.id), eq(invitations.email, row.email)))
			.returning({ id: invitations.id })
			.catch(() => [])
		invited += changed.length
	}
	return { accounts, invitations: invited }
}
