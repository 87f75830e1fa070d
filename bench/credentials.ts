/**
 * bench/credentials — issue 8, figure 3: what checking a credential adds to every request. A
 * personal token, an OAuth access token and a vendor key are each looked up on every request
 * (revocation takes effect at once), so their check is on the hot path. Goal: ≤ 1 ms at p99.
 *
 *   bun bench/credentials.ts                 (npm run bench:credentials) on PostgreSQL at SHARED_PG_URL
 *   EMBEDDED=1 bun bench/credentials.ts      on the embedded database (PGlite, in memory)
 *
 * For each kind it calls the module's own verify function (the one the `auth` macro calls)
 * CALLS (5,000) times one after another after WARMUP (500) calls, in ROUNDS (5) rounds (kinds
 * rotated), and prints the medians over rounds of p50/p95/p99 in ms, with each round's p99.
 * The floor row is `select 1` through the same drizzle handle (one round trip): what any lookup
 * costs at the least. A second table repeats each kind at CONCURRENCY (10) callers, as the server
 * sees it under load. Also measured: a mistyped credential (rejected by its checksum, no query).
 * Results: bench/results/credentials-<date>.json.
 */
import { createHash, randomBytes } from 'node:crypto'
import { cpus, loadavg } from 'node:os'
import { sql } from 'drizzle-orm'
import postgres from 'postgres'
import { loadConfig } from '../core/config.ts'
import { createLogger } from '../core/log.ts'
import { createDeps } from '../core/main.ts'
import { openDatabase, type Database } from '../db/client.ts'
import { addPerson, createPersonalToken, createWorkspace, operatorActor, personActor } from '../modules/auth/index.ts'
import { verifyPersonalToken } from '../modules/auth/tokens.ts'
import { issueCode, mcpResource } from '../modules/auth/oauth/authorize.ts'
import { findClient, registerClient } from '../modules/auth/oauth/clients.ts'
import { exchangeCode, verifyAccessToken } from '../modules/auth/oauth/tokens.ts'
import { createVendor, verifyVendorKey } from '../modules/vendors/index.ts'

const env = process.env
const CALLS = Number(env.CALLS ?? 5_000)
const WARMUP = Number(env.WARMUP ?? 500)
const CONCURRENCY = Number(env.CONCURRENCY ?? 10)
const ROUNDS = Number(env.ROUNDS ?? 5)
const EMBEDDED = Boolean(env.EMBEDDED)
const SHARED = env.SHARED_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const dbName = `bl_cred_${process.pid}`
const url = SHARED.replace(/\/[^/]*$/, `/${dbName}`)
const admin = EMBEDDED ? null : postgres(SHARED, { max: 1, onnotice: () => {} })
let database: Database | undefined

const b64url = (b: Buffer) => b.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')

try {
	if (admin) await admin.unsafe(`create database ${dbName}`)
	const dataDir = EMBEDDED ? `/tmp/bl-cred-${process.pid}` : ''
	const config = loadConfig({
		...env,
		DATABASE_URL: EMBEDDED ? '' : url,
		DATA_DIR: dataDir || undefined,
		BASE_URL: 'http://localhost:3000',
		REDIS_URL: '',
		LOG_LEVEL: 'warn',
		DEMO: 'off',
	})
	database = await openDatabase(config)
	const deps = await createDeps({ config, database, log: createLogger('warn') })
	const ws = await createWorkspace(deps, { slug: `cred-${process.pid}`, name: 'Credentials Bench' })
	const email = `owner-${process.pid}@bench.test`
	await addPerson(deps, operatorActor(ws), ws, { email, name: 'Bench Owner', role: 'owner', password: 'correct horse battery' })
	const actor = await personActor(deps, ws.slug, email)
	// Some other rows, so the lookups are not on near-empty tables.
	for (let i = 0; i < 200; i++) await createPersonalToken(deps, actor, { name: `other ${i}` })
	const pat = (await createPersonalToken(deps, actor, { name: 'bench' })).token
	const vendorKey = (await createVendor(deps, operatorActor(ws), { name: 'Bench Vendor' })).apiKey
	const registration = await registerClient(deps, { client_name: 'Bench App', redirect_uris: ['http://127.0.0.1:9/callback'] })
	const client = (await findClient(deps, registration.client_id))!
	const verifier = b64url(randomBytes(32))
	const challenge = b64url(createHash('sha256').update(verifier).digest())
	const code = await issueCode(
		deps,
		actor,
		{
			client,
			redirectUri: 'http://127.0.0.1:9/callback',
			redirectUriSent: true,
			state: null,
			codeChallenge: challenge,
			resource: mcpResource(deps),
			scope: 'mcp',
			readOnlyRequested: false,
		},
		false,
	)
	const form = new URLSearchParams({
		grant_type: 'authorization_code',
		code,
		redirect_uri: 'http://127.0.0.1:9/callback',
		client_id: client.id,
		code_verifier: verifier,
		resource: mcpResource(deps),
	})
	const accessToken = (await exchangeCode(deps, form)).access_token
	const mistyped = pat.slice(0, -1) + (pat.endsWith('x') ? 'y' : 'x')

	const kinds: [string, () => Promise<unknown>][] = [
		['floor: `select 1` (one round trip)', () => deps.database.rows(sql`select 1`)],
		['personal token (bl_pat_)', async () => (await verifyPersonalToken(deps, pat)) ?? Promise.reject(new Error('pat rejected'))],
		['OAuth access token (bl_at_)', async () => (await verifyAccessToken(deps, accessToken)) ?? Promise.reject(new Error('access token rejected'))],
		['vendor key (bl_vk_)', async () => (await verifyVendorKey(deps, vendorKey)) ?? Promise.reject(new Error('vendor key rejected'))],
		[
			'mistyped token (checksum, no query)',
			async () => ((await verifyPersonalToken(deps, mistyped)) === null ? null : Promise.reject(new Error('mistyped accepted'))),
		],
	]
	const q = (s: number[], p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!
	const results: Record<string, unknown>[] = []
	console.log(
		`${EMBEDDED ? 'PGlite (embedded)' : 'PostgreSQL'}; load average ${loadavg()
			.map((l) => l.toFixed(2))
			.join(' ')}, ${cpus().length} CPUs`,
	)
	const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!
	for (const concurrency of [1, CONCURRENCY]) {
		const perKind = new Map<string, { p50: number; p95: number; p99: number; max: number; rate: number }[]>()
		for (let round = 0; round < ROUNDS; round++)
			for (const [name, run] of kinds.map((_, i) => kinds[(i + round) % kinds.length]!)) {
				const times: number[] = []
				const worker = async (n: number, record: boolean) => {
					for (let i = 0; i < n; i++) {
						const s = performance.now()
						await run()
						if (record) times.push(performance.now() - s)
					}
				}
				await Promise.all(Array.from({ length: concurrency }, () => worker(Math.ceil(WARMUP / concurrency), false)))
				const start = performance.now()
				await Promise.all(Array.from({ length: concurrency }, () => worker(Math.ceil(CALLS / concurrency), true)))
				const rate = times.length / ((performance.now() - start) / 1000)
				times.sort((a, b) => a - b)
				const r = { p50: q(times, 0.5), p95: q(times, 0.95), p99: q(times, 0.99), max: times[times.length - 1]!, rate }
				perKind.set(name, [...(perKind.get(name) ?? []), r])
				results.push({ name, concurrency, round, ...r })
			}
		console.log(
			`\n${concurrency === 1 ? 'One caller' : `${concurrency} concurrent callers`}: ${CALLS} calls after ${WARMUP}, ${ROUNDS} rounds, medians\n\n| check | p50 ms | p95 ms | p99 ms | p99 per round | checks/s |\n|---|---:|---:|---:|---|---:|`,
		)
		for (const [name] of kinds) {
			const rs = perKind.get(name)!
			console.log(
				`| ${name} | ${median(rs.map((r) => r.p50)).toFixed(3)} | ${median(rs.map((r) => r.p95)).toFixed(3)} | ${median(rs.map((r) => r.p99)).toFixed(3)} | ${rs.map((r) => r.p99.toFixed(2)).join(' / ')} | ${median(rs.map((r) => r.rate)).toFixed(0)} |`,
			)
		}
	}
	await Bun.write(
		`${import.meta.dir}/results/credentials-${EMBEDDED ? 'pglite-' : ''}${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
		JSON.stringify({ embedded: EMBEDDED, loadavg: loadavg(), calls: CALLS, results }, null, 2),
	)
	if (dataDir) await import('node:fs').then((fs) => fs.rmSync(dataDir, { recursive: true, force: true }))
} finally {
	await database?.close().catch(() => {})
	if (admin) {
		await admin.unsafe(`drop database if exists ${dbName} with (force)`).catch(() => {})
		await admin.end()
	}
}
