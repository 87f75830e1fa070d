/**
 * Per-module migrations (db/migrate.ts): a database made by the legacy single folder, fully or
 * partly migrated, ends with exactly the schema the per-module migrations give a fresh database;
 * its baselines are recorded, not run; and a migrated database is left alone the next time.
 */
import { afterAll, describe, expect, test } from 'bun:test'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { sql } from 'drizzle-orm'
import { pgTable, text } from 'drizzle-orm/pg-core'
import { createDeps, modules } from '../core/main.ts'
import { defineModule, type ModuleDef } from '../core/module.ts'
import { buildRegistry } from '../core/registry.ts'
import { emptyDatabase, testDeps } from '../tests/helpers.ts'
import type { Database } from './client.ts'
import { tableOwners } from './generate.ts'
import { LEGACY_FOLDER, LEGACY_LAST, LEGACY_OWNERS, migrationOrder, migrationsTable, requireServerVersion, SchemaError } from './migrate.ts'

type Scratch = Awaited<ReturnType<typeof emptyDatabase>>
const opened: Scratch[] = []
afterAll(async () => {
	for (const s of opened) await s.close()
})
async function scratch(): Promise<Scratch> {
	const s = await emptyDatabase()
	opened.push(s)
	return s
}

/** Everything of the `public` schema a migration makes, in a form two databases can be compared by. */
async function schemaOf(database: Database) {
	const q = <T>(query: ReturnType<typeof sql>) => database.rows<T>(query)
	return {
		tables: await q(sql`select table_name, table_type from information_schema.tables where table_schema = 'public' order by 1`),
		// By name: columns added later by the legacy history come last in their table, in the baseline in table.ts order.
		columns: await q(sql`select table_name, column_name, data_type, udt_name, character_maximum_length, numeric_precision, datetime_precision,
			column_default, is_nullable, is_generated, generation_expression from information_schema.columns where table_schema = 'public' order by 1, 2`),
		indexes: await q(sql`select tablename, indexname, indexdef from pg_indexes where schemaname = 'public' order by 1, 2`),
		constraints: await q(sql`select conrelid::regclass::text as table_name, conname, contype, pg_get_constraintdef(oid) as definition
			from pg_constraint where connamespace = 'public'::regnamespace order by 1, 2`),
		triggers: await q(
			sql`select tgrelid::regclass::text as table_name, tgname, pg_get_triggerdef(oid) as definition from pg_trigger where not tgisinternal order by 1, 2`,
		),
		// Functions of extensions (pg_trgm's) are the extension's, not a migration's.
		functions: await q(sql`select proname, pg_get_function_identity_arguments(p.oid) as arguments, pg_get_functiondef(p.oid) as definition from pg_proc p
			where pronamespace = 'public'::regnamespace and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e') order by 1, 2`),
		types: await q(sql`select typname, typtype from pg_type t where typnamespace = 'public'::regnamespace and typtype in ('e', 'd') order by 1`),
		sequences: await q(sql`select sequence_name, data_type from information_schema.sequences where sequence_schema = 'public' order by 1`),
		extensions: await q(sql`select extname from pg_extension order by 1`),
	}
}

const recorded = (database: Database, owner: string) =>
	database.rows<{ hash: string; created_at: string }>(sql`select hash, created_at from drizzle.${sql.identifier(migrationsTable(owner))} order by id`)
/** How many migrations an owner's folder holds: its baseline and those added since. */
const migrationsOf = (owner: string) => {
	const folder = migrationOrder(modules).find((o) => o.name === owner)!.migrations!
	return JSON.parse(readFileSync(new URL('meta/_journal.json', folder), 'utf8')).entries.length as number
}

/** The legacy folder cut after `tag` (a database the old code left part way). */
function legacyUpTo(tag: string): string {
	const folder = mkdtempSync(join(tmpdir(), 'bl-legacy-'))
	cpSync(LEGACY_FOLDER, folder, { recursive: true })
	const path = join(folder, 'meta/_journal.json')
	const journal = JSON.parse(readFileSync(path, 'utf8'))
	const at = journal.entries.findIndex((e: { tag: string }) => e.tag === tag)
	expect(at).toBeGreaterThan(0)
	writeFileSync(path, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at + 1) }))
	return folder
}

// Each test migrates one or two embedded databases from nothing (every module's migrations, or the
// legacy folder then the modules'): 20–50 s each on a loaded 2-core machine.
describe('per-module migrations', () => {
	let fresh: Awaited<ReturnType<typeof schemaOf>>

	test('a fresh database gets every module’s tables from the modules’ own folders, each recorded in its own table', async () => {
		const s = await scratch()
		await s.database.migrate(modules)
		fresh = await schemaOf(s.database)
		expect(fresh.tables.length).toBeGreaterThan(40)
		for (const owner of LEGACY_OWNERS) expect((await recorded(s.database, owner)).length).toBe(migrationsOf(owner))
		// Nothing of the legacy history: its data repairs have nothing to repair on an empty database.
		expect((await s.database.rows<{ present: boolean }>(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`))[0]!.present).toBe(
			false,
		)
	}, 180_000)

	test('a database made by the legacy folder (up to 0025) keeps its schema: the baselines are recorded, not run, and it equals a fresh one', async () => {
		const s = await scratch()
		await s.migrateFrom(LEGACY_FOLDER)
		await s.database.rows(sql`insert into workspaces (id, slug, name) values ('w1', 'w1', 'Kept')`)
		await s.database.rows(sql`insert into candidates (id, workspace_id, name, email) values ('c1', 'w1', 'Tomás Müller', 'c1@kept.test')`)
		await s.database.migrate(modules)
		expect(await schemaOf(s.database)).toEqual(fresh)
		// A row written before search folded accents is indexed folded too (modules/candidates/migrations/0006_search_folded.sql).
		expect(await s.database.rows(sql`select id from candidates where search_vector @@ to_tsquery('english', 'tomas & muller')`)).toEqual([{ id: 'c1' }])
		for (const owner of LEGACY_OWNERS)
			expect((await recorded(s.database, owner)).map((r) => r.created_at !== null)).toEqual(Array(migrationsOf(owner)).fill(true))
		expect(await s.database.rows(sql`select name from workspaces`)).toEqual([{ name: 'Kept' }])
		// The legacy history is kept as it was.
		const [last] = await s.database.rows<{ hash: string }>(sql`select hash from drizzle.__drizzle_migrations order by created_at desc limit 1`)
		expect(last!.hash).toBe(LEGACY_LAST.hash)
		// Next start: nothing to do, nothing recorded twice.
		await s.database.migrate(modules)
		for (const owner of LEGACY_OWNERS) expect((await recorded(s.database, owner)).length).toBe(migrationsOf(owner))
	}, 180_000)

	test('a database the legacy folder left part way (0020) is brought to 0025 by it first, then equals a fresh one', async () => {
		const folder = legacyUpTo('0020_first_day_passwords_held_mail')
		try {
			const s = await scratch()
			await s.migrateFrom(folder)
			await s.database.migrate(modules)
			expect(await schemaOf(s.database)).toEqual(fresh)
			const [count] = await s.database.rows<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)
			expect(count!.n).toBe(26)
		} finally {
			rmSync(folder, { recursive: true, force: true })
		}
	}, 180_000)

	test('the legacy folder is frozen: its last migration is the one databases recorded', () => {
		const journal = JSON.parse(readFileSync(join(LEGACY_FOLDER, 'meta/_journal.json'), 'utf8'))
		const last = journal.entries.at(-1)
		expect({ tag: last.tag, when: last.when }).toEqual({ tag: LEGACY_LAST.tag, when: LEGACY_LAST.when })
		const hash = new Bun.CryptoHasher('sha256').update(readFileSync(join(LEGACY_FOLDER, `${LEGACY_LAST.tag}.sql`), 'utf8')).digest('hex')
		expect(hash).toBe(LEGACY_LAST.hash)
	})
})

describe('declared tables', () => {
	test('every modules/<name>/table.ts is declared by module <name> with its migrations folder: db:generate and start-up see the same tables', async () => {
		const owners = tableOwners().filter((o) => o.name !== 'core')
		expect(owners.length).toBeGreaterThan(10)
		for (const owner of owners) {
			const module: ModuleDef | undefined = modules.find((m) => m.name === owner.name)
			expect({ owner: owner.name, listed: Boolean(module) }).toEqual({ owner: owner.name, listed: true })
			expect(module!.tables).toBe(await import(owner.schema))
			expect(fileURLToPath(module!.migrations!)).toBe(`${owner.out}/`)
		}
	})

	test('start-up refuses a module whose table no migration creates, naming the table and the module', async () => {
		const { testDeps } = await import('../tests/helpers.ts')
		const deps = await testDeps()
		// Not notes-demo: CI's PostgreSQL pass runs with that module in the tree (scripts/new-module/whole-suite.sh).
		const unmigrated = pgTable('fixture_unmigrated', { id: text('id').primaryKey() })
		const module = defineModule({
			name: 'fixture-unmigrated',
			description: 'Notes (a test module)',
			tables: { unmigrated },
			migrations: new URL('./no-such-folder/', import.meta.url),
		})
		const started = createDeps({ config: deps.config, database: deps.database, log: deps.log, moduleList: [...modules, module] })
		await expect(started).rejects.toThrow(SchemaError)
		await expect(started).rejects.toThrow('module fixture-unmigrated declares table fixture_unmigrated but no migration creates it: run npm run db:generate')
	}, 120_000)

	test('start-up refuses a declared column no migration creates', async () => {
		const { testDeps } = await import('../tests/helpers.ts')
		const deps = await testDeps()
		// A migration that makes the table without the column the table.ts declares.
		const folder = mkdtempSync(join(tmpdir(), 'bl-notes-'))
		try {
			mkdirSync(join(folder, 'meta'))
			writeFileSync(join(folder, '0000_notes.sql'), 'CREATE TABLE IF NOT EXISTS "notes_demo_columns" ("id" text PRIMARY KEY NOT NULL);')
			writeFileSync(
				join(folder, 'meta/_journal.json'),
				JSON.stringify({ version: '7', dialect: 'postgresql', entries: [{ idx: 0, version: '7', when: 1796000000000, tag: '0000_notes', breakpoints: true }] }),
			)
			const notes = pgTable('notes_demo_columns', { id: text('id').primaryKey(), body: text('body').notNull() })
			const module = defineModule({
				name: 'notes-demo-columns',
				description: 'Notes (a test module)',
				tables: { notes },
				migrations: pathToFileURL(`${folder}/`),
			})
			const started = createDeps({ config: deps.config, database: deps.database, log: deps.log, moduleList: [...modules, module] })
			await expect(started).rejects.toThrow(
				'module notes-demo-columns declares column notes_demo_columns.body but no migration creates it: run npm run db:generate',
			)
		} finally {
			rmSync(folder, { recursive: true, force: true })
		}
	})
})

describe('the migrating connection', () => {
	// A migration may build an index or backfill a large table: the request pool's statement
	// timeout (15 s) would stop it half-way on every start of a big database.
	test.skipIf(!process.env.DATABASE_URL)('PostgreSQL: migrations run on a connection of their own, without a statement timeout', async () => {
		const folder = mkdtempSync(join(tmpdir(), 'bl-probe-'))
		try {
			mkdirSync(join(folder, 'meta'))
			writeFileSync(
				join(folder, '0000_probe.sql'),
				`CREATE TABLE "migration_probe" AS SELECT current_setting('statement_timeout') AS "timeout", current_setting('application_name') AS "app";`,
			)
			writeFileSync(
				join(folder, 'meta/_journal.json'),
				JSON.stringify({ version: '7', dialect: 'postgresql', entries: [{ idx: 0, version: '7', when: 1796000000000, tag: '0000_probe', breakpoints: true }] }),
			)
			const probe = pgTable('migration_probe', { timeout: text('timeout'), app: text('app') })
			const module = defineModule({ name: 'migration-probe', description: 'A test module', tables: { probe }, migrations: pathToFileURL(`${folder}/`) })
			const { database } = await scratch()
			await database.migrate([...modules, module])
			expect(await database.rows(sql`select "timeout", "app" from migration_probe`)).toEqual([{ timeout: '0', app: 'benchline-migrate' }])
			// The pool that serves requests keeps its bound.
			expect(await database.rows(sql`select current_setting('statement_timeout') as "timeout"`)).toEqual([{ timeout: '15s' }])
		} finally {
			rmSync(folder, { recursive: true, force: true })
		}
	})
})

describe('migration order', () => {
	const parent = pgTable('order_parent', { id: text('id').primaryKey() })
	const child = pgTable('order_child', { id: text('id').primaryKey(), parentId: text('parent_id').references(() => parent.id) })
	const a = { name: 'a', tables: { child }, migrations: new URL('file:///a/') }
	const b = { name: 'b', tables: { parent }, migrations: new URL('file:///b/') }

	test('core first, then a module after the module whose tables its tables reference, whatever the list order', () => {
		expect(migrationOrder([a, b]).map((o) => o.name)).toEqual(['core', 'b', 'a'])
		expect(migrationOrder([b, a]).map((o) => o.name)).toEqual(['core', 'b', 'a'])
	})

	test('the real modules: outbox (required by auth) runs after auth, whose workspaces its table references', () => {
		const names = migrationOrder(buildRegistry(modules).modules).map((o) => o.name)
		expect(names.indexOf('auth')).toBeLessThan(names.indexOf('outbox'))
		expect(names[0]).toBe('core')
	})

	test('tables of two modules referencing each other are refused, naming the cycle', () => {
		// Typed loosely: each refers to the other before both exist.
		const x: any = pgTable('order_x', { id: text('id').primaryKey(), yId: text('y_id').references(() => y.id) })
		const y: any = pgTable('order_y', { id: text('id').primaryKey(), xId: text('x_id').references(() => x.id) })
		expect(() =>
			migrationOrder([
				{ name: 'x', tables: { x }, migrations: new URL('file:///x/') },
				{ name: 'y', tables: { y }, migrations: new URL('file:///y/') },
			]),
		).toThrow('x -> y -> x')
	})
})

describe('the server’s version', () => {
	test('PostgreSQL 15 or later is taken (this one, and 15.0); 14 is refused at start, saying what to do', async () => {
		await requireServerVersion((await testDeps()).database)
		const server = (num: number, version: string) => ({ rows: async () => [{ num, version }] as never[] })
		await requireServerVersion(server(150000, '15.0'))
		const refused = requireServerVersion(server(140011, '14.11 (Debian 14.11-1)'))
		await expect(refused).rejects.toBeInstanceOf(SchemaError)
		await expect(refused).rejects.toThrow('PostgreSQL 14.11 (Debian 14.11-1); Benchline needs PostgreSQL 15 or later')
	})
})
