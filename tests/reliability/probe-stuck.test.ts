/**
 * The availability probe's connection goes silent (a socket left half-open by a fault: the network
 * drops everything, nothing closes it, nothing on it times out) while new connections work again.
 * The probe must give that connection up and ask on a new one; before, the process answered 503 for
 * good although the database was back. PostgreSQL pass only (the embedded database has no probe).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createConnection, createServer, type Server, type Socket } from 'node:net'
import { loadConfig } from '../../core/config.ts'
import { openDatabase, type Database } from '../../db/client.ts'
import { usingPostgres } from '../helpers.ts'

/** A TCP proxy to PostgreSQL that can turn the connections open now into black holes. */
function blackHoleProxy(target: URL): Promise<{ server: Server; port: number; silenceOpen(): void }> {
	const open = new Set<{ client: Socket; upstream: Socket; silent: boolean }>()
	const server = createServer((client) => {
		const upstream = createConnection(Number(target.port || 5432), target.hostname)
		const pair = { client, upstream, silent: false }
		open.add(pair)
		client.on('data', (d) => pair.silent || upstream.write(d))
		upstream.on('data', (d) => pair.silent || client.write(d))
		const end = () => {
			open.delete(pair)
			client.destroy()
			upstream.destroy()
		}
		client.on('close', end).on('error', end)
		upstream.on('close', () => pair.silent || end()).on('error', () => pair.silent || end())
	})
	return new Promise((resolve) =>
		server.listen(0, '127.0.0.1', () =>
			resolve({
				server,
				port: (server.address() as { port: number }).port,
				silenceOpen: () => {
					for (const pair of open) pair.silent = true
				},
			}),
		),
	)
}

describe.skipIf(!usingPostgres())('a probe connection that goes silent (PostgreSQL pass only)', () => {
	let proxy: Awaited<ReturnType<typeof blackHoleProxy>>
	let database: Database

	beforeAll(async () => {
		const target = new URL(process.env.DATABASE_URL!)
		proxy = await blackHoleProxy(target)
		const through = new URL(target)
		through.hostname = '127.0.0.1'
		through.port = String(proxy.port)
		database = await openDatabase({ ...loadConfig(), databaseUrl: through.toString(), databasePoolSize: 1 })
	})

	afterAll(async () => {
		await database?.close().catch(() => {})
		proxy?.server.close()
	})

	test('is given up for a new connection: the database is seen answering again within seconds', async () => {
		expect(await database.ping(1000)).toBe(true)
		proxy.silenceOpen()
		expect(await database.ping(1000)).toBe(false)
		const started = performance.now()
		let back = false
		while (!back && performance.now() - started < 20_000) {
			back = await database.ping(1000)
			if (!back) await Bun.sleep(500)
		}
		expect(back).toBe(true)
	}, 40_000)
})
