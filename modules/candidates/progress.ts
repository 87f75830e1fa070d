/**
 * Where an application stands beside its stage, as the job's pipeline groups it:
 * - `active`: still in the running (no outcome yet) or hired: shown in its stage's column;
 * - `closed`: rejected or withdrawn, not archived: listed apart from the columns;
 * - `archived`: put away (whatever the outcome).
 *
 * The one rule every reader of stages follows (the board's columns, a stage's list, the counts per
 * stage of the job tools and the home page, the analytics funnel): a rejected or withdrawn
 * application stands in no stage. A stage move keeps its outcome (stage-move.ts), so one moved into
 * Hired still has the stage key `hired`; it was counted and listed as hired there although nobody
 * hired it. Hired is reached by the outcome `hired` alone.
 */
import { sql, type SQL } from 'drizzle-orm'

export const APPLICATION_STATES = ['active', 'closed', 'archived'] as const
export type ApplicationState = (typeof APPLICATION_STATES)[number]

/** The stage an application enters when it is hired (stage-move.ts records the outcome `hired` there). */
export const HIRED_STAGE = 'hired'

/** Applications (aliased `a`) that stand in their stage: not rejected or withdrawn (archived or not). */
export const IN_ITS_STAGE = sql.raw(`(a.outcome is null or a.outcome = 'hired')`)

/** The same rule for a row read: not rejected or withdrawn. */
export const standsInItsStage = (a: { outcome: string | null }) => a.outcome === null || a.outcome === 'hired'

/** The state of an application (aliased `a`), as SQL (for grouping counts). */
export const STATE_OF = sql.raw(`case when a.archived then 'archived' when a.outcome is null or a.outcome = 'hired' then 'active' else 'closed' end`)

/** Applications (aliased `a`) in one state. */
export function inState(state: ApplicationState): SQL {
	if (state === 'archived') return sql`a.archived = true`
	if (state === 'active') return sql`a.archived = false and ${IN_ITS_STAGE}`
	return sql`a.archived = false and not ${IN_ITS_STAGE}`
}

/**
 * How far an application has come, as a position in pipeline order (the funnel's "reached"): hired
 * is past every stage; one in the Hired stage without being hired (rejected or withdrawn after a
 * move there) got no further than the stage before Hired; any other is at its stage, closed or not
 * (rejected at screening, it reached screening).
 */
export function furthestPosition(a: { stageKey: string; outcome: string | null }, position: ReadonlyMap<string, number>): number {
	if (a.outcome === 'hired') return Number.POSITIVE_INFINITY
	const at = position.get(a.stageKey) ?? 0
	return a.stageKey === HIRED_STAGE ? at - 0.5 : at
}
