/**
 * Staffing lookups: the workspace's lists of vendors, implementation partners and clients that
 * people pick from. Owners and admins keep them (page or CLI); everyone who works with jobs reads them.
 *
 * Rules: names are one line of 1 to 120 visible characters (`typedLine`), unique per kind without regard to case;
 * removing keeps the row (removed values are not listed and may be added again).
 */
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, invalid } from '../../core/errors.ts'
import { typedLine } from '../../core/untrusted.ts'
import { keysetPage } from '../../core/paging.ts'
import { recordActivity } from '../activity/index.ts'
import { staffingLookups } from './table.ts'

export const LOOKUP_KINDS = ['vendor', 'implementation_partner', 'client'] as const
export type LookupKind = (typeof LOOKUP_KINDS)[number]
export const LOOKUP_LABELS: Record<LookupKind, string> = { vendor: 'Vendors', implementation_partner: 'Implementation partners', client: 'Clients' }

export const isLookupKind = (v: unknown): v is LookupKind => typeof v === 'string' && (LOOKUP_KINDS as readonly string[]).includes(v)

export interface LookupValue {
	id: string
	kind: LookupKind
	name: string
	createdAt: string
}

interface Row {
	id: string
	kind: LookupKind
	name: string
	createdAt: Date | string
}

const toValue = (r: Row): LookupValue => ({ id: r.id, kind: r.kind, name: r.name, createdAt: new Date(r.createdAt).toISOString() })
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)

const BY_NAME = {
	keys: [{ expr: sql`lower(l.name)` }, { expr: sql`l.id` }],
	lookup: (id: string) => sql`select lower(x.name), x.id from ${staffingLookups} x where x.id = ${id}`,
}

/** Values of one kind, A to Z, optionally only names containing `query`; keyset-paged on the last value seen. */
export async function listLookups(
	deps: AppDeps,
	actor: Actor,
	input: { kind: LookupKind; query?: string; limit: number; cursor?: string },
): Promise<{ values: LookupValue[]; nextCursor: string | null }> {
	const query = input.query?.trim() ?? ''
	const scope = `list_staffing_lookups:${actor.userId}:${input.kind}:${query}`
	const conditions: SQL[] = [sql`l.workspace_id = ${actor.workspaceId}`, sql`l.kind = ${input.kind}`, sql`l.removed_at is null`]
	if (query) conditions.push(sql`l.name ilike ${`%${escapeLike(query)}%`}`)
	const { rows, nextCursor } = await keysetPage<Row>(deps, {
		scope,
		cursor: input.cursor,
		limit: input.limit,
		order: BY_NAME,
		from: sql`select l.id, l.kind, l.name, l.created_at as "createdAt" from ${staffingLookups} l`,
		where: conditions,
	})
	return { values: rows.map(toValue), nextCursor }
}

function cleanName(name: string): string {
	const { line, problem } = typedLine(name, 120)
	if (problem) throw invalid([{ field: 'name', message: problem }])
	return line
}

export async function addLookup(deps: AppDeps, actor: Actor, input: { kind: string; name: string }): Promise<LookupValue> {
	if (!isLookupKind(input.kind)) throw invalid([{ field: 'kind', message: `must be one of ${LOOKUP_KINDS.join(', ')}` }])
	const kind = input.kind
	const name = cleanName(input.name)
	return deps.db.transaction(async (tx) => {
		const id = newId('lk')
		const [row] = await tx
			.insert(staffingLookups)
			.values({ id, workspaceId: actor.workspaceId, kind, name })
			.onConflictDoNothing()
			.returning({ id: staffingLookups.id, createdAt: staffingLookups.createdAt })
		if (!row) throw new AppError('CONFLICT', `“${name}” is already in the ${LOOKUP_LABELS[kind].toLowerCase()} list`)
		await recordActivity(tx, actor, { action: 'lookup.added', targetType: 'staffing_lookup', targetId: id, detail: { kind, name } })
		return { id, kind, name, createdAt: row.createdAt.toISOString() }
	})
}

export async function removeLookup(deps: AppDeps, actor: Actor, id: string): Promise<LookupValue> {
	return deps.db.transaction(async (tx) => {
		const [row] = await tx
			.update(staffingLookups)
			.set({ removedAt: deps.now() })
			.where(and(eq(staffingLookups.id, id), eq(staffingLookups.workspaceId, actor.workspaceId), isNull(staffingLookups.removedAt)))
			.returning({ id: staffingLookups.id, kind: staffingLookups.kind, name: staffingLookups.name, createdAt: staffingLookups.createdAt })
		if (!row) throw new AppError('NOT_FOUND', 'No lookup value with this id')
		await recordActivity(tx, actor, { action: 'lookup.removed', targetType: 'staffing_lookup', targetId: id, detail: { kind: row.kind, name: row.name } })
		return toValue(row as Row)
	})
}

/** Every live value of the workspace, grouped by kind (the page). */
export async function allLookups(deps: AppDeps, workspaceId: string): Promise<Record<LookupKind, LookupValue[]>> {
	const rows = await deps.database.rows<Row>(
		sql`select l.id, l.kind, l.name, l.created_at as "createdAt" from ${staffingLookups} l where l.workspace_id = ${workspaceId} and l.removed_at is null order by lower(l.name), l.id`,
	)
	const out: Record<LookupKind, LookupValue[]> = { vendor: [], implementation_partner: [], client: [] }
	for (const r of rows) out[r.kind]?.push(toValue(r))
	return out
}
