/**
 * Auth's addresses stored before addresses had one spelling (core/email.ts): an account or a pending
 * invitation whose address was typed with a Unicode domain (`ann@bücher.example`) or a trailing dot
 * is rewritten in the normal form (`ann@xn--bcher-kva.example`) at each start, so signing in, Forgot
 * password, SCIM and single sign-on, which look addresses up in that form, find it. The rewriting is
 * the core's (core/stored-addresses.ts), for every module's addresses: an account whose normal address
 * another account already has is left as it is and named in the log (two accounts of one person,
 * which only an operator can merge); so is a pending invitation of a workspace that already has one
 * for the normal address.
 */
import { eq } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { type AddressColumn, rewriteStoredAddresses } from '../../core/stored-addresses.ts'
import { invitations, users } from './table.ts'

const accounts: AddressColumn = { table: users, id: users.id, address: users.email }
const pendingInvitations: AddressColumn = { table: invitations, id: invitations.id, address: invitations.email, where: eq(invitations.status, 'pending') }

/** Rewrites the addresses not in their normal form; returns how many accounts and invitations changed. */
export async function normaliseStoredAddresses(deps: AppDeps): Promise<{ accounts: number; invitations: number }> {
	return { accounts: await rewriteStoredAddresses(deps, accounts), invitations: await rewriteStoredAddresses(deps, pendingInvitations) }
}
