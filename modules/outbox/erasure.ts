/**
 * A person erased (a candidate's right to erasure): what was still to be sent to them is not sent,
 * and the copies of what was sent (to them, or about them to others, e.g. a vendor submission) keep
 * no address, name or phone number of theirs.
 */
import { type SQL, sql } from 'drizzle-orm'
import { ERASED, mentionsAny, withoutMentions } from '../../core/erased-text.ts'
import { rowsOf, type Db } from '../../db/client.ts'

export interface ErasedRecipient {
	readonly workspaceId: string
	readonly recipientType: string
	readonly recipientId: string
	/** Records whose mail is about the person (their applications). */
	readonly relatedIds: readonly string[]
	/** What is replaced in any mail (their address and phone, and their name unless another candidate has it). */
	readonly needles: readonly string[]
	/** Their name, address and phone: replaced in mail to them or about their records. */
	readonly ownNeedles: readonly string[]
}

/** Returns how many messages waiting to go to the person were cancelled. */
export async function forgetRecipient(tx: Db, r: ErasedRecipient): Promise<{ cancelled: number }> {
	const theirs = sql`workspace_id = ${r.workspaceId} and ((recipient_type = ${r.recipientType} and recipient_id = ${r.recipientId})
		or lower("to") = any(${sql.param(r.needles.map((n) => n.toLowerCase()))}::text[]))`
	const cancelled = await rowsOf<{ id: string }>(
		await tx.execute(
			sql`update outbox set status = 'not_sent', last_error = 'The recipient was erased', private_sealed = null
			where ${theirs} and status in ('pending', 'failed') returning id`,
		),
	)
	await tx.execute(
		sql`update outbox set "to" = ${ERASED}, subject = ${ERASED}, text = ${ERASED}, html = null, attachments = '[]'::jsonb, calendar = null, private_sealed = null
		where ${theirs} and status <> 'sending'`,
	)
	const cleaned = (needles: readonly string[], where: SQL) =>
		tx.execute(
			sql`update outbox set subject = ${withoutMentions(sql`subject`, needles)}, text = ${withoutMentions(sql`text`, needles)},
				html = ${withoutMentions(sql`html`, needles)}, calendar = ${withoutMentions(sql`calendar::text`, needles)}::jsonb
			where workspace_id = ${r.workspaceId} and status <> 'sending' and ${where}`,
		)
	// About their records (a submission to a vendor): every mention. Elsewhere: what only they can be.
	await cleaned(r.ownNeedles, sql`related_id = any(${sql.param([...r.relatedIds])}::text[])`)
	await cleaned(r.needles, mentionsAny(sql`coalesce(subject, '') || ' ' || text || ' ' || coalesce(html, '')`, r.needles))
	return { cancelled: cancelled.length }
}
