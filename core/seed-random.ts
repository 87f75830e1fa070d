/**
 * Deterministic randomness for demo data: the same workspace always gets the same data, and
 * seeding twice inserts nothing new (rows get ids derived from the workspace and a key).
 */
import { sha256 } from '@oslojs/crypto/sha2'
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding'

export interface SeededRandom {
	next(): number
	int(min: number, max: number): number
	pick<T>(items: readonly T[]): T
	sample<T>(items: readonly T[], n: number): T[]
	chance(p: number): boolean
}

export function seededRandom(seed: string): SeededRandom {
	const h = sha256(new TextEncoder().encode(seed))
	let a = (h[0]! | (h[1]! << 8) | (h[2]! << 16) | (h[3]! << 24)) >>> 0
	const next = () => {
		// mulberry32
		a = (a + 0x6d2b79f5) >>> 0
		let t = a
		t = Math.imul(t ^ (t >>> 15), t | 1)
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296
	}
	const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1))
	return {
		next,
		int,
		pick: (items) => items[int(0, items.length - 1)]!,
		sample: (items, n) => {
			const copy = [...items]
			for (let i = copy.length - 1; i > 0; i--) {
				const j = int(0, i)
				;[copy[i], copy[j]] = [copy[j]!, copy[i]!]
			}
			return copy.slice(0, n)
		},
		chance: (p) => next() < p,
	}
}

/** A stable id for seeded rows: the same workspace and key always give the same id. */
export function seededId(prefix: string, workspaceId: string, key: string): string {
	return `${prefix}_${encodeBase32LowerCaseNoPadding(sha256(new TextEncoder().encode(`${workspaceId}:${prefix}:${key}`))).slice(0, 20)}`
}

/** A time `daysAgo` days (plus some minutes) before now. */
export const daysAgo = (days: number, minutes = 0) => new Date(Date.now() - days * 86_400_000 - minutes * 60_000)
