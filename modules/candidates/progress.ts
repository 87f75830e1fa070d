/**
 * Where an application stands beside its stage, as the job's pipeline groups it:
 * - `active`: still in the running (no outcome yet) or hired: shown in its stage's column;
 * - `closed`: rejected or withdrawn, not archived: listed apart from the columns;
 * - `archived`: put away (whatever the outcome).
 */
import { sql, type SQL } from 'drizzle-orm'

export const APPLICATION_STATES = ['active', 'closed', 'archived'] as const
export type ApplicationState = (typeof APPLICATION_STATES)[number]

/** The state of an application (aliased `a`), as SQL (for grouping counts). */
export const STATE_OF = sql.raw(`case when a.archived then 'archived' when a.outcome is null or a.outcome = 'hired' then 'active' else 'closed' end`)

/** Applications (aliased `a`) in one state. */
export function inState(state: ApplicationState): SQL {
	if (state === 'archived') return sql`a.archived = true`
	if (state === 'active') return sql`a.archived = false and (a.outcome is null or a.outcome = 'hired')`
	return sql`a.archived = false and a.outcome is not null and a.outcome <> 'hired'`
}
