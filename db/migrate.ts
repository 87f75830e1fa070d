/**
 * Applies every module's migrations, each module from its own folder with its own journal and its
 * own record of what ran (`drizzle."__drizzle_migrations_<name>"`): drizzle's migrator treats as
 * pending every migration newer than the last row of its table, so modules sharing one table would
 * skip each other's migrations. The core tables come first (`db/migrations/`).
 *
 * Order: a module's migrations run after those of every module whose tables its tables reference
 * (foreign keys), otherwise in registry order (`requires`). The two disagree once: outbox's table
 * references auth's `workspaces` while auth calls outbox; the tables decide, since a reference to a
 * table that does not exist yet cannot be created.
 *
 * After migrating, every declared table and column must exist, or start-up stops naming them.
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { is, sql, type SQL } from 'drizzle-orm'
import type { MigrationConfig } from 'drizzle-orm/migrator'
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core'
import * as coreTables from './core-tables.ts'

/** What owns tables: the core, or a module (its `tables` are the exports of its table.ts). */
export interface SchemaOwner {
	readonly name: string
	readonly tables?: Readonly<Record<string, unknown>>
	readonly migrations?: URL
}

export const CORE: SchemaOwner = { name: 'core', tables: coreTables, migrations: new URL('./migrations/', import.meta.url) }

/** The single folder used before each module had its own: frozen, only to upgrade databases it made. */
export const LEGACY_FOLDER = fileURLToPath(new URL('./legacy-migrations/', import.meta.url))
/** Its last migration; a database that ran it has exactly the schema the baselines create. */
export const LEGACY_LAST = { tag: '0025_interviews_job', when: 1795626163202, hash: 'a0e1b9a8d9529f908059fbc5e68eb1bc4ae7e1bff29f2c15e9b6f50e4bf7bd3c' }
/** Owners whose first migration (`0000_baseline`) recreates what the legacy folder made. */
export const LEGACY_OWNERS = [
	'core',
	'activity',
	'analytics',
	'auth',
	'bench',
	'calendar',
	'candidates',
	'documents',
	'inbox',
	'interviews',
	'jobs',
	'lookups',
	'outbox',
	'saved-searches',
	'todos',
	'vendors',
]

const MIGRATIONS_SCHEMA = 'drizzle'
export const migrationsTable = (owner: string) => `__drizzle_migrations_${owner}`

export class SchemaError extends Error {
	constructor(readonly problems: string[]) {
		super(`The database schema is not what the modules declare:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
	}
}

/** Runs drizzle's migrator for one folder (the driver's own: PGlite or postgres.js). */
export type ApplyFolder = (config: MigrationConfig) => Promise<void>

/** What migrating asks of a database: raw SQL in, rows out (db/client.ts's `Database` is one). */
interface Handle {
	rows<T = Record<string, unknown>>(query: SQL): Promise<T[]>
}

const tablesOf = (owner: SchemaOwner): PgTable[] => Object.values(owner.tables ?? {}).filter((v): v is PgTable => is(v, PgTable))

/** Core first, then the modules with tables, each after the owners of the tables its tables reference. */
export function migrationOrder(modules: readonly SchemaOwner[]): SchemaOwner[] {
	const owners: SchemaOwner[] = [CORE, ...modules.filter((m) => m.tables || m.migrations)]
	const ownerOf = new Map<PgTable, SchemaOwner>()
	for (const owner of owners) for (const table of tablesOf(owner)) ownerOf.set(table, owner)
	const ordered: SchemaOwner[] = []
	const state = new Map<SchemaOwner, 'visiting' | 'done'>()
	const visit = (owner: SchemaOwner, trail: string[]) => {
		if (state.get(owner) === 'done') return
		if (state.get(owner) === 'visiting') throw new SchemaError([`tables of modules reference each other in a cycle: ${[...trail, owner.name].join(' -> ')}`])
		state.set(owner, 'visiting')
		for (const table of tablesOf(owner))
			for (const fk of getTableConfig(table).foreignKeys) {
				const target = ownerOf.get(fk.reference().foreignTable)
				if (target && target !== owner) visit(target, [...trail, owner.name])
			}
		state.set(owner, 'done')
		ordered.push(owner)
	}
	for (const owner of owners) visit(owner, [])
	return ordered
}

/**
 * The oldest PostgreSQL the statements need (`server_version_num`): 15, for `regexp_instr` in the careers
 * location search (modules/careers/search.ts). An older server migrated and started, then answered that
 * search with a 500; it is refused at start, saying what to do.
 */
export const OLDEST_POSTGRES = 150000

export async function requireServerVersion(handle: Handle): Promise<void> {
	const [server] = await handle.rows<{ num: number; version: string }>(
		sql`select current_setting('server_version_num')::int as num, current_setting('server_version') as version`,
	)
	if (server && Number(server.num) < OLDEST_POSTGRES)
		throw new SchemaError([
			`the server is PostgreSQL ${server.version}; Benchline needs PostgreSQL 15 or later: upgrade it, or point DATABASE_URL at a newer one`,
		])
}

/** Applies what is pending for every owner, then checks that every declared table and column exists. */
export async function migrateModules(handle: Handle, modules: readonly SchemaOwner[], apply: ApplyFolder): Promise<void> {
	await requireServerVersion(handle)
	const owners = migrationOrder(modules)
	await upgradeLegacy(handle, owners, apply)
	for (const owner of owners) {
		// No folder yet (db:generate not run): nothing to apply, and its tables are reported missing below.
		if (!owner.migrations || !existsSync(new URL('meta/_journal.json', owner.migrations))) continue
		await apply({ migrationsFolder: fileURLToPath(owner.migrations), migrationsSchema: MIGRATIONS_SCHEMA, migrationsTable: migrationsTable(owner.name) })
	}
	const problems = await missingDeclared(handle, owners)
	if (problems.length) throw new SchemaError(problems)
}

interface JournalEntry {
	readonly tag: string
	readonly when: number
}

const journal = (folder: string): JournalEntry[] => JSON.parse(readFileSync(`${folder}/meta/_journal.json`, 'utf8')).entries
// The hash drizzle's migrator records: sha256 of the migration file as it is.
const fileHash = (folder: string, tag: string) =>
	createHash('sha256')
		.update(readFileSync(`${folder}/${tag}.sql`, 'utf8'))
		.digest('hex')

/**
 * A database made by the legacy folder: brought to its last migration by that folder (it may be
 * older), then each legacy owner's baseline is recorded as applied, since the schema it creates is
 * already there. Owners that recorded something already are left alone, so this runs once.
 * Data migrations of the legacy history (blanking old snippets…) are in no baseline: a fresh
 * database has no old rows to repair.
 */
async function upgradeLegacy(handle: Handle, owners: readonly SchemaOwner[], apply: ApplyFolder): Promise<void> {
	const [found] = await handle.rows<{ present: boolean }>(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`)
	if (!found?.present) return
	const [last] = await handle.rows<{ hash: string; created_at: string }>(
		sql`select hash, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`,
	)
	if (!last) return
	const when = Number(last.created_at)
	if (when > LEGACY_LAST.when)
		throw new SchemaError([
			`the database ran a migration of the old single folder (created_at ${when}) that db/legacy-migrations does not hold: it was made by another branch`,
		])
	if (when === LEGACY_LAST.when && last.hash !== LEGACY_LAST.hash)
		throw new SchemaError([`the database ran a migration ${LEGACY_LAST.tag} other than the one in db/legacy-migrations (which must never change)`])
	if (when < LEGACY_LAST.when) await apply({ migrationsFolder: LEGACY_FOLDER })
	await handle.rows(sql`create schema if not exists ${sql.identifier(MIGRATIONS_SCHEMA)}`)
	for (const owner of owners) {
		if (!LEGACY_OWNERS.includes(owner.name) || !owner.migrations) continue
		const folder = fileURLToPath(owner.migrations)
		const baseline = journal(folder)[0]
		if (baseline?.tag !== '0000_baseline')
			throw new SchemaError([`module ${owner.name}: its first migration must be 0000_baseline (it recreates the legacy schema)`])
		const table = sql`${sql.identifier(MIGRATIONS_SCHEMA)}.${sql.identifier(migrationsTable(owner.name))}`
		// The table exactly as drizzle's migrator creates it.
		await handle.rows(sql`create table if not exists ${table} (id serial primary key, hash text not null, created_at bigint)`)
		const [recorded] = await handle.rows(sql`select 1 from ${table} limit 1`)
		if (!recorded) await handle.rows(sql`insert into ${table} (hash, created_at) values (${fileHash(folder, baseline.tag)}, ${baseline.when})`)
	}
}

/** Declared tables and columns the database lacks, each named with its owner. */
export async function missingDeclared(handle: Handle, owners: readonly SchemaOwner[]): Promise<string[]> {
	const rows = await handle.rows<{ table_schema: string; table_name: string; column_name: string }>(
		sql`select table_schema, table_name, column_name from information_schema.columns where table_schema not in ('pg_catalog', 'information_schema')`,
	)
	const columns = new Map<string, Set<string>>()
	for (const r of rows) {
		const key = `${r.table_schema}.${r.table_name}`
		if (!columns.has(key)) columns.set(key, new Set())
		columns.get(key)!.add(r.column_name)
	}
	const problems: string[] = []
	for (const owner of owners)
		for (const table of tablesOf(owner)) {
			const config = getTableConfig(table)
			const present = columns.get(`${config.schema ?? 'public'}.${config.name}`)
			const who = owner.name === 'core' ? 'the core' : `module ${owner.name}`
			if (!present) {
				problems.push(`${who} declares table ${config.name} but no migration creates it: run npm run db:generate`)
				continue
			}
			for (const column of config.columns)
				if (!present.has(column.name))
					problems.push(`${who} declares column ${config.name}.${column.name} but no migration creates it: run npm run db:generate`)
		}
	return problems
}
