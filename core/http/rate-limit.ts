/**
 * Rate limiting in fixed one-minute windows: per credential, and per client address where a door
 * needs it (REST before the key lookup, failed credentials on every bearer door, OAuth
 * registration and revocation; sign-in failures are counted in the database).
 *
 * With `REDIS_URL` the counters live in Redis, so every instance shares one limit. When Redis is
 * unreachable the limiter falls back to per-instance counters (and says so in the log) rather
 * than refusing traffic; it returns to Redis as soon as Redis answers again.
 */
import type { Logger } from '../log.ts'

export interface RateDecision {
	readonly allowed: boolean
	readonly limit: number
	readonly remaining: number
	/** Seconds until the window resets. */
	readonly resetSeconds: number
}

export interface RateLimiter {
	/** Counts one request for `key`; `limit` overrides the per-minute default (e.g. stricter for registrations). */
	hit(key: string, limit?: number): Promise<RateDecision>
	/** The decision for `key` as it stands, without counting a request (e.g. only failures are counted). */
	peek(key: string, limit?: number): Promise<RateDecision>
	/** 'redis' | 'memory' | 'memory (redis unavailable)' */
	mode(): string
	close(): Promise<void>
}

const WINDOW_MS = 60_000

export function memoryLimiter(
	defaultLimit: number,
	now: () => number = Date.now,
): RateLimiter & { hitSync(key: string, limit?: number): RateDecision; peekSync(key: string, limit?: number): RateDecision } {
	const counters = new Map<string, { window: number; count: number }>()
	let lastSweep = 0
	const peekSync = (key: string, limit = defaultLimit): RateDecision => {
		const t = now()
		const window = Math.floor(t / WINDOW_MS)
		const c = counters.get(key)
		return decide(limit, c?.window === window ? c.count : 0, window, t)
	}
	const hitSync = (key: string, limit = defaultLimit): RateDecision => {
		const t = now()
		const window = Math.floor(t / WINDOW_MS)
		if (t - lastSweep > WINDOW_MS) {
			for (const [k, v] of counters) if (v.window < window) counters.delete(k)
			lastSweep = t
		}
		let c = counters.get(key)
		if (!c || c.window !== window) counters.set(key, (c = { window, count: 0 }))
		c.count++
		return decide(limit, c.count, window, t)
	}
	return {
		hitSync,
		peekSync,
		hit: async (key, limit) => hitSync(key, limit),
		peek: async (key, limit) => peekSync(key, limit),
		mode: () => 'memory',
		close: async () => {},
	}
}

function decide(limit: number, count: number, window: number, t: number): RateDecision {
	const resetSeconds = Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - t) / 1000))
	return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetSeconds }
}

export async function redisLimiter(url: string, defaultLimit: number, log: Logger): Promise<RateLimiter> {
	const { default: Redis } = await import('ioredis')
	const redis = new Redis(url, {
		enableOfflineQueue: false,
		maxRetriesPerRequest: 0,
		connectTimeout: 1000,
		commandTimeout: 250,
		lazyConnect: true,
		retryStrategy: (times) => Math.min(times * 200, 2000),
	})
	redis.on('error', () => {}) // reported through `degraded` below
	await redis.connect().catch(() => {})
	const fallback = memoryLimiter(defaultLimit)
	let degraded = false
	const setDegraded = (value: boolean, error?: unknown) => {
		if (value === degraded) return
		degraded = value
		if (value) log.warn('rate limiting falls back to per-instance counters: Redis is unavailable', { error })
		else log.info('rate limiting is shared through Redis again')
	}
	return {
		async hit(key, limit = defaultLimit) {
			const t = Date.now()
			const window = Math.floor(t / WINDOW_MS)
			const redisKey = `bl:rl:${key}:${window}`
			try {
				const [[, count]] = (await redis
					.multi()
					.incr(redisKey)
					.pexpire(redisKey, WINDOW_MS * 2)
					.exec()) as [[unknown, number]]
				setDegraded(false)
				return decide(limit, count, window, t)
			} catch (error) {
				setDegraded(true, error)
				return fallback.hitSync(key, limit)
			}
		},
		async peek(key, limit = defaultLimit) {
			const t = Date.now()
			const window = Math.floor(t / WINDOW_MS)
			// A look only: whether the limiter is back on Redis is decided by counting (`hit`), so
			// "shared through Redis again" is said only once a count was really stored there.
			try {
				const count = Number((await redis.get(`bl:rl:${key}:${window}`)) ?? 0)
				return decide(limit, count, window, t)
			} catch {
				return fallback.peekSync(key, limit)
			}
		},
		mode: () => (degraded ? 'memory (redis unavailable)' : 'redis'),
		close: async () => {
			redis.disconnect()
		},
	}
}

/** IETF draft `RateLimit` / `RateLimit-Policy` header values (`policy` names the bucket). */
export function rateLimitHeaders(d: RateDecision, policy = 'default'): Record<string, string> {
	return {
		'RateLimit-Policy': `"${policy}";q=${d.limit};w=60`,
		RateLimit: `"${policy}";r=${d.remaining};t=${d.resetSeconds}`,
	}
}
