/** Workspaces: made by the operator's CLI, found by their slug. */
import { eq, inArray, sql, type SQL } from 'drizzle-orm'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, invalid } from '../../core/errors.ts'
import type { WorkspaceRef } from '../../core/module.ts'
import type { Db } from '../../db/client.ts'
import type { WorkspaceDirectory } from '../outbox/index.ts'
import { typedLine } from '../../core/untrusted.ts'
import { workspaces } from './table.ts'

export const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/

export interface Workspace extends WorkspaceRef {
	readonly name: string
}

export async function createWorkspace(deps: AppDeps, input: { slug: string; name: string }): Promise<Workspace> {
	const slug = input.slug.trim().toLowerCase()
	const { line: name, problem } = typedLine(input.name, 120)
	const problems = []
	if (!SLUG.test(slug)) problems.push({ field: 'slug', message: 'must be 1-40 lower-case letters, digits or dashes' })
	if (problem) problems.push({ field: 'name', message: problem })
	if (problems.length) throw invalid(problems)
	const id = newId('ws')
	const inserted = await deps.db.insert(workspaces).values({ id, slug, name }).onConflictDoNothing().returning({ id: workspaces.id })
	if (!inserted.length) throw new AppError('CONFLICT', `A workspace with the slug "${slug}" already exists`)
	return { id, slug, name }
}

export async function findWorkspace(db: Db, slug: string): Promise<Workspace | null> {
	const [row] = await db.select({ id: workspaces.id, slug: workspaces.slug, name: workspaces.name }).from(workspaces).where(eq(workspaces.slug, slug))
	return row ?? null
}

export async function requireWorkspace(db: Db, slug: string): Promise<Workspace> {
	const ws = await findWorkspace(db, slug)
	if (!ws) throw new AppError('NOT_FOUND', `No workspace with the slug "${slug}"`)
	return ws
}

export async function listWorkspaces(db: Db): Promise<Workspace[]> {
	return db.select({ id: workspaces.id, slug: workspaces.slug, name: workspaces.name }).from(workspaces).orderBy(workspaces.createdAt, workspaces.slug)
}

/** Workspaces by id (unknown ids are left out). */
export async function workspacesById(db: Db, ids: readonly string[]): Promise<Map<string, Workspace>> {
	if (!ids.length) return new Map()
	const rows = await db
		.select({ id: workspaces.id, slug: workspaces.slug, name: workspaces.name })
		.from(workspaces)
		.where(inArray(workspaces.id, [...new Set(ids)]))
	return new Map(rows.map((w) => [w.id, w]))
}

/** The slug of the workspace whose id is `id`, inside another module's statement (one round trip on hot paths). */
export const workspaceSlugOf = (id: SQL) => sql<string>`(select ws.slug from ${workspaces} ws where ws.id = ${id})`

/** How modules this one requires (the outbox) find workspaces, contributed to the outbox's port: they cannot ask this module directly. */
export const workspaceDirectory: WorkspaceDirectory = {
	bySlug: findWorkspace,
	byIds: workspacesById,
}
