/**
 * The candidates the retention rule could not erase, tried again after a backoff (`retention_failures`):
 * a failure is recorded with the run's time and when to try again, the rule passes over the
 * candidate until then, and a later success (or any erasure of the person) removes the record with
 * them. Seen by the operator as a log line per failure and on `/metrics` as the queue
 * `retention_retries` (its depth, and how long the longest-due retry has waited).
 */
import { and, eq, gt, inArray, sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import type { QueueDef } from '../../core/module.ts'
import type { Db } from '../../db/client.ts'
import { dueAgeSeconds } from '../../core/queue-age.ts'
import type { CandidateDataSource } from '../candidates/index.ts'
import { retentionFailures } from './table.ts'

const DAY_MS = 24 * 60 * 60 * 1000
/** The longest wait between two tries: a candidate the rule cannot erase is still tried about monthly. */
export const MAX_RETRY_DAYS = 32

/** Days until the next try after `failures` failed runs in a row: 1, 2, 4… up to `MAX_RETRY_DAYS`. */
export const retryDays = (failures: number) => Math.min(2 ** Math.max(0, failures - 1), MAX_RETRY_DAYS)

/** Of these candidates, those whose last failure's wait has not ended at `now`: the rule passes over them. */
export async function waitingToRetry(deps: AppDeps, workspaceId: string, candidateIds: readonly string[], now: Date): Promise<Set<string>> {
	if (!candidateIds.length) return new Set()
	const rows = await deps.db
		.select({ id: retentionFailures.candidateId })
		.from(retentionFailures)
		.where(and(eq(retentionFailures.workspaceId, workspaceId), inArray(retentionFailures.candidateId, [...candidateIds]), gt(retentionFailures.retryAt, now)))
	return new Set(rows.map((r) => r.id))
}

/** How many of the workspace's candidates the rule failed to erase and waits to try again (the owners' summary counts them, naming none). */
export async function retentionFailureCount(db: Db, workspaceId: string): Promise<number> {
	const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(retentionFailures).where(eq(retentionFailures.workspaceId, workspaceId))
	return Number(row?.n ?? 0)
}

/** Records one more failed erasure of the candidate; returns how many in a row and when the rule tries again. */
export async function recordRetentionFailure(deps: AppDeps, workspaceId: string, candidateId: string, now: Date): Promise<{ failures: number; retryAt: Date }> {
	const f = retentionFailures
	return deps.db.transaction(async (tx) => {
		const [row] = await tx
			.insert(f)
			.values({ candidateId, workspaceId, failures: 1, firstFailedAt: now, lastFailedAt: now, retryAt: now })
			.onConflictDoUpdate({ target: f.candidateId, set: { failures: sql`${f.failures} + 1`, lastFailedAt: now } })
			.returning({ failures: f.failures })
		// The wait doubles with each failure in a row, counted from this one.
		const retryAt = new Date(now.getTime() + retryDays(row!.failures) * DAY_MS)
		await tx.update(f).set({ retryAt }).where(eq(f.candidateId, candidateId))
		return { failures: row!.failures, retryAt }
	})
}

/** The record as candidate data: in their export, and deleted with them (the cascade would too; said here). */
export const retentionFailuresData: CandidateDataSource = {
	key: 'retentionFailures',
	tables: ['retention_failures'],
	async export(_deps, db, subject) {
		const [row] = await db
			.select({ failures: retentionFailures.failures, firstFailedAt: retentionFailures.firstFailedAt, lastFailedAt: retentionFailures.lastFailedAt })
			.from(retentionFailures)
			.where(eq(retentionFailures.candidateId, subject.candidateId))
		return { data: row ?? null }
	},
	async erase(_deps, tx, subject) {
		await tx.delete(retentionFailures).where(eq(retentionFailures.candidateId, subject.candidateId))
		return undefined
	},
}

/** On `/metrics`: candidates waiting for the rule to try their erasure again, and how long the longest-due one has waited. */
export const retentionRetryQueue: QueueDef = {
	name: 'retention_retries',
	description: 'Candidates the retention rule could not erase, waiting to be tried again',
	async measure(deps) {
		const [row] = await deps.database.rows<{ depth: number; oldest: number | string }>(
			sql`select count(*)::int as depth, ${dueAgeSeconds(sql`retry_at`)} as oldest from ${retentionFailures}`,
		)
		return { depth: Number(row?.depth ?? 0), oldestAgeSeconds: Math.max(0, Number(row?.oldest ?? 0)) }
	},
}
