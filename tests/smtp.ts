/**
 * A real SMTP server on loopback (the `smtp-server` package) that keeps every message it receives,
 * parsed with postal-mime. It can be stopped and started again on the same port, to test that the
 * outbox loses nothing while the mail server is down, and it can hang in the middle of a message
 * (`stall`), to test the outbox's timeouts.
 */
import PostalMime, { type Email } from 'postal-mime'
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
	from: string
	to: string[]
	raw: Buffer
	parsed: Email
}

export interface TestSmtp {
	readonly port: number
	readonly url: string
	readonly received: ReceivedMail[]
	/** Messages read in full but never answered (`stall`): the sender is left waiting after DATA. */
	readonly stalled: ReceivedMail[]
	/** Mail received for one address. */
	to(address: string): ReceivedMail[]
	/** Waits until `predicate` holds (polling), or fails after `timeoutMs`. */
	waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>
	stop(): Promise<void>
	start(): Promise<void>
}

export interface SmtpOptions {
	/** Recipients refused with 550 (a permanent failure). */
	refuse?: (address: string) => boolean
	/** Recipients whose message is read to its end and then never answered (a server hung mid-DATA). */
	stall?: (address: string) => boolean
}

export async function startSmtp(options: SmtpOptions = {}): Promise<TestSmtp> {
	const received: ReceivedMail[] = []
	const stalled: ReceivedMail[] = []
	let port = 0
	let server: SMTPServer | undefined

	const listen = async () => {
		server = new SMTPServer({
			authOptional: true,
			disabledCommands: ['STARTTLS', 'AUTH'],
			logger: false,
			closeTimeout: 200,
			size: 40 * 1024 * 1024,
			onRcptTo(address, _session, callback) {
				if (options.refuse?.(address.address)) return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }))
				callback()
			},
			onData(stream, session, callback) {
				const chunks: Buffer[] = []
				stream.on('data', (c: Buffer) => chunks.push(c))
				stream.on('end', async () => {
					const raw = Buffer.concat(chunks)
					const to = session.envelope.rcptTo.map((r) => r.address)
					const mail = { from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to, raw, parsed: await PostalMime.parse(raw) }
					// A stalled message is never acknowledged: the sender has no 250 and must give up.
					if (to.some((a) => options.stall?.(a))) return void stalled.push(mail)
					received.push(mail)
					callback()
				})
			},
		})
		await new Promise<void>((resolve, reject) => {
			const s = server!.listen(port, '127.0.0.1', () => resolve())
			s.once('error', reject)
		})
		port = (server.server.address() as { port: number }).port
	}
	await listen()

	const api: TestSmtp = {
		get port() {
			return port
		},
		get url() {
			return `smtp://127.0.0.1:${port}`
		},
		received,
		stalled,
		to: (address) => received.filter((m) => m.to.includes(address)),
		async waitFor(predicate, timeoutMs = 15_000) {
			const deadline = Date.now() + timeoutMs
			while (!predicate()) {
				if (Date.now() > deadline) throw new Error(`timed out waiting for mail (received ${received.length})`)
				await Bun.sleep(20)
			}
		},
		async stop() {
			const s = server
			server = undefined
			if (s) await new Promise<void>((resolve) => s.close(() => resolve()))
		},
		async start() {
			if (!server) await listen()
		},
	}
	return api
}
