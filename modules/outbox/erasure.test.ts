/**
 * Erasure and addresses in either spelling: sent mail keeps the address it went to, and mail sent
 * before addresses had one normal form (core/email.ts) may name the person's domain in Unicode. What
 * went to them, or names them, in that spelling is erased as in the ASCII one they are stored in.
 */
import { expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { normalDomain } from '../../core/email.ts'
import { newWorkspace, testDeps, unique } from '../../tests/helpers.ts'
import { enqueueMail, forgetRecipient } from './index.ts'
import { outbox } from './table.ts'

test('mail to the Unicode spelling of an erased person’s address (a job alert’s), and their address in its words, is erased', async () => {
	const deps = await testDeps()
	const ws = await newWorkspace()
	const unicode = `bücher-${unique('d')}.example`
	const ascii = normalDomain(unicode)!
	const alert = await enqueueMail(
		deps.db,
		{ workspaceId: ws.id, to: `ann@${unicode}`, subject: 'New jobs', text: `Sent to ann@${unicode}.`, recipient: { type: 'job_alert', id: 'alert_1' } },
		deps,
	)
	const other = await enqueueMail(deps.db, { workspaceId: ws.id, to: `bo@${unicode}`, subject: 'New jobs', text: 'Hello' }, deps)
	const cancelled = await deps.db.transaction((tx) =>
		forgetRecipient(tx, {
			workspaceId: ws.id,
			recipientType: 'candidate',
			recipientId: 'cand_gone',
			relatedIds: [],
			needles: [`ann@${ascii}`],
			ownNeedles: [`ann@${ascii}`],
		}),
	)
	expect(cancelled).toEqual({ cancelled: 1 })
	const rowOf = async (id: string) => (await deps.db.select().from(outbox).where(eq(outbox.id, id)))[0]!
	expect(await rowOf(alert.id)).toMatchObject({ to: 'Erased candidate', text: 'Erased candidate', status: 'not_sent' })
	expect(await rowOf(other.id)).toMatchObject({ to: `bo@${unicode}`, status: 'pending' })
})
