import { bigint, boolean, check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'
import { workspaces } from '../auth/table.ts'
import { vendors } from '../vendors/table.ts'
import { DISABLED_CAUSES, type DisabledBy, type DisabledCause } from './switch-off.ts'

/** A secret a rotation replaced: it still signs until `until`. */
export interface PreviousSecret {
	sealed: string
	/** ISO 8601. */
	until: string
}

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 })

/**
 * Where events go: a workspace's endpoint (owners and admins add it; `vendorId` null) or a vendor's
 * (added with its API key; it hears only of that vendor's own jobs and submissions). The signing
 * secret is stored sealed (AES-GCM, key derived from the server secret, bound to the endpoint's id),
 * never in plain text. After a rotation the secret it replaced keeps signing until its own end, from
 * `previousSecrets` (a few at most, see service.ts; one whose end has passed never signs again and
 * is dropped at the next rotation).
 */
export const webhookEndpoints = pgTable(
	'webhook_endpoints',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		vendorId: text('vendor_id').references(() => vendors.id),
		/**
		 * The id of the vendor's API key that added it, or that last moved it to another address (its
		 * choice of address then; null for the workspace's, and for a vendor's added before this was
		 * kept): once that key is revoked, the firm sees which endpoints it left behind. A
		 * record of who did it, like the activity log's credential id, so no foreign key.
		 */
		vendorKeyId: text('vendor_key_id'),
		url: text('url').notNull(),
		description: text('description').notNull().default(''),
		/** The event types it receives (`webhook.test` always reaches it when asked for). */
		events: jsonb('events').$type<string[]>().notNull(),
		enabled: boolean('enabled').notNull().default(true),
		/**
		 * Who switched it off (null while on): `workspace` (a person or the operator, or the revocation of
		 * the vendor's key that added it: the firm's decision, which a vendor cannot undo by adding it
		 * again), `benchline` (410 Gone, failing for 5 days) or `vendor` (paused through the API).
		 */
		disabledBy: text('disabled_by').$type<DisabledBy>(),
		/** Why it was switched off, when something other than a person's click did it (Benchline's reasons, a revoked key); null otherwise. */
		disabledReason: text('disabled_reason'),
		/**
		 * Why it is off, one of a closed set (switch-off.ts; null while on, and never null while off): what
		 * the Job Publish API tells the vendor (`disabledReason` there), in the words of its documentation.
		 */
		disabledCause: text('disabled_cause').$type<DisabledCause>(),
		secretSealed: text('secret_sealed').notNull(),
		/**
		 * The secrets replaced by rotations, oldest first, each sealed like `secretSealed` and signing until
		 * its `until` (ISO 8601). A list in the row rather than a table: it is short (capped), always read
		 * with the endpoint (the claim's one row) and rewritten whole under the row's lock by a rotation.
		 */
		previousSecrets: jsonb('previous_secrets').$type<PreviousSecret[]>().notNull().default([]),
		/**
		 * Since when every attempt has failed, in one unbroken run (cleared by a 2xx); 5 days of it
		 * disables the endpoint. The run is broken when no attempt failed for longer than the retry
		 * schedule's longest wait with its jitter (`lastFailureAt` tells; worker.ts `failureRunGapMs`).
		 */
		failingSince: at('failing_since'),
		/** The latest failed attempt. */
		lastFailureAt: at('last_failure_at'),
		createdAt: at('created_at').notNull().defaultNow(),
	},
	(t) => [
		index('webhook_endpoints_workspace').on(t.workspaceId, t.createdAt),
		index('webhook_endpoints_vendor').on(t.vendorId),
		// Whatever switches an endpoint off says why: a vendor is never shown an endpoint off for no reason.
		check('webhook_endpoints_off_says_why', sql`${t.enabled} = (${t.disabledCause} is null)`),
		check('webhook_endpoints_disabled_cause_valid', sql`${t.disabledCause} in (${sql.raw(DISABLED_CAUSES.map((c) => `'${c}'`).join(', '))})`),
	],
)

/**
 * One event for one endpoint: its `webhook-id` (`id`, kept by every retry and replay), the exact body
 * sent every time, and where its delivery stands. `pending` rows are due at `nextAttemptAt`; a
 * `sending` row is claimed by one instance until its lease (`nextAttemptAt`) passes.
 */
export const webhookDeliveries = pgTable(
	'webhook_deliveries',
	{
		/** `msg_…`: the `webhook-id` header. */
		id: text('id').primaryKey(),
		seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
		endpointId: text('endpoint_id')
			.notNull()
			.references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
		workspaceId: text('workspace_id').notNull(),
		/** The domain event it carries (null for `webhook.test`). */
		eventId: text('event_id'),
		type: text('type').notNull(),
		/** The JSON body, exactly as signed and sent on every attempt. */
		body: text('body').notNull(),
		/** pending, sending, delivered or failed. */
		status: text('status').notNull().default('pending'),
		attempts: integer('attempts').notNull().default(0),
		nextAttemptAt: at('next_attempt_at').notNull().defaultNow(),
		lastAttemptAt: at('last_attempt_at'),
		/** The HTTP status of the last answer (null: no answer). */
		lastStatus: integer('last_status'),
		lastError: text('last_error'),
		deliveredAt: at('delivered_at'),
		/** When the change happened (the event's time): the delay to delivery is measured from it. */
		createdAt: at('created_at').notNull().defaultNow(),
	},
	(t) => [
		// Only the rows still to send: the delivered and failed ones (almost all) stay out of it.
		index('webhook_deliveries_due').on(t.nextAttemptAt).where(sql`status in ('pending', 'sending')`),
		index('webhook_deliveries_endpoint').on(t.endpointId, t.seq),
		// The claim walks each endpoint's due rows in order.
		index('webhook_deliveries_endpoint_due').on(t.endpointId, t.nextAttemptAt, t.seq).where(sql`status in ('pending', 'sending')`),
		index('webhook_deliveries_event').on(t.eventId),
	],
)
