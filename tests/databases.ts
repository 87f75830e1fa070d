/**
 * Databases the tests make on the PostgreSQL server of DATABASE_URL: a test's scratch database
 * (`emptyDatabase` in helpers.ts) and a test worker's own (tests/setup.ts). Light on purpose: setup.ts
 * loads it before anything reads the configuration.
 */
import postgres from 'postgres'

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`

/** The address of database `name` on the server of `serverUrl`. */
function databaseUrl(serverUrl: string, name: string): string {
	const url = new URL(serverUrl)
	url.pathname = `/${encodeURIComponent(name)}`
	return url.href
}

/** Runs `statements` on one connection to the server of `serverUrl`, then closes it. */
async function onServer(serverUrl: string, statements: string[]): Promise<void> {
	const admin = postgres(serverUrl, { max: 1, onnotice: () => {} })
	try {
		for (const statement of statements) await admin.unsafe(statement)
	} finally {
		await admin.end()
	}
}

/** Database `name` made empty on the server of `serverUrl` (one left by an earlier run is dropped first); its address. */
export async function freshDatabase(serverUrl: string, name: string): Promise<string> {
	await onServer(serverUrl, [`drop database if exists ${quoted(name)} with (force)`, `create database ${quoted(name)}`])
	return databaseUrl(serverUrl, name)
}

/** Drops database `name` on the server of `serverUrl`, whoever is still connected to it. */
export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
	await onServer(serverUrl, [`drop database if exists ${quoted(name)} with (force)`])
}

/**
 * The database a `bun test --parallel` worker runs on, when it is not DATABASE_URL's own: worker 1 and
 * a run without DATABASE_URL need none; every other worker gets `<database>_w<N>`. A `bun test` that a
 * test starts inherits the worker's id and its database, marked by BENCHLINE_TEST_WORKER_DATABASE: it
 * keeps that one (else a `_w2_w2` nobody drops).
 */
export function workerDatabaseName(env: Record<string, string | undefined>): string | null {
	const worker = Number(env.BUN_TEST_WORKER_ID ?? 1)
	if (!env.DATABASE_URL || worker <= 1 || env.BENCHLINE_TEST_WORKER_DATABASE) return null
	return `${decodeURIComponent(new URL(env.DATABASE_URL).pathname.slice(1))}_w${worker}`
}
