/**
 * The vendor-facts port: what other modules keep about vendors (their jobs, the candidates
 * submitted to them), merged into the vendor directory (`list_vendors`, `get_vendor`, the vendors
 * pages). The modules that keep those rows require this one, so this one cannot ask them nor read
 * their tables: they contribute with `contribute(vendorFacts, …)`.
 */
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { definePort } from '../../core/module.ts'

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
