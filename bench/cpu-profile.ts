/**
 * Where the server's JavaScript thread spends its time, from a Bun `--cpu-prof` profile (Chrome
 * .cpuprofile format). Bun samples only while JavaScript runs, so a sample is a unit of CPU on the
 * JS thread; idle time leaves no samples.
 *
 * Each sample is given to one bucket: walking from the innermost frame outwards, the first frame
 * whose source matches a bucket wins (so `Array.prototype.map` called by drizzle counts as drizzle).
 *
 *   bun bench/cpu-profile.ts file.cpuprofile [fromEpochMs toEpochMs]
 */
import { readFileSync } from 'node:fs'

interface CpuProfile {
	nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[]
	startTime: number
	samples: number[]
	timeDeltas: number[]
}

const BUCKETS: [string, (url: string, fn: string) => boolean][] = [
	['sanitize-html (description allowlist)', (u) => /sanitize-html|htmlparser2|domhandler|domutils|\/entities\/|core\/sanitize\.ts/.test(u)],
	['TypeBox validation (core/schema-check)', (u) => /core\/schema-check\.ts|@sinclair\/typebox/.test(u)],
	['drizzle: building the SQL text', (u) => u.includes('drizzle-orm/')],
	['postgres.js: protocol, parsing rows', (u) => u.includes('node_modules/postgres/')],
	['vendor key check (sha256, lookup)', (u, f) => /modules\/vendors\/service\.ts|@oslojs\/crypto|core\/credentials\.ts/.test(u) || f === 'verifyVendorKey'],
	['request body read + JSON.parse', (u) => u.includes('core/http/body.ts')],
	['auth, bearer, rate limit', (u) => /core\/http\/(auth|bearer|rate-limit)\.ts/.test(u)],
	['publish service (ids, slug, row → JSON)', (u) => /modules\/jobs\/|modules\/activity\//.test(u)],
	['Elysia (routing, hooks, response)', (u) => u.includes('node_modules/elysia')],
	['other app code (core/)', (u) => u.includes('/core/')],
	['node:net, streams (socket writes)', (u) => u.startsWith('node:') || u.startsWith('internal:')],
]

export interface ProfileSummary {
	samples: number
	buckets: { bucket: string; samples: number; pct: number }[]
	topLeaves: { fn: string; where: string; samples: number; pct: number }[]
}

/** Sample shares by bucket, counting only samples inside the given wall-clock windows (epoch ms), if any. */
export function summarizeProfile(file: string, windows: [number, number][] = []): ProfileSummary {
	const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile
	const byId = new Map(p.nodes.map((n) => [n.id, n]))
	const parent = new Map<number, number>()
	for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
	const bucketOf = new Map<number, string>()
	const classify = (id: number): string => {
		const known = bucketOf.get(id)
		if (known) return known
		let bucket = 'other (native, runtime, GC)'
		for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
			const f = byId.get(cur)!.callFrame
			const hit = BUCKETS.find(([, test]) => test(f.url, f.functionName))
			if (hit) {
				bucket = hit[0]
				break
			}
		}
		bucketOf.set(id, bucket)
		return bucket
	}
	const counts = new Map<string, number>()
	const leaves = new Map<string, number>()
	let t = p.startTime
	let total = 0
	for (let i = 0; i < p.samples.length; i++) {
		t += p.timeDeltas[i] ?? 0
		const ms = t / 1000
		if (windows.length && !windows.some(([a, b]) => ms >= a && ms <= b)) continue
		const id = p.samples[i]!
		total++
		const b = classify(id)
		counts.set(b, (counts.get(b) ?? 0) + 1)
		const f = byId.get(id)!.callFrame
		const leaf = `${f.functionName || '(anonymous)'}\t${f.url ? `${f.url.replace(/^.*node_modules\//, '').replace(/^.*\/work\/main\//, '')}:${f.lineNumber + 1}` : '[native]'}`
		leaves.set(leaf, (leaves.get(leaf) ?? 0) + 1)
	}
	const pct = (n: number) => Math.round((1000 * n) / (total || 1)) / 10
	return {
		samples: total,
		buckets: [...counts].sort((a, b) => b[1] - a[1]).map(([bucket, samples]) => ({ bucket, samples, pct: pct(samples) })),
		topLeaves: [...leaves]
			.sort((a, b) => b[1] - a[1])
			.slice(0, 15)
			.map(([k, samples]) => ({ fn: k.split('\t')[0]!, where: k.split('\t')[1]!, samples, pct: pct(samples) })),
	}
}

export function printProfile(s: ProfileSummary) {
	console.log(`\n| server JS thread, ${s.samples} samples | share |\n|---|---:|`)
	for (const b of s.buckets) console.log(`| ${b.bucket} | ${b.pct.toFixed(1)} % |`)
	console.log(`\n| innermost function (self) | where | share |\n|---|---|---:|`)
	for (const l of s.topLeaves) console.log(`| ${l.fn} | ${l.where} | ${l.pct.toFixed(1)} % |`)
}

if (import.meta.main) {
	const [file, from, to] = process.argv.slice(2)
	if (!file) {
		console.error('usage: bun bench/cpu-profile.ts file.cpuprofile [fromEpochMs toEpochMs]')
		process.exit(2)
	}
	printProfile(summarizeProfile(file, from && to ? [[Number(from), Number(to)]] : []))
}
