/**
 * A demo endpoint, switched off (its address is an example: nothing is sent to it), with a short
 * delivery log of the kinds a real one shows: delivered, retried and failed.
 */
import type { AppDeps } from '../../core/deps.ts'
import type { WorkspaceRef } from '../../core/module.ts'
import { daysAgo, seededId } from '../../core/seed-random.ts'
import { newSigningSecret, sealSecret } from './secrets.ts'
import { switchedOff } from './switch-off.ts'
import { webhookDeliveries, webhookEndpoints } from './table.ts'

export async function seedWebhooks(deps: AppDeps, ws: WorkspaceRef): Promise<void> {
	const id = seededId('whe', ws.id, 'crm')
	const [added] = await deps.db
		.insert(webhookEndpoints)
		.values({
			id,
			workspaceId: ws.id,
			url: 'https://crm.example.com/hooks/benchline',
			description: 'Our CRM (demo: switched off, the address is an example)',
			events: ['job.published', 'job.closed', 'application.created', 'application.stage_changed'],
			...switchedOff('switched_off_by_firm'),
			secretSealed: await sealSecret(deps.secret, id, newSigningSecret()),
			createdAt: daysAgo(9),
		})
		.onConflictDoNothing()
		.returning({ id: webhookEndpoints.id })
	if (!added) return
	const rows = [
		{ key: 'd1', type: 'job.published', status: 'delivered', attempts: 1, lastStatus: 200, lastError: null, days: 8 },
		{ key: 'd2', type: 'application.created', status: 'delivered', attempts: 3, lastStatus: 204, lastError: null, days: 6 },
		{ key: 'd3', type: 'application.stage_changed', status: 'failed', attempts: 8, lastStatus: 503, lastError: 'answered 503', days: 3 },
		{ key: 'd4', type: 'job.closed', status: 'delivered', attempts: 1, lastStatus: 200, lastError: null, days: 1 },
	]
	await deps.db.insert(webhookDeliveries).values(
		rows.map((r) => {
			const at = daysAgo(r.days)
			const deliveryId = seededId('msg', ws.id, r.key)
			return {
				id: deliveryId,
				endpointId: id,
				workspaceId: ws.id,
				eventId: null,
				type: r.type,
				body: JSON.stringify({ type: r.type, timestamp: at.toISOString(), data: {} }),
				status: r.status,
				attempts: r.attempts,
				lastStatus: r.lastStatus,
				lastError: r.lastError,
				lastAttemptAt: at,
				deliveredAt: r.status === 'delivered' ? at : null,
				nextAttemptAt: at,
				createdAt: at,
			}
		}),
	)
}
