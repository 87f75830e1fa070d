import { defineModule } from '../../core/module.ts'
import { Elysia } from 'elysia'
import { messageFooterPort, privacyPagePort, unsubscribedPort, workspaceDirectoryPort } from './port.ts'
import { outboxCommands } from './commands.ts'
import { outboxRoutes } from './routes.ts'
import { outboxQueue } from './queue.ts'
import { outboxSettings } from './settings.ts'
import { startOutboxWorker } from './worker.ts'
import { unsubscribeRoutes } from './unsubscribe-routes.ts'
import * as tables from './table.ts'

export { releaseHeld, type Released, type ReleaseSelection } from './held.ts'
export { forgetGoneRecipients, forgetRecipient, forgetUnsubscribe, stopMailAbout, unsubscribedAt, type ErasedRecipient } from './erasure.ts'
export { recordBounce, type Bounce } from './bounces.ts'
export {
	enqueueMail,
	enqueueMessage,
	isUnsubscribed,
	UNSUBSCRIBED,
	type SendingDeps,
	deliveryOutcome,
	deliveryStates,
	type DeliveryState,
	type DeliveryStatus,
	type NewMail,
	type NewMessage,
	type Recipient,
} from './service.ts'
export { deliverDue, startOutboxWorker, retryDelay, DEFAULT_WORKER_OPTIONS, type WorkerOptions } from './worker.ts'
export { toE164, NO_PROVIDER, MAX_MESSAGE_LENGTH } from './messaging.ts'
export type { OutboxAttachment } from './table.ts'
export { messagingConfigured, outboxSettings, type MessagingConfig, type OutboxSettings } from './settings.ts'
export { ACCOUNT_MAIL, JOB_ALERT_MAIL, outboxSince, outboxWorkspaces, type OutboxEntry } from './queries.ts'
export {
	messageFooterPort,
	privacyPagePort,
	unsubscribedPort,
	workspaceDirectory,
	workspaceDirectoryPort,
	type MessageFooter,
	type PrivacyPage,
	type UnsubscribeListener,
	type WorkspaceDirectory,
} from './port.ts'
export { unsubscribeUrl } from './footer.ts'
export type { OutboxCalendar } from './table.ts'
export { PRIVATE_MARKER, textToSend, type RecipientOnly } from './private.ts'

export default defineModule({
	name: 'outbox',
	settings: outboxSettings,
	description: 'The durable outbox: e-mail (SMTP) and messaging-app messages, retried until delivered.',
	requires: ['activity'],
	// Its rows point at auth's workspaces, while auth calls the outbox (sends its mail through it).
	references: ['auth'],
	checks: ['outbox:reveal'],
	tables,
	migrations: new URL('./migrations/', import.meta.url),
	permissions: [
		{ key: 'outbox:read', description: 'See the outbox and the dev mailbox', grantedTo: ['owner', 'admin'] },
		{ key: 'outbox:retry', description: 'Put a failed e-mail or message back in the queue', grantedTo: ['owner', 'admin'] },
		{ key: 'outbox:reveal', description: 'Reveal a candidate’s upload link held in the dev mailbox (logged)', grantedTo: ['owner', 'admin'] },
	],
	routes: (deps, kit) => new Elysia({ name: 'outbox.all' }).use(outboxRoutes(deps, kit)).use(unsubscribeRoutes(deps, kit)),
	paths: ['/outbox', '/unsubscribe'],
	commands: outboxCommands,
	ports: [workspaceDirectoryPort, messageFooterPort, privacyPagePort, unsubscribedPort],
	nav: [{ href: '/outbox', label: 'Outbox', permission: 'outbox:read' }],
	queues: [outboxQueue],
	start: (deps) => startOutboxWorker(deps),
	activityLabels: {
		'outbox.retried': 'sent again the message',
		'outbox.released': 'released the held message',
		'outbox.link_revealed': 'revealed the private link of the message',
	},
})
