/**
 * `closeDeps` closes everything `createDeps` opened (core/main.ts): after it, an instance on Redis
 * makes no connection at all, even once its Redis has gone. Left open, the rate limiter's and the
 * answer relay's ioredis clients reconnect every two seconds for as long as the process lives: in
 * the test run they were the outbound connections another file's "no outbound request" check saw.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import net from 'node:net'
import { loadConfig } from '../core/config.ts'
import { createLogger } from '../core/log.ts'
import { closeDeps, createDeps } from '../core/main.ts'
import { describeProcesses } from './reliability/gate.ts'
import { type PrivateRedis, privateRedis } from './reliability/processes.ts'
import { sharedDatabase } from './helpers.ts'

/** Every node socket opened to `port` while it runs (ioredis connects through node:net). */
async function connectionsTo(port: number, during: () => Promise<void>): Promise<number> {
	let count = 0
	const realConnect = net.Socket.prototype.connect
	net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
		const list = Array.isArray(args[0]) ? (args[0] as unknown[]) : args
		const first = list[0] as { port?: unknown } | number
		if (Number(typeof first === 'object' ? first.port : first) === port) count++
		return (realConnect as (...a: unknown[]) => unknown).apply(this, args)
	} as typeof realConnect
	try {
		await during()
	} finally {
		net.Socket.prototype.connect = realConnect
	}
	return count
}

describeProcesses('closeDeps', () => {
	let redis: PrivateRedis
	beforeAll(async () => {
		redis = await privateRedis()
	}, 30_000)
	afterAll(() => redis?.stop())

	test('an instance on Redis, closed, never connects again: not even when its Redis goes away', async () => {
		const instance = async () =>
			createDeps({
				config: loadConfig({ ...process.env, BASE_URL: 'http://localhost:3000', REDIS_URL: redis.url }),
				database: await sharedDatabase(),
				log: createLogger('silent'),
			})
		const open = await instance()
		const closed = await instance()
		expect([open.limiter.mode(), open.answers.mode(), closed.limiter.mode(), closed.answers.mode()]).toEqual(['redis', 'redis', 'redis', 'redis'])
		await closeDeps(closed)
		await closeDeps(closed) // a second call does nothing
		await redis.kill()
		// The instance left open shows what the check would see: its clients reconnect within ~2 s.
		const reconnects = await connectionsTo(redis.port, () => Bun.sleep(3_000))
		expect(reconnects).toBeGreaterThan(0)
		await closeDeps(open)
		expect(await connectionsTo(redis.port, () => Bun.sleep(3_000))).toBe(0)
		// The database was handed in: it is its owner's, and still answers.
		expect(await (await sharedDatabase()).ping()).toBe(true)
	}, 30_000)
})
