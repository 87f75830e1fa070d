/**
 * What the workspace keeps under an e-mail address alone (the `privacy:address-data` port), found,
 * exported and erased for a privacy request. Rules:
 * - Found in any spelling of the address (compared in normal form, core/email.ts).
 * - Erasing deletes it in every contributing module, and the outbox keeps nothing for the address:
 *   mail still waiting to go to it is not sent, and copies of mail sent to it keep no address, subject
 *   or text (as for an erased candidate's mail).
 */
import type { AppDeps } from '../../core/deps.ts'
import { normalEmail } from '../../core/email.ts'
import { contributionsTo } from '../../core/registry.ts'
import type { Db } from '../../db/client.ts'
import { forgetRecipient } from '../outbox/index.ts'
import { addressData } from './address-port.ts'

/** Records kept under an address by one source, e.g. 2 `job alert`. */
export interface AddressHolding {
	key: string
	noun: string
	count: number
}

const sources = (deps: AppDeps) => contributionsTo(deps.registry, addressData)

/** By address (normal form): what each source keeps under it; an address with nothing kept is left out. */
export async function addressHoldings(deps: AppDeps, workspaceId: string, emails: readonly string[], db: Db = deps.db): Promise<Map<string, AddressHolding[]>> {
	const normal = [...new Set(emails.map(normalEmail))]
	const out = new Map<string, AddressHolding[]>()
	if (!normal.length) return out
	for (const source of sources(deps)) {
		const counts = await source.count(deps, db, workspaceId, normal)
		for (const [email, count] of counts) if (count > 0) out.set(email, [...(out.get(email) ?? []), { key: source.key, noun: source.noun, count }])
	}
	return out
}

/** What is kept under the address, each source's part under its key; null when nothing is. */
export async function exportAddress(deps: AppDeps, workspaceId: string, email: string): Promise<Record<string, unknown> | null> {
	const held = (await addressHoldings(deps, workspaceId, [email])).get(normalEmail(email)) ?? []
	if (!held.length) return null
	const parts: Record<string, unknown> = {}
	for (const source of sources(deps))
		if (held.some((h) => h.key === source.key)) parts[source.key] = await source.export(deps, deps.db, workspaceId, normalEmail(email))
	return parts
}

/** Erases what is kept under the address (rules above), in the caller's transaction. */
export async function eraseAddress(deps: AppDeps, tx: Db, workspaceId: string, email: string): Promise<void> {
	const address = normalEmail(email)
	for (const source of sources(deps)) await source.erase(deps, tx, workspaceId, address)
	// No candidate stands for the address: its mail is found by the address alone.
	await forgetRecipient(tx, { workspaceId, recipientType: 'address', recipientId: address, relatedIds: [], needles: [address], ownNeedles: [address] })
}
