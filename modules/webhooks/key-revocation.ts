/**
 * A vendor's revoked API key leaves no endpoint receiving, nor one the vendor could switch on again: the
 * endpoints it added or last moved to another address (on, paused by the vendor, or switched off by
 * Benchline) are switched off in the revocation's transaction (the vendors module's `keyRevocation`
 * port), by the firm (`disabledBy` `workspace`: the vendor cannot add them again until the firm
 * switches them on), each with the reason shown on its page and a line in the activity log.
 *
 * Endpoints added before the adding key was kept (`vendorKeyId` null) may be the revoked key's when
 * they were added after it was made: they are switched off too (the firm sees them and may switch
 * them on), as nothing tells they were not.
 */
import { and, eq, gte, isNull, ne, or } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { ActivityChange } from '../../core/module.ts'
import type { Db } from '../../db/client.ts'
import { recordActivity } from '../activity/index.ts'
import type { KeyRevocationListener, RevokedKey } from '../vendors/index.ts'
import { switchedOff } from './switch-off.ts'
import { webhookEndpoints } from './table.ts'

/**
 * The reason an endpoint's page shows. The key an endpoint counts as set up by is the one that added it
 * or, once a key moved it to another address, the one that last did (service.ts): the words say both.
 */
export const keyRevokedReason = (key: Pick<RevokedKey, 'lastFour'>) => `the vendor’s API key …${key.lastFour} that added it or last moved it was revoked`

/** On, or off by other than the firm: a firm's switch-off (its click, an earlier revocation) keeps its own reason. */
const notFirmsOff = or(eq(webhookEndpoints.enabled, true), ne(webhookEndpoints.disabledBy, 'workspace'))

async function switchOffEndpointsOfKey(_deps: AppDeps, tx: Db, actor: Actor, key: RevokedKey): Promise<string[]> {
	const e = webhookEndpoints
	const addedWithIt = or(eq(e.vendorKeyId, key.keyId), and(isNull(e.vendorKeyId), gte(e.createdAt, key.createdAt)))
	const off = await tx
		.update(e)
		.set(switchedOff('api_key_revoked', keyRevokedReason(key)))
		// Not only those on: one the vendor paused, or Benchline switched off (410, failing), the vendor could
		// switch on again with another key (PATCH), starting deliveries to an address the leaked key chose.
		.where(and(eq(e.workspaceId, actor.workspaceId), eq(e.vendorId, key.vendorId), notFirmsOff, addedWithIt))
		.returning({ id: e.id })
	for (const { id } of off)
		await recordActivity(tx, actor, {
			action: 'webhook.endpoint_disabled',
			targetType: 'webhook_endpoint',
			targetId: id,
			detail: { reason: 'vendor_key_revoked', keyId: key.keyId },
		})
	return off.map((r) => r.id)
}

export const endpointsOfRevokedKeys: KeyRevocationListener = { name: 'webhookEndpoints', revoked: switchOffEndpointsOfKey }

/** The activity line of such a switch-off says why: "… switched off the webhook endpoint <url>, as the vendor’s API key that added it or last moved it was revoked". */
export const keyRevokedWords: ActivityChange = {
	action: 'webhook.endpoint_disabled',
	words: async (_deps, _workspaceId, details) =>
		details.map((d) => (d?.reason === 'vendor_key_revoked' ? 'as the vendor’s API key that added it or last moved it was revoked' : null)),
}
