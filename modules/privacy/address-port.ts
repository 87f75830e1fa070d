/**
 * The address-data port: what a module keeps under an e-mail address alone, with no candidate behind
 * it (a job alert's subscriber never applied). A privacy request is about an address, so Send data
 * and Erase act on the workspace's candidates with it (the `candidates:data` port) and on what these
 * sources keep under it: someone who only asked for job alerts can get a copy, or have them erased.
 * Contributed with `contribute(addressData, …)` by a module requiring this one (careers: job alerts).
 */
import type { AppDeps } from '../../core/deps.ts'
import { definePort } from '../../core/module.ts'
import type { Db } from '../../db/client.ts'

export interface AddressDataSource {
	/** Its part of the export's JSON, e.g. `jobAlerts`. */
	readonly key: string
	/** What one record is, for the owners' list of requests, e.g. `job alert` ("2 job alerts"). */
	readonly noun: string
	/** The tables it reads and erases (snake_case names, as in the database). */
	readonly tables: readonly string[]
	/**
	 * How many records it keeps under each of these addresses (in normal form, core/email.ts, matched
	 * in any spelling): an address with none is left out.
	 */
	count(deps: AppDeps, db: Db, workspaceId: string, emails: readonly string[]): Promise<ReadonlyMap<string, number>>
	/** What it keeps under the address: JSON-ready data (ids, dates as ISO strings, texts as stored). */
	export(deps: AppDeps, db: Db, workspaceId: string, email: string): Promise<unknown>
	/** Deletes what it keeps under the address, in the erasure's transaction. */
	erase(deps: AppDeps, tx: Db, workspaceId: string, email: string): Promise<void>
}

export const addressData = definePort<AddressDataSource>(
	'privacy:address-data',
	'What a module keeps under an e-mail address with no candidate behind it: sent and erased when that address asks (a privacy request)',
)
