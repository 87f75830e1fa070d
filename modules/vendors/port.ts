/**
 * The vendor-facts port: what other modules keep about vendors (their jobs, the candidates
 * submitted to them), merged into the vendor directory (`list_vendors`, `get_vendor`, the vendors
 * pages). The modules that keep those rows require this one, so this one cannot ask them nor read
 * their tables: they contribute with `contribute(vendorFacts, …)`.
 */
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { definePort } from '../../core/module.ts'
import type { Db } from '../../db/client.ts'

/** What other modules tell about a vendor: absent counts are zero. */
export type VendorFacts = {
	openJobCount?: number
	jobCount?: number
	submissionCount?: number
	lastSubmittedAt?: Date | string | null
}

/** Facts keyed by vendor id, only for ids of the actor's workspace (`vendorIds` is never empty). */
export type VendorFactsSource = (deps: AppDeps, actor: Actor, vendorIds: string[]) => Promise<Map<string, VendorFacts>>

export const vendorFacts = definePort<VendorFactsSource>(
	'vendors:facts',
	'Facts about vendors (job and submission counts, last submission) merged into the vendor directory',
)

/** A vendor's API key as it was revoked. */
export interface RevokedKey {
	readonly vendorId: string
	readonly keyId: string
	readonly lastFour: string
	/** What was set up before the key existed was not set up with it. */
	readonly createdAt: Date
}

/**
 * What a module keeps that a vendor's key set up and that sends data out (the webhooks module's
 * endpoints): a revoked key must leave nothing behind that still receives the firm's data.
 */
export interface KeyRevocationListener {
	/** What it switches off, in the CLI's JSON (`switchedOff.<name>`), e.g. `webhookEndpoints`. */
	readonly name: string
	/** In the revocation's transaction (a failure undoes the revocation): switches off what the key set up, each in the activity log; returns their ids. */
	revoked(deps: AppDeps, tx: Db, actor: Actor, key: RevokedKey): Promise<string[]>
}

export const keyRevocation = definePort<KeyRevocationListener>(
	'vendors:key-revoked',
	'Told, in its transaction, when a vendor’s API key is revoked: switches off what the key set up that sends data out (webhook endpoints)',
)
