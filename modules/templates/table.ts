import { sql } from 'drizzle-orm'
import { bigint, index, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { users, workspaces } from '../auth/table.ts'

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 })

/**
 * A message template: shared (owner null: made by an owner or admin, offered to everyone) or a
 * person's own. Names are unique among the shared ones and among each person's own (any case).
 */
export const messageTemplates = pgTable(
	'message_templates',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		/** Null for a shared template; the person whose own template it is otherwise. */
		ownerUserId: text('owner_user_id').references(() => users.id),
		name: text('name').notNull(),
		/** email or text. */
		channel: text('channel').notNull(),
		/** transactional or marketing (a job alert: sent with List-Unsubscribe, never to someone who unsubscribed). */
		kind: text('kind').notNull().default('transactional'),
		/** E-mail only. */
		subject: text('subject'),
		body: text('body').notNull(),
		createdByUserId: text('created_by_user_id').references(() => users.id),
		createdAt: at('created_at').notNull().defaultNow(),
		updatedAt: at('updated_at').notNull().defaultNow(),
		/** Insertion order, the tie-break of templates with the same name (written by the database). */
		seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
	},
	(t) => [
		uniqueIndex('message_templates_name').on(t.workspaceId, sql`coalesce(${t.ownerUserId}, '')`, sql`lower(${t.name})`),
		index('message_templates_owner').on(t.workspaceId, t.ownerUserId),
	],
)

/** The firm's footer of every e-mail and text message to a candidate (one row per workspace, set by owners and admins). */
export const messageFooters = pgTable('message_footers', {
	workspaceId: text('workspace_id')
		.primaryKey()
		.references(() => workspaces.id),
	email: text('email').notNull(),
	text: text('text').notNull(),
	updatedAt: at('updated_at').notNull().defaultNow(),
})

/** A person's signature in one workspace (`{{recruiter.signature}}`). */
export const messageSignatures = pgTable(
	'message_signatures',
	{
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		userId: text('user_id')
			.notNull()
			.references(() => users.id),
		signature: text('signature').notNull(),
		updatedAt: at('updated_at').notNull().defaultNow(),
	},
	(t) => [primaryKey({ columns: [t.workspaceId, t.userId] })],
)
