/**
 * bench/memory — does the publish path keep memory? Issue 33 saw one instance's resident memory grow
 * 210 → 231 → 257 MB over three 10-second publish rounds. Resident memory alone cannot tell a leak from
 * garbage the allocator has not handed back; this asks the JavaScript heap after a full collection.
 *
 *   bun bench/memory.ts          (npm run bench:memory; about a minute with the defaults)
 *
 * One run: a throwaway database on SHARED_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres),
 * the app in this process (`createApp`, as `core/main.ts` builds it, `NODE_ENV=production`), a workspace,
 * a vendor and its key. Then ROUNDS (8) rounds of PUBLISHES (5,000) `POST /api/v1/jobs` through the app's
 * own handler, CONCURRENCY (32) at a time, each a new revision of one of JOBS (500) jobs (the upsert's
 * update path, with its activity line and event). After each round: `Bun.gc(true)`, then the heap's size
 * and object count (`bun:jsc` heapStats) and the resident set. A heap that returns to the same size after
 * every round keeps nothing; one that grows by about the same amount each round keeps something per
 * request, and the object types that grew are printed.
 */
import { heapStats } from 'bun:jsc'
import postgres from 'postgres'
import { loadConfig } from '../core/config.ts'
import { createLogger } from '../core/log.ts'
import { createApp, createDeps } from '../core/main.ts'
import { openDatabase } from '../db/client.ts'
import { createWorkspace, operatorActor } from '../modules/auth/index.ts'
import { createVendor } from '../modules/vendors/index.ts'

const env = process.env
const ROUNDS = Number(env.ROUNDS ?? 8)
const PUBLISHES = Number(env.PUBLISHES ?? 5_000)
const CONCURRENCY = Number(env.CONCURRENCY ?? 32)
const JOBS = Number(env.JOBS ?? 500)
const SHARED = env.SHARED_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const dbName = `bl_memory_${process.pid}`
const url = SHARED.replace(/\/[^/]*$/, `/${dbName}`)
const admin = postgres(SHARED, { max: 1, onnotice: () => {} })
const MB = 1024 * 1024

const DESCRIPTION =
	'<h2>About the role</h2><p>We are hiring a <b>Senior Backend Engineer</b> to build and run the job ingestion pipelines that feed our careers site. ' +
	'You will own services written in <i>TypeScript</i>, backed by PostgreSQL.</p><ul><li>Design REST endpoints</li><li>Tune queries and indexes</li></ul>'

await admin.unsafe(`create database ${dbName}`)
try {
	const config = loadConfig({
		...env,
		NODE_ENV: 'production',
		DATABASE_URL: url,
		BASE_URL: 'http://localhost:3000',
		RATE_LIMIT_PER_MINUTE: '1000000',
		REDIS_URL: '',
		LOG_LEVEL: 'warn',
		DEMO: 'off',
	})
	const database = await openDatabase(config)
	const deps = await createDeps({ config, database, log: createLogger('warn') })
	const ws = await createWorkspace(deps, { slug: `memory-${process.pid}`, name: 'Memory Bench Staffing' })
	const { apiKey } = await createVendor(deps, operatorActor(ws), { name: 'Bench Vendor' })
	const app = createApp(deps)

	let revision = 0
	const publish = async () => {
		const n = revision++
		const response = await app.handle(
			new Request('http://localhost/api/v1/jobs', {
				method: 'POST',
				headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
				body: JSON.stringify({
					vendorJobId: `job-${n % JOBS}`,
					title: `Senior Backend Engineer ${n % JOBS}`,
					location: 'Austin, TX',
					summary: `Build and run job ingestion pipelines; revision ${n}`,
					description: DESCRIPTION,
					mustHave: ['PostgreSQL', 'TypeScript'],
				}),
			}),
		)
		await response.text()
		if (response.status >= 300) throw new Error(`publish answered ${response.status}`)
	}
	const round = async () => {
		let left = PUBLISHES
		await Promise.all(
			Array.from({ length: CONCURRENCY }, async () => {
				while (left-- > 0) await publish()
			}),
		)
	}
	const measure = () => {
		Bun.gc(true)
		const heap = heapStats()
		return {
			heapMB: heap.heapSize / MB,
			objects: heap.objectCount,
			rssMB: process.memoryUsage.rss() / MB,
			types: heap.objectTypeCounts as Record<string, number>,
		}
	}

	// The first round fills the caches (prepared statements, compiled schemas, the jobs themselves).
	await round()
	const first = measure()
	console.log(`${ROUNDS} rounds of ${PUBLISHES} publishes, ${CONCURRENCY} at a time, over ${JOBS} jobs; after each, a full collection`)
	console.log('| after round | heap MB | objects | resident MB |\n|---:|---:|---:|---:|')
	console.log(`| 1 (warm-up) | ${first.heapMB.toFixed(1)} | ${first.objects} | ${first.rssMB.toFixed(0)} |`)
	let last = first
	for (let r = 2; r <= ROUNDS + 1; r++) {
		const started = performance.now()
		await round()
		const seconds = (performance.now() - started) / 1000
		last = measure()
		console.log(`| ${r} | ${last.heapMB.toFixed(1)} | ${last.objects} | ${last.rssMB.toFixed(0)} |  (${Math.round(PUBLISHES / seconds)} publishes/s)`)
	}
	const grown = Object.entries(last.types)
		.map(([type, count]) => [type, count - (first.types[type] ?? 0)] as const)
		.filter(([, d]) => d > 0)
		.sort((a, b) => b[1] - a[1])
		.slice(0, 8)
	const perRequest = (last.objects - first.objects) / (ROUNDS * PUBLISHES)
	console.log(
		`\nheap after the last round minus after the warm-up: ${(last.heapMB - first.heapMB).toFixed(1)} MB, ${last.objects - first.objects} objects (${perRequest.toFixed(3)} per publish)`,
	)
	console.log(`object types that grew most: ${grown.map(([t, d]) => `${t} +${d}`).join(', ') || 'none'}`)
	await database.close()
} finally {
	await admin.unsafe(`drop database if exists ${dbName} with (force)`)
	await admin.end()
}
process.exit(0)
