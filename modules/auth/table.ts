import { sql } from 'drizzle-orm'
import { index, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'

export const workspaces = pgTable('workspaces', {
	id: text('id').primaryKey(),
	slug: text('slug').notNull().unique(),
	name: text('name').notNull(),
	createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
})

/** A person. E-mail addresses are stored lower-cased; one account may belong to several workspaces. */
export const users = pgTable('users', {
	id: text('id').primaryKey(),
	email: text('email').notNull().unique(),
	name: text('name').notNull(),
	passwordHash: text('password_hash').notNull(),
	createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
})

/** A person's place in a workspace: their role and any permissions granted beyond it. */
export const memberships = pgTable(
	'memberships',
	{
		workspaceId: text('workspace_id').notNull().references(() => workspaces.id),
		userId: text('user_id').notNull().references(() => users.id),
		role: text('role').notNull(),
		grants: text('grants').array().notNull().default(sql`'{}'::text[]`),
		createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
		removedAt: timestamp('removed_at', { withTimezone: true, precision: 3 }),
	},
	(t) => [primaryKey({ columns: [t.workspaceId, t.userId] }), index('memberships_user').on(t.userId)],
)

/** Portal sessions (Lucia's pattern): the id is the SHA-256 of the cookie token. */
export const sessions = pgTable(
	'sessions',
	{
		id: text('id').primaryKey(),
		userId: text('user_id').notNull().references(() => users.id),
		workspaceId: text('workspace_id').notNull().references(() => workspaces.id),
		expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
		createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
	},
	(t) => [index('sessions_user').on(t.userId)],
)

/** Personal tokens (`bl_pat_…`), stored only as their SHA-256. */
export const personalTokens = pgTable(
	'personal_tokens',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id').notNull().references(() => workspaces.id),
		userId: text('user_id').notNull().references(() => users.id),
		name: text('name').notNull(),
		tokenHash: text('token_hash').notNull(),
		lastFour: text('last_four').notNull(),
		createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
		lastUsedAt: timestamp('last_used_at', { withTimezone: true, precision: 3 }),
		revokedAt: timestamp('revoked_at', { withTimezone: true, precision: 3 }),
	},
	(t) => [uniqueIndex('personal_tokens_hash').on(t.tokenHash), index('personal_tokens_workspace').on(t.workspaceId, t.createdAt)],
)

/** Failed sign-in attempts, for slowing down guessing per account and per address. */
export const signInFailures = pgTable(
	'sign_in_failures',
	{
		id: text('id').primaryKey(),
		email: text('email').notNull(),
		address: text('address').notNull(),
		at: timestamp('at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
	},
	(t) => [index('sign_in_failures_email').on(t.email, t.at), index('sign_in_failures_address').on(t.address, t.at)],
)
