/**
 * The outbox worker against a real SMTP server started by the test: delivery with attachments,
 * retries with backoff while the server is down (nothing lost, nothing sent twice), permanent
 * failures, two workers at once, and the dev mailbox when SMTP_URL is not set.
 */
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq, inArray } from 'drizzle-orm'
import { fileStore } from '../../core/files.ts'
import { loadConfig } from '../../core/config.ts'
import { createLogger } from '../../core/log.ts'
import { SMTPServer } from 'smtp-server'
import { samplePdf } from '../documents/seed.ts'
import { clock, configProblems, newPerson, newWorkspace, testDeps, unique } from '../../tests/helpers.ts'
import { signedIn } from '../../tests/portal.ts'
import { startSmtp, type TestSmtp } from '../../tests/smtp.ts'
import { samplePng } from '../../tests/staffing-fixtures.ts'
import { deliverDue, enqueueMail, outboxSettings, retryDelay, startOutboxWorker } from './index.ts'
import { listOutbox } from './service.ts'
import { outbox } from './table.ts'

setDefaultTimeout(30_000)

let smtp: TestSmtp
beforeAll(async () => {
	await testDeps()
	smtp = await startSmtp({ refuse: (a) => a.startsWith('bounce') })
})
afterAll(async () => {
	await smtp.stop()
})
afterEach(() => clock.reset())

const smtpDeps = () => testDeps({ SMTP_URL: smtp.url })
const rowsOf = async (ids: string[]) => (await testDeps()).db.select().from(outbox).where(inArray(outbox.id, ids))

/** Mail queued by a server that has SMTP_URL (so not held in the dev mailbox). */
async function queueMails(wsId: string, n: number, prefix = 'm') {
	const deps = await smtpDeps()
	const sent: { id: string; to: string }[] = []
	for (let i = 0; i < n; i++) {
		const to = `${unique(prefix)}@example.test`
		const { id } = await enqueueMail(deps.db, { workspaceId: wsId, to, subject: `Hello ${i}`, text: `Message number ${i}` }, deps)
		sent.push({ id, to })
	}
	return sent
}

describe('e-mail delivery over SMTP', () => {
	test('a mail with a PDF and a PNG attachment arrives intact; the row is marked sent', async () => {
		const deps = await smtpDeps()
		const ws = await newWorkspace()
		const pdf = samplePdf('Attachment one')
		const png = samplePng()
		const store = fileStore(deps.config)
		await store.put(`test/${ws.id}/one.pdf`, pdf, 'application/pdf')
		await store.put(`test/${ws.id}/two.png`, png, 'image/png')
		const to = `${unique('att')}@example.test`
		const { id, messageId } = await enqueueMail(
			deps.db,
			{
				workspaceId: ws.id,
				to,
				subject: 'Your documents',
				text: 'See attached.',
				attachments: [
					{ filename: 'one.pdf', contentType: 'application/pdf', path: `test/${ws.id}/one.pdf` },
					{ filename: 'two.png', contentType: 'image/png', path: `test/${ws.id}/two.png` },
				],
			},
			deps,
		)

		const round = await deliverDue(deps, { workspaceId: ws.id })
		expect(round).toEqual({ sent: 1, retried: 0, failed: 0 })
		const [mail] = smtp.to(to)
		expect(mail!.parsed.subject).toBe('Your documents')
		expect(mail!.parsed.text?.trim()).toBe('See attached.')
		expect(mail!.parsed.messageId).toBe(messageId)
		expect(mail!.from).toBe(deps.config.mailFrom.match(/<(.+)>/)?.[1] ?? deps.config.mailFrom)
		const attachments = mail!.parsed.attachments
		expect(attachments.map((a) => [a.filename, a.mimeType])).toEqual([
			['one.pdf', 'application/pdf'],
			['two.png', 'image/png'],
		])
		expect([...new Uint8Array(attachments[0]!.content as unknown as ArrayBuffer)]).toEqual([...pdf])
		expect([...new Uint8Array(attachments[1]!.content as unknown as ArrayBuffer)]).toEqual([...png])
		const [row] = await rowsOf([id])
		expect(row!.status).toBe('sent')
		expect(row!.attempts).toBe(1)
		expect(row!.sentAt).not.toBeNull()
	})

	test('stopping the SMTP server mid-run loses no mail: it is retried with backoff and delivered once it is back', async () => {
		const deps = await smtpDeps()
		const ws = await newWorkspace()
		const stop = startOutboxWorker(deps, { workspaceId: ws.id, pollMs: 20, batchSize: 2, baseDelayMs: 100, maxDelayMs: 400, maxAttempts: 50 })
		try {
			const first = await queueMails(ws.id, 3, 'before')
			await smtp.waitFor(() => first.every((m) => smtp.to(m.to).length === 1))

			await smtp.stop()
			const during = await queueMails(ws.id, 5, 'during')
			// The worker keeps trying and failing while the server is down.
			const deadline = Date.now() + 10_000
			while (!(await rowsOf(during.map((m) => m.id))).every((r) => r.attempts >= 2 && r.status === 'pending' && r.lastError)) {
				if (Date.now() > deadline) throw new Error('the worker did not retry while SMTP was down')
				await Bun.sleep(20)
			}
			await smtp.start()
			const after = await queueMails(ws.id, 2, 'after')
			const all = [...first, ...during, ...after]
			await smtp.waitFor(() => all.every((m) => smtp.to(m.to).length >= 1))
			await Bun.sleep(200)
			for (const m of all) expect(smtp.to(m.to)).toHaveLength(1)
			const rows = await rowsOf(all.map((m) => m.id))
			expect(rows.every((r) => r.status === 'sent' && r.lastError === null)).toBe(true)
		} finally {
			await smtp.start()
			await stop()
		}
	})

	test('a recipient refused with 550 fails at once, with the reason, and can be retried from the outbox page', async () => {
		const deps = await smtpDeps()
		const ws = await newWorkspace()
		const { id } = await enqueueMail(deps.db, { workspaceId: ws.id, to: `bounce-${unique()}@example.test`, subject: 'Will bounce', text: 'x' }, deps)
		expect(await deliverDue(deps, { workspaceId: ws.id })).toEqual({ sent: 0, retried: 0, failed: 1 })
		const [row] = await rowsOf([id])
		expect(row!.status).toBe('failed')
		expect(row!.lastError).toContain('550')

		const admin = await newPerson(ws, 'admin')
		const client = await signedIn(admin)
		const list = await client.get('/outbox?status=failed')
		expect(list.status).toBe(200)
		expect(list.text).toContain('Will bounce')
		expect(list.text).toContain('550')
		const entry = await client.get(`/outbox/${id}`)
		expect(entry.text).toContain('Try again')
		const retried = await client.submit(`/outbox/${id}/retry`)
		expect(retried.redirectedTo).toBe(`/outbox/${id}?done=retried`)
		expect(retried.text).toContain('Queued again')
		const [again] = await rowsOf([id])
		expect(again!.status).toBe('pending')
		expect(again!.attempts).toBe(0)
	})

	test('a refusal in the server’s own words (naming the address) is kept in the row; the log says the SMTP status and enhanced code only', async () => {
		const server = new SMTPServer({
			authOptional: true,
			disabledCommands: ['STARTTLS', 'AUTH'],
			logger: false,
			onRcptTo(address, _session, callback) {
				// What Postfix answers for an unknown mailbox.
				callback(
					Object.assign(new Error(`5.1.1 <${address.address}>: Recipient address rejected: User unknown in virtual mailbox table`), { responseCode: 550 }),
				)
			},
		})
		await new Promise<void>((listening) => server.listen(0, '127.0.0.1', () => listening()))
		try {
			const lines: string[] = []
			const port = (server.server.address() as { port: number }).port
			const deps = { ...(await testDeps({ SMTP_URL: `smtp://127.0.0.1:${port}` })), log: createLogger('info', (l) => void lines.push(l)) }
			const ws = await newWorkspace()
			const to = `${unique('jane')}@example.test`
			const { id } = await enqueueMail(deps.db, { workspaceId: ws.id, to, subject: 'Hi', text: 'x' }, deps)
			expect(await deliverDue(deps, { workspaceId: ws.id })).toEqual({ sent: 0, retried: 0, failed: 1 })
			expect((await rowsOf([id]))[0]!.lastError).toContain(to)
			const line = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'outbox delivery failed for good' && l.id === id)
			expect(line).toMatchObject({ channel: 'email', reason: 'SMTP: 550 5.1.1 EENVELOPE' })
			expect(lines.filter((l) => l.includes(to.split('@')[0]!))).toEqual([])
		} finally {
			server.close()
		}
	})

	test('after the last attempt a row is failed with its last error; delays grow exponentially', async () => {
		const deps = await testDeps({ SMTP_URL: 'smtp://127.0.0.1:9' })
		const ws = await newWorkspace()
		const { id } = await enqueueMail(deps.db, { workspaceId: ws.id, to: `${unique()}@example.test`, subject: 'Nobody listens', text: 'x' }, deps)
		const options = { workspaceId: ws.id, baseDelayMs: 60_000, maxDelayMs: 600_000, maxAttempts: 3 }
		expect([1, 2, 3, 4, 5, 6].map((n) => retryDelay(n, options))).toEqual([60_000, 120_000, 240_000, 480_000, 600_000, 600_000])
		expect(await deliverDue(deps, options)).toEqual({ sent: 0, retried: 1, failed: 0 })
		// Not due again before the backoff has passed.
		expect(await deliverDue(deps, options)).toEqual({ sent: 0, retried: 0, failed: 0 })
		clock.advance(60_001)
		expect(await deliverDue(deps, options)).toEqual({ sent: 0, retried: 1, failed: 0 })
		clock.advance(120_001)
		expect(await deliverDue(deps, options)).toEqual({ sent: 0, retried: 0, failed: 1 })
		const [row] = await rowsOf([id])
		expect(row!.status).toBe('failed')
		expect(row!.attempts).toBe(3)
		expect(row!.lastError).toMatch(/SMTP/)
	})

	test('two workers at once never send one message twice', async () => {
		const a = await smtpDeps()
		const b = await smtpDeps()
		const ws = await newWorkspace()
		const mails = await queueMails(ws.id, 24, 'twin')
		const drain = async (deps: typeof a) => {
			for (let i = 0; i < 20; i++) {
				const r = await deliverDue(deps, { workspaceId: ws.id, batchSize: 3 })
				if (r.sent + r.retried + r.failed === 0) break
			}
		}
		await Promise.all([drain(a), drain(b), drain(a)])
		for (const m of mails) expect(smtp.to(m.to)).toHaveLength(1)
		expect((await rowsOf(mails.map((m) => m.id))).every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true)
	})
})

/**
 * Two rows queued in the same millisecond (one transaction: the same `created_at` and `next_attempt_at`),
 * with ids in the reverse of the order they were queued in: an order by id would swap them.
 */
async function queuedTogether(wsId: string, prefix: string) {
	const deps = await testDeps()
	const at = new Date(Date.now() - 1000)
	const suffix = unique('')
	const rows = [
		{ id: `out_z${suffix}`, to: `${unique(`${prefix}-first`)}@example.test` },
		{ id: `out_a${suffix}`, to: `${unique(`${prefix}-second`)}@example.test` },
	]
	await deps.db.transaction(async (tx) => {
		for (const r of rows)
			await tx
				.insert(outbox)
				.values({ id: r.id, workspaceId: wsId, channel: 'email', to: r.to, subject: 'Same millisecond', text: r.to, createdAt: at, nextAttemptAt: at })
	})
	return rows
}

describe('headers', () => {
	test('a subject built from text with line breaks (a job title stored before the one-line rule) goes as one line; an address with one is refused', async () => {
		const deps = await smtpDeps()
		const ws = await newWorkspace()
		const to = `${unique('hdr')}@example.test`
		await enqueueMail(deps.db, { workspaceId: ws.id, to, subject: 'Submitted: Java Developer\r\nBcc: someone@example.test', text: 'x' }, deps)
		expect(await deliverDue(deps, { workspaceId: ws.id })).toEqual({ sent: 1, retried: 0, failed: 0 })
		const [mail] = smtp.to(to)
		expect(mail!.parsed.subject).toBe('Submitted: Java Developer Bcc: someone@example.test')
		expect(mail!.parsed.bcc).toBeUndefined()
		expect(smtp.to('someone@example.test')).toHaveLength(0)
		await expect(enqueueMail(deps.db, { workspaceId: ws.id, to: `${to}\r\nBcc: x@example.test`, subject: 'Hi', text: 'x' }, deps)).rejects.toThrow(
			'line breaks',
		)
	})

	test('a subject holds no control or direction character: a NUL is no lost mail, an ESC no colours, U+202E no reversed name', async () => {
		const deps = await smtpDeps()
		const ws = await newWorkspace()
		const to = `${unique('hdr')}@example.test`
		const subject = 'Interview: Ann\u202e for Dev\u0000ops\u001b[31m\u007f\u009b lead\u2066'
		await enqueueMail(deps.db, { workspaceId: ws.id, to, subject, text: 'x' }, deps)
		expect(await deliverDue(deps, { workspaceId: ws.id })).toEqual({ sent: 1, retried: 0, failed: 0 })
		// Read back by the mail parser a reader's app would use.
		expect(smtp.to(to)[0]!.parsed.subject).toBe('Interview: Ann for Devops[31m lead')
	})
})

describe('rows queued in the same millisecond', () => {
	test('are claimed and delivered in the order they were queued', async () => {
		const deps = await smtpDeps()
		const ws = await newWorkspace()
		const [first, second] = await queuedTogether(ws.id, 'claim')
		expect(await deliverDue(deps, { workspaceId: ws.id, batchSize: 1 })).toEqual({ sent: 1, retried: 0, failed: 0 })
		const status = async () => Object.fromEntries((await rowsOf([first!.id, second!.id])).map((r) => [r.id === first!.id ? 'first' : 'second', r.status]))
		expect(await status()).toEqual({ first: 'sent', second: 'pending' })
		expect(smtp.to(first!.to)).toHaveLength(1)
		expect(await deliverDue(deps, { workspaceId: ws.id, batchSize: 1 })).toEqual({ sent: 1, retried: 0, failed: 0 })
		expect(await status()).toEqual({ first: 'sent', second: 'sent' })
	})

	test('are listed newest first on the outbox page, the later-queued first, across pages', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const [first, second] = await queuedTogether(ws.id, 'page')
		const one = await listOutbox(deps, ws.id, { limit: 1 })
		expect(one.rows.map((r) => r.id)).toEqual([second!.id])
		const two = await listOutbox(deps, ws.id, { limit: 1, cursor: one.nextCursor! })
		expect(two.rows.map((r) => r.id)).toEqual([first!.id])
		expect(two.nextCursor).toBeNull()
	})
})

describe('without SMTP_URL', () => {
	test('mail stays in the outbox and the dev mailbox shows it to owners and admins only', async () => {
		const deps = await testDeps()
		expect(deps.config.smtpUrl).toBeUndefined()
		const ws = await newWorkspace()
		const { id } = await enqueueMail(
			deps.db,
			{ workspaceId: ws.id, to: 'dana@example.test', subject: 'Kept in the dev mailbox', text: 'Line one\n<b>not bold</b>' },
			deps,
		)
		expect(await deliverDue(deps, { workspaceId: ws.id })).toEqual({ sent: 0, retried: 0, failed: 0 })
		const [row] = await rowsOf([id])
		expect(row!.status).toBe('pending')
		expect(row!.attempts).toBe(0)

		const owner = await signedIn(await newPerson(ws, 'owner'))
		const list = await owner.get('/outbox')
		expect(list.text).toContain('Dev mailbox')
		expect(list.text).toContain('Kept in the dev mailbox')
		expect(list.text).toContain('href="/outbox"')
		const entry = await owner.get(`/outbox/${id}`)
		expect(entry.text).toContain('&lt;b&gt;not bold&lt;/b&gt;')

		for (const role of ['recruiter', 'hiring_manager', 'viewer']) {
			const other = await signedIn(await newPerson(ws, role))
			expect((await other.get('/outbox')).status).toBe(403)
			expect((await other.get(`/outbox/${id}`)).status).toBe(403)
		}
		// Another workspace's owner does not see it.
		const stranger = await signedIn(await newPerson(await newWorkspace(), 'owner'))
		expect((await stranger.get(`/outbox/${id}`)).status).toBe(404)
	})
})

describe('the outbox page', () => {
	test('pages 50 at a time, newest first, through the Older link; a link of another filter or an altered one is refused', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const owner = await signedIn(await newPerson(ws, 'owner'))
		for (let i = 0; i < 55; i++) await enqueueMail(deps.db, { workspaceId: ws.id, to: `p${i}@example.test`, subject: `Paged ${i}`, text: 'x' }, deps)
		const all = await deps.db.select({ id: outbox.id, createdAt: outbox.createdAt, seq: outbox.seq }).from(outbox).where(eq(outbox.workspaceId, ws.id))
		const newest = all.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.seq - a.seq).map((r) => r.id)
		const ids = (text: string) => [...text.matchAll(/href="\/outbox\/([^"]+)"/g)].map((m) => m[1])
		const first = await owner.get('/outbox')
		const older = /<a href="\/outbox\?before=([^"]+)">Older<\/a>/.exec(first.text)?.[1]
		expect(older).toBeDefined()
		const second = await owner.get(`/outbox?before=${older}`)
		expect(second.text).not.toContain('>Older<')
		expect([...ids(first.text), ...ids(second.text)]).toEqual(newest)
		expect(ids(first.text)).toHaveLength(50)
		for (const path of [`/outbox?status=held&before=${older}`, `/outbox?before=${older!.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'))}`]) {
			const refused = await owner.get(path)
			expect({ path, status: refused.status >= 400 && refused.status < 500 }).toEqual({ path, status: true })
		}
	})
})

describe('configuration', () => {
	test('the messaging provider needs all three variables, and a valid sender', () => {
		expect(loadConfig({ MESSAGING_ACCOUNT: 'AC1', MESSAGING_TOKEN: 't', MESSAGING_FROM: '+15550100' }).settings.of(outboxSettings).messaging).toEqual({
			url: 'https://api.twilio.com',
			account: 'AC1',
			token: 't',
			from: '+15550100',
		})
		expect(loadConfig({}).settings.of(outboxSettings).messaging).toBeUndefined()
		const problems = (env: Record<string, string>) => configProblems(env).join('\n')
		expect(problems({ MESSAGING_ACCOUNT: 'AC1' })).toContain('MESSAGING_TOKEN, MESSAGING_FROM must be set too')
		expect(problems({ MESSAGING_ACCOUNT: 'AC1', MESSAGING_TOKEN: 't', MESSAGING_FROM: '555-0100' })).toContain('MESSAGING_FROM must be a phone number')
		expect(problems({ MESSAGING_URL: 'ftp://x' })).toContain('MESSAGING_URL')
	})

	test('rows of other workspaces are left alone when the worker is limited to one', async () => {
		const deps = await smtpDeps()
		const [mine, theirs] = [await newWorkspace(), await newWorkspace()]
		const [a] = await queueMails(mine.id, 1)
		const [b] = await queueMails(theirs.id, 1)
		await deliverDue(deps, { workspaceId: mine.id })
		const rows = await (await testDeps()).db.select().from(outbox).where(eq(outbox.id, b!.id))
		expect(rows[0]!.status).toBe('pending')
		expect(smtp.to(a!.to)).toHaveLength(1)
	})
})
