/** A raw TCP client for slow-client tests: it sends what it is told, as slowly as it is told. */
import { connect, type Socket } from 'node:net'

export interface SlowClient {
	/** The opening bytes. */
	start?: string
	/** Then sent one byte at a time, every `everyMs`, over and over until the server closes. */
	drip?: string
	everyMs?: number
}

/** Resolves with how long the server took to close the connection (Infinity when it did not within `limitMs`) and what it answered. */
export function slowClient(port: number, client: SlowClient, limitMs: number): Promise<{ closedAfter: number; received: string }> {
	return new Promise((done) => {
		const s: Socket = connect(port, '127.0.0.1')
		let received = ''
		let timer: ReturnType<typeof setInterval> | undefined
		const started = Date.now()
		const give = setTimeout(() => finish(Infinity), limitMs)
		const finish = (closedAfter: number) => {
			clearTimeout(give)
			if (timer) clearInterval(timer)
			s.destroy()
			done({ closedAfter, received })
		}
		s.on('data', (c) => (received += c.toString()))
		s.on('close', () => finish(Date.now() - started))
		s.on('error', () => {})
		s.on('connect', () => {
			if (client.start) s.write(client.start)
			const drip = client.drip
			if (!drip) return
			let i = 0
			timer = setInterval(() => {
				if (!s.destroyed) s.write(drip[i++ % drip.length]!)
			}, client.everyMs ?? 500)
		})
	})
}
