import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { workspaces } from '../auth/table.ts'

/**
 * Which document kinds (`dl`, `visa`, `i94`, `workAuth`) a submission to the vendor needs: `always`
 * for every candidate, plus the kinds listed for the candidate's work authorization (`H1B`, …).
 */
export interface DocumentRules {
	always: string[]
	byWorkAuthorization: Record<string, string[]>
}

export const vendors = pgTable(
	'vendors',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		name: text('name').notNull(),
		/** When false, every key of the vendor gets 403 on the REST API. */
		apiAccess: boolean('api_access').notNull().default(true),
		contactName: text('contact_name'),
		contactEmail: text('contact_email'),
		contactPhone: text('contact_phone'),
		/** Submissions are e-mailed here (with the documents and résumé attached)… */
		submissionEmail: text('submission_email'),
		/** …or, when the vendor only takes them on its own portal, made there. */
		submissionPortalUrl: text('submission_portal_url'),
		documentRules: jsonb('document_rules').$type<DocumentRules>().notNull().default({ always: [], byWorkAuthorization: {} }),
		createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
	},
	(t) => [index('vendors_workspace').on(t.workspaceId, t.createdAt)],
)

/** Vendor API keys (`bl_vk_…`), stored only as their SHA-256. A vendor may hold several (rotation). */
export const vendorApiKeys = pgTable(
	'vendor_api_keys',
	{
		id: text('id').primaryKey(),
		vendorId: text('vendor_id')
			.notNull()
			.references(() => vendors.id),
		keyHash: text('key_hash').notNull(),
		lastFour: text('last_four').notNull(),
		createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
		/** Kept to the minute (no write on most requests). */
		lastUsedAt: timestamp('last_used_at', { withTimezone: true, precision: 3 }),
		revokedAt: timestamp('revoked_at', { withTimezone: true, precision: 3 }),
	},
	(t) => [uniqueIndex('vendor_api_keys_hash').on(t.keyHash), index('vendor_api_keys_vendor').on(t.vendorId)],
)
