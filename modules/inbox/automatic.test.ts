/** Which mail no person wrote (RFC 3834 auto-replies, RFC 3464 delivery reports), read by postal-mime as the webhook reads it. */
import { describe, expect, test } from 'bun:test'
import PostalMime from 'postal-mime'
import { automaticKind, failureReason, reportedMessageIds, reportsFailure } from './automatic.ts'

const message = (headers: string[], body = 'Hello') => PostalMime.parse([...headers, '', body].join('\r\n'))
const from = 'nora@example.org'

/** A delivery report as Postfix writes one: a text part, the status, the original's headers. */
function deliveryReport(o: { original: string; action?: string; from?: string; inReplyTo?: string }) {
	return [
		`From: ${o.from ?? 'Mail Delivery System <MAILER-DAEMON@mx.example.org>'}`,
		'To: no-reply@localhost',
		'Subject: Undelivered Mail Returned to Sender',
		'Auto-Submitted: auto-replied',
		...(o.inReplyTo ? [`In-Reply-To: ${o.inReplyTo}`] : []),
		'MIME-Version: 1.0',
		'Content-Type: multipart/report; report-type=delivery-status; boundary="B1"',
		'',
		'--B1',
		'Content-Type: text/plain',
		'',
		'Your message could not be delivered to one or more recipients.',
		'--B1',
		'Content-Type: message/delivery-status',
		'',
		'Reporting-MTA: dns; mx.example.org',
		'',
		'Final-Recipient: rfc822; nora@example.org',
		`Action: ${o.action ?? 'failed'}`,
		'Status: 5.1.1',
		'Diagnostic-Code: smtp; 550 5.1.1 user unknown',
		'--B1',
		'Content-Type: text/rfc822-headers',
		'',
		'From: Benchline <no-reply@localhost>',
		'To: nora@example.org',
		`Message-ID: ${o.original}`,
		'Subject: Offer',
		'--B1--',
		'',
	].join('\r\n')
}

describe('automaticKind', () => {
	test('mail a person wrote is none of these (Auto-Submitted: no, Precedence: first-class, a report-type word in the text)', async () => {
		expect(automaticKind(await message(['From: nora@example.org', 'Subject: hi']), from)).toBeNull()
		expect(automaticKind(await message(['From: nora@example.org', 'Auto-Submitted: No (a person)', 'Precedence: first-class']), from)).toBeNull()
		expect(automaticKind(await message(['From: nora@example.org', 'Subject: delivery-status report'], 'Action: failed'), from)).toBeNull()
	})

	test('RFC 3834 and the usual auto-responder fields make it automatic', async () => {
		for (const field of [
			'Auto-Submitted: auto-replied',
			'Auto-Submitted: auto-generated',
			'Auto-Submitted: auto-notified; owner-email="x@example.org"',
			'auto-submitted: AUTO-REPLIED',
			'Precedence: bulk',
			'Precedence: junk',
			'Precedence: list',
			'Precedence: auto_reply',
			'X-Autoreply: yes',
			'X-Autorespond: Out of office',
			'Return-Path: <>',
		])
			expect({ field, kind: automaticKind(await message(['From: nora@example.org', field, 'Subject: Out of office']), from) }).toEqual({
				field,
				kind: 'automatic',
			})
		// A read receipt is a report too, but no delivery report.
		const receipt = await message(['From: nora@example.org', 'Content-Type: multipart/report; report-type=disposition-notification; boundary=X'], '--X--')
		expect(automaticKind(receipt, from)).toBe('automatic')
	})

	test('a delivery report, by its type, its part or its sender', async () => {
		expect(automaticKind(await PostalMime.parse(deliveryReport({ original: '<out_a@localhost>' })), 'MAILER-DAEMON@mx.example.org')).toBe('delivery_report')
		expect(automaticKind(await message(['From: x@mx.example.org', 'Content-Type: message/delivery-status'], 'Action: failed'), 'x@mx.example.org')).toBe(
			'delivery_report',
		)
		expect(automaticKind(await message(['From: Postmaster <postmaster@example.org>', 'Subject: Delivery failure']), 'Postmaster@example.org')).toBe(
			'delivery_report',
		)
		expect(automaticKind(await message(['From: mailer-daemon@example.org', 'Subject: failure']), 'mailer-daemon@example.org')).toBe('delivery_report')
	})

	test('a person’s mail forwarding a bounce (a message/rfc822 part, inline or unlabelled) is still theirs', async () => {
		const bounce = deliveryReport({ original: '<out_fwd@localhost>' })
		for (const disposition of [[], ['Content-Disposition: inline']]) {
			const raw = [
				'From: Nora <nora@example.org>',
				'To: no-reply@localhost',
				'Subject: Re: Offer',
				'MIME-Version: 1.0',
				'Content-Type: multipart/mixed; boundary="M"',
				'',
				'--M',
				'Content-Type: text/plain',
				'',
				'I accept. Your mail to my old address bounced: here is what came back.',
				'--M',
				'Content-Type: message/rfc822',
				...disposition,
				'',
				bounce,
				'--M--',
				'',
			].join('\r\n')
			const email = await PostalMime.parse(raw)
			// postal-mime unpacks the forwarded report's parts beside the mail's own.
			expect(email.attachments.map((a) => a.mimeType)).toContain('message/delivery-status')
			expect({ disposition, kind: automaticKind(email, from) }).toEqual({ disposition, kind: null })
		}
	})
})

describe('what a delivery report says', () => {
	test('failed, with the Message-ID of the original it quotes; delayed is no failure', async () => {
		const failed = await PostalMime.parse(deliveryReport({ original: '<out_a@localhost>' }))
		expect(reportsFailure(failed)).toBe(true)
		expect(reportedMessageIds(failed)).toEqual(['<out_a@localhost>'])
		expect(reportsFailure(await PostalMime.parse(deliveryReport({ original: '<out_a@localhost>', action: 'delayed' })))).toBe(false)
		// A report that is the status itself.
		expect(
			reportsFailure(await message(['From: x@mx.example.org', 'Content-Type: message/delivery-status'], 'Final-Recipient: rfc822; a@b.c\r\nAction: failed')),
		).toBe(true)
	})

	test('the original attached whole (message/rfc822) names it too', async () => {
		const raw = [
			'From: MAILER-DAEMON@mx.example.org',
			'Content-Type: multipart/report; report-type=delivery-status; boundary="B"',
			'',
			'--B',
			'Content-Type: message/delivery-status',
			'',
			'Action: failed',
			'--B',
			'Content-Type: message/rfc822',
			'',
			'From: no-reply@localhost',
			'Message-ID: <out_whole@localhost>',
			'',
			'The offer.',
			'--B--',
			'',
		].join('\r\n')
		expect(reportedMessageIds(await PostalMime.parse(raw))).toEqual(['<out_whole@localhost>'])
	})

	test('its reason: the failed recipient’s Diagnostic-Code (type dropped, folding undone), else its Status; none when nothing failed', async () => {
		expect(failureReason(await PostalMime.parse(deliveryReport({ original: '<out_a@localhost>' })))).toBe('550 5.1.1 user unknown')
		expect(failureReason(await PostalMime.parse(deliveryReport({ original: '<out_a@localhost>', action: 'delayed' })))).toBeNull()
		const status = (fields: string) =>
			message(
				['From: MAILER-DAEMON@mx.example.org', 'Content-Type: multipart/report; report-type=delivery-status; boundary="B"'],
				`--B\r\nContent-Type: message/delivery-status\r\n\r\n${fields}\r\n--B--\r\n`,
			)
		// The recipient that failed, not the one delivered before it; a folded code read as one line.
		const two = await status(
			'Reporting-MTA: dns; mx.example.org\r\n\r\nFinal-Recipient: rfc822; a@example.org\r\nAction: delivered\r\nDiagnostic-Code: smtp; 250 ok\r\n\r\nFinal-Recipient: rfc822; b@example.org\r\nAction: failed\r\nStatus: 5.2.2\r\nDiagnostic-Code: smtp; 552 5.2.2 <b@example.org>:\r\n    mailbox full',
		)
		expect(failureReason(two)).toBe('552 5.2.2 <b@example.org>: mailbox full')
		expect(failureReason(await status('Final-Recipient: rfc822; b@example.org\r\nAction: failed\r\nStatus: 5.1.1'))).toBe('5.1.1')
		expect(failureReason(await status('Final-Recipient: rfc822; b@example.org\r\nAction: failed'))).toBeNull()
		// Outside text: one line, control characters gone, at most 300 characters.
		const long = await status(`Action: failed\r\nDiagnostic-Code: smtp; 550 \u0007bad\u202e ${'x'.repeat(400)}`)
		expect(failureReason(long)).toMatch(/^550 bad x+…$/)
		expect([...failureReason(long)!]).toHaveLength(300)
	})
})
