/**
 * The provider account a person is linked to (sso-links.ts), where the single sign-on callback
 * cannot show it: two first sign-ins at the same moment, each in its own transaction, on a real
 * PostgreSQL server (DATABASE_URL's, else a private one: the embedded database runs one transaction
 * at a time, so it cannot race); and migration auth/0007 on links written before it.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { modules } from '../../../core/main.ts'
import { type Database, openDatabase } from '../../../db/client.ts'
import { emptyDatabase, migrationsBefore, tableAsItWas, usingPostgres } from '../../../tests/helpers.ts'
import { scratchPostgresDatabase } from '../../../tests/reliability/processes.ts'
import auth from '../index.ts'
import { ssoLinks } from '../table.ts'
import { requireSameProviderAccount } from './sso-links.ts'

setDefaultTimeout(120_000)

const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
	for (const clean of cleanups.reverse()) await clean()
})

/** A migrated PostgreSQL database of its own: a scratch one on DATABASE_URL's server, else a private cluster. */
async function postgresDatabase(): Promise<Database> {
	if (usingPostgres()) {
		const scratch = await emptyDatabase()
		cleanups.push(() => scratch.close())
		await scratch.database.migrate(modules)
		return scratch.database
	}
	const created = await scratchPostgresDatabase()
	const database = await openDatabase({ databaseUrl: created.url, dataDir: '' })
	cleanups.push(async () => {
		await database.close()
		await created.drop()
	})
	await database.migrate(modules)
	return database
}

/** Runs `sign` for each subject in transactions of their own that have all started before any of them links. */
async function atOnce(database: Database, subjects: string[], sign: (tx: Parameters<typeof requireSameProviderAccount>[0], subject: string) => Promise<void>) {
	let started = 0
	let go!: () => void
	const gate = new Promise<void>((resolve) => (go = resolve))
	return Promise.all(
		subjects.map((subject) =>
			database.db
				.transaction(async (tx) => {
					await tx.execute(sql`select 1`)
					if (++started === subjects.length) go()
					await gate
					await sign(tx as never, subject)
				})
				.then(
					() => 'signed in',
					(error: Error) => error.message,
				),
		),
	)
}

describe('two first sign-ins at the same moment', () => {
	test('two provider accounts with one address: one is linked and signs in, the other is refused; the link is never overwritten', async () => {
		const database = await postgresDatabase()
		await database.rows(sql`insert into workspaces (id, slug, name) values ('ws_race', 'race', 'Race')`)
		for (let i = 0; i < 6; i++) {
			const userId = `usr_race_${i}`
			await database.rows(sql`insert into users (id, email, name, password_hash) values (${userId}, ${`p${i}@race.example`}, 'P', 'x')`)
			const subjects = [`real-${i}`, `other-${i}`]
			const results = await atOnce(database, subjects, (tx, subject) =>
				requireSameProviderAccount(tx, {
					workspaceId: 'ws_race',
					userId,
					email: `p${i}@race.example`,
					issuer: 'https://idp.race.example',
					subject,
					now: new Date(),
				}),
			)
			expect(results.filter((r) => r === 'signed in')).toHaveLength(1)
			expect(results.find((r) => r !== 'signed in')).toContain('signed in here before with another account at your identity provider')
			const [link] = await database.db.select({ subject: ssoLinks.subject }).from(ssoLinks).where(eq(ssoLinks.userId, userId))
			expect(link!.subject).toBe(subjects[results.indexOf('signed in')]!)
		}
	})

	test('one provider account sending two people’s addresses: it is linked to one of them only', async () => {
		const database = await postgresDatabase()
		await database.rows(sql`insert into workspaces (id, slug, name) values ('ws_race2', 'race2', 'Race 2')`)
		for (let i = 0; i < 6; i++) {
			const people = [`usr_a_${i}`, `usr_b_${i}`]
			for (const id of people) await database.rows(sql`insert into users (id, email, name, password_hash) values (${id}, ${`${id}@race2.example`}, 'P', 'x')`)
			const results = await atOnce(database, people, (tx, userId) =>
				requireSameProviderAccount(tx, {
					workspaceId: 'ws_race2',
					userId,
					email: `${userId}@race2.example`,
					issuer: 'https://idp.race.example',
					subject: `sub-${i}`,
					now: new Date(),
				}),
			)
			expect(results.filter((r) => r === 'signed in')).toHaveLength(1)
			expect(results.find((r) => r !== 'signed in')).toContain('is linked to another Benchline account here')
			expect(
				await database.db
					.select()
					.from(ssoLinks)
					.where(eq(ssoLinks.subject, `sub-${i}`)),
			).toHaveLength(1)
		}
	})
})

describe('upgrading', () => {
	test('auth/0007: a provider account linked to several people keeps its first link only', async () => {
		const before = migrationsBefore(fileURLToPath(auth.migrations!), 'sso_link_subject')
		// sso_links as 0005 made it (start-up checks the declared tables and columns exist).
		const oldLinks = pgTable(
			'sso_links',
			{
				workspaceId: text('workspace_id').notNull(),
				userId: text('user_id').notNull(),
				issuer: text('issuer').notNull(),
				subject: text('subject').notNull(),
				linkedAt: timestamp('linked_at', { withTimezone: true, precision: 3 }).notNull(),
			},
			(t) => [primaryKey({ columns: [t.workspaceId, t.userId] })],
		)
		const tables = { workspaces: tableAsItWas('workspaces'), users: tableAsItWas('users'), oldLinks }
		const earlier = modules.map((m) => (m === auth ? { ...m, migrations: pathToFileURL(`${before.folder}/`), tables } : m))
		const scratch = await emptyDatabase()
		try {
			await scratch.database.migrate(earlier)
			const db = scratch.database
			await db.rows(sql`insert into workspaces (id, slug, name) values ('ws_a', 'a', 'A'), ('ws_b', 'b', 'B')`)
			await db.rows(
				sql`insert into users (id, email, name, password_hash) values ('usr_1', '1@a.example', 'P', 'x'), ('usr_2', '2@a.example', 'P', 'x'), ('usr_3', '3@a.example', 'P', 'x')`,
			)
			await db.rows(sql`insert into sso_links (workspace_id, user_id, issuer, subject, linked_at) values
				('ws_a', 'usr_2', 'https://idp', 'bob', '2026-01-02'), ('ws_a', 'usr_1', 'https://idp', 'bob', '2026-01-01'), ('ws_a', 'usr_3', 'https://idp', 'carol', '2026-01-03'),
				('ws_b', 'usr_2', 'https://idp', 'bob', '2026-01-05'), ('ws_a', 'usr_3', 'https://other-idp', 'bob', '2026-01-04')
				on conflict do nothing`)
			await db.migrate(modules)
			const links = await db.db.select().from(ssoLinks).orderBy(ssoLinks.workspaceId, ssoLinks.userId)
			expect(links.map((l) => `${l.workspaceId} ${l.userId} ${l.subject}`)).toEqual(['ws_a usr_1 bob', 'ws_a usr_3 carol', 'ws_b usr_2 bob'])
		} finally {
			await scratch.close()
			before.remove()
		}
	})
})
