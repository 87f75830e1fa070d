/**
 * Migration tests: an empty database of the run's kind (a new PostgreSQL database, or an in-memory
 * PGlite) that migrates from any folder, and a copy of the migrations that stops before a given one,
 * so a test can write the rows a migration meets on a live database before applying it.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MIGRATIONS_FOLDER, openDatabase, openMemoryDatabase, type Database } from '../db/client.ts'
import { usingPostgres } from './helpers.ts'

export interface ScratchDatabase {
	database: Database
	migrateFrom(folder: string): Promise<void>
	close(): Promise<void>
}

export async function scratchDatabase(): Promise<ScratchDatabase> {
	if (!usingPostgres()) {
		const database = await openMemoryDatabase()
		const { migrate } = await import('drizzle-orm/pglite/migrator')
		return { database, migrateFrom: (folder) => migrate(database.db as never, { migrationsFolder: folder }), close: () => database.close() }
	}
	const { default: postgres } = await import('postgres')
	const server = new URL(process.env.DATABASE_URL!)
	const name = `bl_k3_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`
	const admin = postgres(server.href, { max: 1, onnotice: () => {} })
	await admin.unsafe(`create database ${name}`)
	const url = new URL(server.href)
	url.pathname = `/${name}`
	const database = await openDatabase({ databaseUrl: url.href, dataDir: '' }, { migrate: false })
	const { migrate } = await import('drizzle-orm/postgres-js/migrator')
	return {
		database,
		migrateFrom: (folder) => migrate(database.db as never, { migrationsFolder: folder }),
		close: async () => {
			await database.close()
			await admin.unsafe(`drop database if exists ${name} with (force)`)
			await admin.end()
		},
	}
}

/** A temporary copy of the migrations without the one named `<number>_<name>` and those after it; `remove()` deletes it. */
export function migrationsBefore(name: string): { folder: string; remove(): void } {
	const folder = mkdtempSync(join(tmpdir(), 'bl-migrations-'))
	cpSync(MIGRATIONS_FOLDER, folder, { recursive: true })
	const journalPath = join(folder, 'meta/_journal.json')
	const journal = JSON.parse(readFileSync(journalPath, 'utf8'))
	const at = journal.entries.findIndex((e: { tag: string }) => e.tag.endsWith(`_${name}`))
	if (at < 1) throw new Error(`no migration named ${name}`)
	writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }))
	return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) }
}
