/**
 * A person erased (a candidate's right to erasure): what was still to be sent to them, or about them
 * (a vendor submission with their résumé), is not sent, and the copies of what was sent (to them, or
 * about them to others, e.g. a vendor submission) keep no address, name or phone number of theirs,
 * nor the attachments of mail about them (their files are erased). A delivery report's reason on
 * their mail (the remote server's words, which usually name the address) loses their details too.
 */
import { and, eq, type SQL, sql } from 'drizzle-orm'
import { emailSpellings } from '../../core/email.ts'
import { ERASED, jsonWithoutMentions, mentionsAny, withoutMentions } from '../../core/erased-text.ts'
import { rowsOf, type Db } from '../../db/client.ts'
import { outboxUnsubscribes } from './table.ts'

export interface ErasedRecipient {
	readonly workspaceId: string
	readonly recipientType: string
	readonly recipientId: string
	/** Records whose mail is about the person (their applications). */
	readonly relatedIds: readonly string[]
	/** What is replaced in any mail, and the addresses their mail goes to: their name, address and phone, each unless another candidate has it. */
	readonly needles: readonly string[]
	/** Their name, address and phone: replaced in mail to them or about their records. */
	readonly ownNeedles: readonly string[]
}

/**
 * Returns how many messages waiting to go to the person, or about them (their records), were
 * cancelled. Mail is theirs when its recipient is them, or when it has no candidate as recipient
 * and goes to an address only they hold (`needles` leave out an address another candidate still
 * holds): mail for another candidate is that candidate's, whatever its address.
 */
export async function forgetRecipient(tx: Db, erased: ErasedRecipient): Promise<{ cancelled: number }> {
	// Sent mail keeps an address as it was sent to: before addresses had one normal form, perhaps with a Unicode domain.
	const r = { ...erased, needles: erased.needles.flatMap(emailSpellings), ownNeedles: erased.ownNeedles.flatMap(emailSpellings) }
	const theirs = sql`workspace_id = ${r.workspaceId} and ((recipient_type = ${r.recipientType} and recipient_id = ${r.recipientId})
		or ((recipient_type is distinct from ${r.recipientType} or recipient_id is null) and lower("to") = any(${sql.param(r.needles.map((n) => n.toLowerCase()))}::text[])))`
	const about = sql`workspace_id = ${r.workspaceId} and related_id = any(${sql.param([...r.relatedIds])}::text[])`
	const cancelled = await rowsOf<{ id: string }>(
		await tx.execute(
			sql`update outbox set status = 'not_sent', last_error = case when ${theirs} then 'The recipient was erased' else 'The person it is about was erased' end,
				private_sealed = null
			where ((${theirs}) or (${about})) and status in ('pending', 'failed') returning id`,
		),
	)
	await tx.execute(
		sql`update outbox set "to" = ${ERASED}, subject = ${ERASED}, text = ${ERASED}, html = null, attachments = '[]'::jsonb, calendar = null, private_sealed = null,
			bounce_reason = ${withoutMentions(sql`bounce_reason`, r.ownNeedles)}
		where ${theirs} and status <> 'sending'`,
	)
	const cleaned = (needles: readonly string[], where: SQL) =>
		tx.execute(
			sql`update outbox set subject = ${withoutMentions(sql`subject`, needles)}, text = ${withoutMentions(sql`text`, needles)},
				html = ${withoutMentions(sql`html`, needles)}, calendar = ${jsonWithoutMentions(sql`calendar`, needles)},
				bounce_reason = ${withoutMentions(sql`bounce_reason`, needles)}
			where workspace_id = ${r.workspaceId} and status <> 'sending' and ${where}`,
		)
	// About their records (a submission to a vendor): every mention, and no attachment (its files, named after them, are erased).
	await cleaned(r.ownNeedles, about)
	await tx.execute(sql`update outbox set attachments = '[]'::jsonb where ${about} and status <> 'sending' and attachments <> '[]'::jsonb`)
	// Elsewhere: what only they can be.
	await cleaned(r.needles, mentionsAny(sql`coalesce(subject, '') || ' ' || text || ' ' || coalesce(html, '') || ' ' || coalesce(bounce_reason, '')`, r.needles))
	return { cancelled: cancelled.length }
}

/**
 * Mail about these records (an erased person's interviews) still waiting to go is not sent, with
 * `reason`; returns, per record, the addresses (lower case) mail about it already went to: the
 * people who may hold something from it (an invitation in their calendar) and need a word now.
 */
export async function stopMailAbout(tx: Db, workspaceId: string, relatedIds: readonly string[], reason: string): Promise<Map<string, Set<string>>> {
	const reached = new Map<string, Set<string>>()
	if (!relatedIds.length) return reached
	const about = sql`workspace_id = ${workspaceId} and related_id = any(${sql.param([...relatedIds])}::text[])`
	await tx.execute(sql`update outbox set status = 'not_sent', last_error = ${reason}, private_sealed = null where ${about} and status in ('pending', 'failed')`)
	const sent = await rowsOf<{ relatedId: string; to: string }>(
		await tx.execute(sql`select related_id as "relatedId", lower("to") as "to" from outbox where ${about} and status in ('sending', 'sent')`),
	)
	for (const s of sent) reached.set(s.relatedId, (reached.get(s.relatedId) ?? new Set()).add(s.to))
	return reached
}

const unsubscribeOf = (workspaceId: string, recipient: { type: string; id: string }) =>
	and(eq(outboxUnsubscribes.workspaceId, workspaceId), eq(outboxUnsubscribes.recipientType, recipient.type), eq(outboxUnsubscribes.recipientId, recipient.id))

/** When the recipient unsubscribed from marketing mail (null: never): part of their data. */
export async function unsubscribedAt(db: Db, workspaceId: string, recipient: { type: string; id: string }): Promise<Date | null> {
	const [row] = await db.select({ at: outboxUnsubscribes.createdAt }).from(outboxUnsubscribes).where(unsubscribeOf(workspaceId, recipient))
	return row?.at ?? null
}

/**
 * Forgets that the recipient unsubscribed, as they are erased. The record is keyed by the recipient's
 * id, which goes with them: no message can be queued for it again (mail still waiting for them is
 * stopped by `forgetRecipient`), so the rule it kept has nothing left to stop.
 */
export async function forgetUnsubscribe(tx: Db, workspaceId: string, recipient: { type: string; id: string }): Promise<void> {
	await tx.delete(outboxUnsubscribes).where(unsubscribeOf(workspaceId, recipient))
}

/**
 * What the outbox keeps for recipients that no longer exist (job alerts deleted: unsubscribed, erased,
 * never confirmed), in the deletion's transaction. Their unsubscribe records go: keyed by ids nothing
 * can be queued for again, they would stay forever, tied to the person only through the mail sent to
 * that id, in nobody's export. Mail still waiting to go to them is not sent (`reason`): what the
 * record stopped, when it was kept, was that mail (nothing checks it once a message is queued). Mail
 * sent stays, as for any recipient.
 */
export async function forgetGoneRecipients(tx: Db, workspaceId: string, recipientType: string, ids: readonly string[], reason: string): Promise<void> {
	if (!ids.length) return
	const theirs = sql`workspace_id = ${workspaceId} and recipient_type = ${recipientType} and recipient_id = any(${sql.param([...ids])}::text[])`
	await tx.execute(
		sql`update outbox set status = 'not_sent', last_error = ${reason}, private_sealed = null where ${theirs} and status in ('pending', 'failed')`,
	)
	await tx.execute(sql`delete from ${outboxUnsubscribes} where ${theirs}`)
}
