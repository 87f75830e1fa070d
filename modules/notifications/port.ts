/**
 * The notified-records port: the module that owns a record notifications are about names it for one
 * reader, as far as that reader can reach it now (their role, their hiring teams, the record still
 * there). Contributed with `contribute(notifiedRecords, …)` by a module requiring this one, with the
 * same reach its own pages and tools apply. A record type nobody contributes is never named.
 */
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { definePort } from '../../core/module.ts'

export interface NotifiedRecords {
	/** The record type notifications store (`candidate`). */
	readonly type: string
	/** Names and pages of the records among `ids` that `actor` can open now; one out of reach is left out, like an absent one. */
	names(deps: AppDeps, actor: Actor, ids: string[]): Promise<Map<string, { name: string; href?: string }>>
}

export const notifiedRecords = definePort<NotifiedRecords>(
	'notifications:record',
	'Names and pages of the records notifications are about, as far as the reader can reach them when shown or sent',
)
