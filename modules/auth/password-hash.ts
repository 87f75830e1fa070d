/**
 * Passwords are stored as argon2id hashes (Bun's own, at its default cost: 64 MiB, two passes), and
 * checked against the parameters each hash carries. `PASSWORD_HASH_FAST=on` (development and tests
 * only, refused with `NODE_ENV=production`) hashes at 1 MiB and one pass: the test suites make
 * thousands of people, and at the full cost those hashes were most of a pass's time on two cores.
 * Sign-in checks any stored hash whatever its cost, so a switch never locks anyone out.
 */
import type { Config } from '../../core/config.ts'

type Cost = Pick<Config, 'passwordHashFast'>

const FAST = { algorithm: 'argon2id', memoryCost: 1024, timeCost: 1 } as const

export const hashPassword = (config: Cost, password: string): Promise<string> =>
	config.passwordHashFast ? Bun.password.hash(password, FAST) : Bun.password.hash(password)

// A real hash at the configured cost, checked when the e-mail is unknown so both paths take the same time.
const timingHashes = new Map<boolean, Promise<string>>()

/** Spends the time of one password check and answers false. */
export async function verifyAgainstNothing(config: Cost, password: string): Promise<false> {
	let hash = timingHashes.get(config.passwordHashFast)
	if (!hash) timingHashes.set(config.passwordHashFast, (hash = hashPassword(config, 'no such account, same cost')))
	await Bun.password.verify(password, await hash)
	return false
}
