/**
 * What the portal sends lands in its thread: the inbox copies outbox rows (e-mail and messages,
 * written by any module) into the conversation with their recipient — the person the row names,
 * not whoever else has the same address. Copying is idempotent (one
 * copy per outbox row) and re-reads the last five minutes each time, so a row whose transaction
 * committed late is not missed. It runs before the inbox is read and every minute in the background.
 */
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { withoutCredentials } from '../../core/untrusted.ts'
import { listWorkspaces } from '../auth/index.ts'
import { outboxSince, type OutboxEntry } from '../outbox/index.ts'
import { appendMessage, counterpartFor, threadFor, vendorBook, type VendorBook } from './threads.ts'
import { inboxMessages } from './table.ts'
import { runEvery } from '../../core/every.ts'

const OVERLAP_MS = 5 * 60_000
const BATCH = 500

/** Copies the outbox rows not yet in the inbox (of one workspace, or of each); returns how many were added. */
export async function syncOutbox(deps: AppDeps, workspaceId?: string): Promise<number> {
	if (workspaceId) return syncWorkspace(deps, workspaceId)
	// Workspace by workspace: each has its own high-water mark, so one busy workspace cannot move
	// the mark past rows of another that were not copied yet.
	let added = 0
	for (const ws of await listWorkspaces(deps.db)) added += await syncWorkspace(deps, ws.id)
	return added
}

async function syncWorkspace(deps: AppDeps, workspaceId: string): Promise<number> {
	const [mark] = await deps.database.rows<{ at: Date | string | null }>(
		sql`select max(at) as at from ${inboxMessages} where outbox_id is not null and workspace_id = ${workspaceId}`,
	)
	const since = mark?.at ? new Date(new Date(mark.at).getTime() - OVERLAP_MS) : undefined
	let book: Promise<VendorBook> | undefined
	const vendors = () => (book ??= vendorBook(deps, workspaceId))
	let added = 0
	let after: { at: Date; seq: number } | undefined
	for (;;) {
		const rows = await outboxSince(deps.db, { workspaceId, since, after, limit: BATCH })
		const copied = new Set(
			rows.length
				? (
						await deps.database.rows<{ id: string }>(
							sql`select outbox_id as id from ${inboxMessages} where outbox_id in (${sql.join(
								rows.map((r) => sql`${r.id}`),
								sql`, `,
							)})`,
						)
					).map((r) => r.id)
				: [],
		)
		for (const row of rows) if (!copied.has(row.id) && (await copy(deps, row, vendors))) added++
		if (rows.length < BATCH) return added
		const last = rows[rows.length - 1]!
		after = { at: last.createdAt, seq: last.seq }
	}
}

async function copy(deps: AppDeps, row: OutboxEntry, vendors: () => Promise<VendorBook>): Promise<boolean> {
	// Filed with the person the sender named; by the address only for rows that name nobody.
	const counterpart = await counterpartFor(
		deps,
		row.workspaceId,
		row.to,
		row.recipientType ? { type: row.recipientType as 'candidate' | 'vendor', id: row.recipientId ?? undefined } : null,
		vendors,
	)
	return deps.db.transaction(async (tx) => {
		const threadId = await threadFor(tx, row.workspaceId, counterpart, row.subject ?? (row.channel === 'message' ? 'Text messages' : ''), row.createdAt)
		const id = await appendMessage(tx, {
			workspaceId: row.workspaceId,
			threadId,
			direction: 'out',
			channel: row.channel === 'message' ? 'message' : 'email',
			from: deps.config.mailFrom,
			to: row.to,
			subject: row.subject,
			// The upload link in a document request is the candidate's credential: it stays in the
			// candidate's copy (the outbox) and is not kept where colleagues and assistants read.
			text: withoutCredentials(row.text, '[private link, sent to the recipient only]'),
			messageId: row.messageId,
			outboxId: row.id,
			// Sent for a person (their document request, their submission): their message, as one they wrote in the inbox is.
			sentByUserId: row.sentByUserId,
			related: { type: row.relatedType, id: row.relatedId },
			at: row.createdAt,
		})
		return id !== null
	})
}

/** Keeps the inbox in step with the outbox every minute; returns the stop function. */
export function startOutboxSync(deps: AppDeps, everyMs = 60_000): () => Promise<void> {
	return runEvery(deps.log, { everyMs, failure: 'inbox sync failed' }, () => syncOutbox(deps))
}
