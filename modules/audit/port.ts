/**
 * How long a workspace must keep its audit trail at least, when longer than `AUDIT_RETENTION_DAYS`:
 * a federal contractor keeps its searches of the candidate database for its hold period (41 CFR
 * 60-1.12, 1 or 2 years). Contributed by the module that knows the workspace's rules (privacy).
 */
import type { AppDeps } from '../../core/deps.ts'
import { definePort } from '../../core/module.ts'

export interface AuditKeepSource {
	/** Per workspace, the oldest time whose lines must still be kept (`now` is the sweep's clock). */
	keepSince(deps: AppDeps, now: Date): Promise<ReadonlyMap<string, Date>>
}

export const auditKeepPort = definePort<AuditKeepSource>(
	'audit:keep',
	'How long a workspace must keep its audit trail at least (a federal contractor’s hold period)',
)
