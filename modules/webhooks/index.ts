/**
 * Webhooks (Standard Webhooks): workspace and vendor endpoints receive the domain events they
 * subscribe to, signed, durable and retried. The event consumer (`consumer.ts`) queues deliveries in
 * the events' order and transaction; the worker (`worker.ts`) sends them from every instance.
 */
import { contribute, defineModule } from '../../core/module.ts'
import { recordNamesFrom } from '../activity/index.ts'
import { eventConsumers } from '../events/index.ts'
import { apiOperations } from '../jobs/index.ts'
import { keyRevocation } from '../vendors/index.ts'
import { endpointsOfRevokedKeys, keyRevokedWords } from './key-revocation.ts'
import { endpointChangeWords } from './change-words.ts'
import { webhookApiOperations } from './openapi.ts'
import { webhookCommands } from './commands.ts'
import { webhookConsumer } from './consumer.ts'
import { webhookQueue } from './queue.ts'
import { Elysia } from 'elysia'
import { webhookRestRoutes } from './rest-routes.ts'
import { webhookRoutes } from './routes.ts'
import { seedWebhooks } from './seed.ts'
import { webhookSettings } from './settings.ts'
import { pruneDeliveries, startWebhookWorker } from './worker.ts'
import * as tables from './table.ts'
import { runEvery } from '../../core/every.ts'

export {
	addEndpoint,
	changeEndpoint,
	deliveryLog,
	getEndpoint,
	listEndpoints,
	removeEndpoint,
	replayDelivery,
	rotateSecret,
	endPreviousSecrets,
	sendTestEvent,
	setEndpointEnabled,
	MANAGE,
	type DeliveryView,
	type EndpointChange,
	type EndpointView,
} from './service.ts'
export { deliverDueWebhooks, startWebhookWorker, retryDelay, DEFAULT_WEBHOOK_WORKER, type WebhookWorkerOptions } from './worker.ts'
export { SUBSCRIBABLE, VENDOR_SUBSCRIBABLE, TEST_EVENT } from './types.ts'
export { webhookSettings, DEFAULT_RETRY_SCHEDULE } from './settings.ts'

export default defineModule({
	name: 'webhooks',
	description: 'Webhooks: domain events sent to workspace and vendor endpoints, signed (Standard Webhooks), durable and retried.',
	requires: ['auth', 'activity', 'events', 'outbox', 'vendors', 'jobs', 'candidates', 'documents', 'interviews'],
	settings: webhookSettings,
	tables,
	migrations: new URL('./migrations/', import.meta.url),
	permissions: [
		{ key: 'webhooks:manage', description: 'Add, change and remove the workspace’s webhook endpoints and see their deliveries', grantedTo: ['owner', 'admin'] },
	],
	checks: ['webhooks:manage'],
	commands: webhookCommands,
	routes: (deps, kit) => new Elysia({ name: 'webhooks.all' }).use(webhookRoutes(deps, kit)).use(webhookRestRoutes(deps, kit)),
	paths: ['/settings/webhooks', '/api/v1/webhooks'],
	nav: [{ href: '/settings/webhooks', label: 'Webhooks', permission: 'webhooks:manage' }],
	contributes: [
		contribute(eventConsumers, webhookConsumer),
		contribute(apiOperations, webhookApiOperations),
		contribute(keyRevocation, endpointsOfRevokedKeys),
	],
	queues: [webhookQueue],
	seed: seedWebhooks,
	start: (deps) => {
		const stopWorker = startWebhookWorker(deps)
		const stopPruning = runEvery(deps.log, { everyMs: 3_600_000, failure: 'old webhook deliveries could not be pruned' }, () => pruneDeliveries(deps))
		return async () => {
			await stopPruning()
			await stopWorker()
		}
	},
	recordNames: [recordNamesFrom('webhook_endpoint', 'webhook_endpoints', 'r.url', (id) => `/settings/webhooks/${id}`)],
	activityChanges: [keyRevokedWords, endpointChangeWords],
	activityLabels: {
		'webhook.endpoint_added': 'added the webhook endpoint',
		'webhook.endpoint_removed': 'removed the webhook endpoint',
		'webhook.endpoint_changed': 'changed the webhook endpoint',
		'webhook.endpoint_enabled': 'switched on the webhook endpoint',
		'webhook.endpoint_disabled': 'switched off the webhook endpoint',
		'webhook.secret_rotated': 'rotated the signing secret of the webhook endpoint',
		'webhook.previous_secrets_ended': 'ended the previous signing secrets of the webhook endpoint',
		'webhook.delivery_replayed': 'replayed a delivery of the webhook endpoint',
	},
})
