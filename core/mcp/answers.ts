/**
 * Answers to the questions a tool call asks a 2025-era client. The question (`elicitation/create`)
 * goes out on the tool call's own SSE stream, and the client posts its answer as a request of its
 * own, which a load balancer may hand to any instance. The answer is handed to the call waiting for
 * it on this instance at once; otherwise, with `REDIS_URL`, it is published to every instance and
 * the one holding the call takes it. An answer is taken only from the credential the question was
 * asked of, and only once; one that nobody waits for any more (too late, or for another credential)
 * is dropped.
 */
import type { Logger } from '../log.ts'

/** What a client posted back for one question: the JSON-RPC `result`, or its `error`. */
export interface PostedAnswer {
	readonly result?: unknown
	readonly error?: { readonly code?: unknown; readonly message?: unknown }
}

export interface AnswerRelay {
	/**
	 * Starts waiting for the answer to question `id` asked of `owner` (call before sending it): the
	 * answer, or undefined when none came within `ms` or `signal` was aborted first.
	 */
	wait(id: string, owner: string, ms: number, signal?: AbortSignal): { answer: Promise<PostedAnswer | undefined>; cancel(): void }
	/** Hands over an answer `owner` posted, to the call waiting for it here or on another instance. */
	deliver(id: string, owner: string, answer: PostedAnswer): Promise<void>
	/** 'memory' | 'redis' */
	mode(): string
	close(): Promise<void>
}

/** The calls waiting on this instance. */
function waitingHere() {
	const waiting = new Map<string, { owner: string; settle(answer: PostedAnswer | undefined): void }>()
	return {
		wait(id: string, owner: string, ms: number, signal?: AbortSignal) {
			let settle: (answer: PostedAnswer | undefined) => void = () => {}
			const answer = new Promise<PostedAnswer | undefined>((resolve) => {
				const done = (value: PostedAnswer | undefined) => {
					clearTimeout(timer)
					signal?.removeEventListener('abort', aborted)
					if (waiting.get(id)?.settle === done) waiting.delete(id)
					resolve(value)
				}
				const aborted = () => done(undefined)
				const timer = setTimeout(aborted, ms)
				settle = done
				waiting.set(id, { owner, settle: done })
				if (signal?.aborted) aborted()
				else signal?.addEventListener('abort', aborted, { once: true })
			})
			return { answer, cancel: () => settle(undefined) }
		},
		/** Whether a call here waited for it (and now has it). */
		take(id: string, owner: string, answer: PostedAnswer): boolean {
			const waiter = waiting.get(id)
			if (!waiter || waiter.owner !== owner) return false
			waiter.settle(answer)
			return true
		},
	}
}

/** One instance: the answer reaches the call only when it is posted to the instance that asked. */
export function memoryRelay(): AnswerRelay {
	const here = waitingHere()
	return {
		wait: here.wait,
		deliver: async (id, owner, answer) => void here.take(id, owner, answer),
		mode: () => 'memory',
		close: async () => {},
	}
}

const CHANNEL = 'bl:mcp:answers'

/** Several instances sharing one Redis: an answer posted to another instance is published to all. */
export async function redisRelay(url: string, log: Logger): Promise<AnswerRelay> {
	const { default: Redis } = await import('ioredis')
	const options = { connectTimeout: 1000, lazyConnect: true, retryStrategy: (times: number) => Math.min(times * 200, 2000) }
	// A subscribed connection can do nothing else: one to listen, one to publish.
	const listener = new Redis(url, options)
	const publisher = new Redis(url, { ...options, maxRetriesPerRequest: 1, commandTimeout: 1000 })
	listener.on('error', () => {})
	publisher.on('error', () => {})
	const here = waitingHere()
	listener.on('message', (_channel: string, text: string) => {
		try {
			const { id, owner, answer } = JSON.parse(text) as { id: string; owner: string; answer: PostedAnswer }
			here.take(id, owner, answer)
		} catch (error) {
			log.warn('an answer relayed through Redis could not be read', { error })
		}
	})
	// ioredis subscribes again by itself after a reconnection.
	await listener.connect().catch(() => {})
	await listener.subscribe(CHANNEL).catch((error) => log.warn('answers to MCP questions are not relayed between instances: Redis is unavailable', { error }))
	await publisher.connect().catch(() => {})
	return {
		wait: here.wait,
		async deliver(id, owner, answer) {
			if (here.take(id, owner, answer)) return
			try {
				await publisher.publish(CHANNEL, JSON.stringify({ id, owner, answer }))
			} catch (error) {
				log.warn('an answer to an MCP question could not be relayed: Redis is unavailable', { error })
			}
		},
		mode: () => 'redis',
		close: async () => {
			listener.disconnect()
			publisher.disconnect()
		},
	}
}
