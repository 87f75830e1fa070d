/**
 * Security checklist rows H1 and H2: how credentials look and how they are stored.
 *
 * H1: a credential with one character changed fails its checksum and is refused before the database
 * is asked anything. The app under test runs on a database handle that counts every statement at
 * the driver (PGlite's query/exec/transaction, postgres.js's unsafe/begin/savepoint/reserve), below
 * drizzle, so prepared credential lookups are counted too. 100 000 fresh credentials of each type
 * are unique and pass their own checksum.
 *
 * H2: after every kind of secret is issued, every text-like column of every table is searched for
 * it: only its SHA-256 is there. The upload link reaches the candidate by e-mail (a real SMTP server)
 * and is taken from the mail received, as the candidate would.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq, sql } from 'drizzle-orm'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js'
import { credentialType, hashSecret, newCredential, type CredentialType } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { createApp } from '../../core/main.ts'
import type { Db } from '../../db/client.ts'
import { personActor } from '../../modules/auth/index.ts'
import { requestCandidateDocuments } from '../../modules/documents/requests.ts'
import { deliverDue } from '../../modules/outbox/index.ts'
import { outbox } from '../../modules/outbox/table.ts'
import { logLines, newPerson, newPersonWithToken, newVendor, newWorkspace, testDeps } from '../helpers.ts'
import { startSmtp, type TestSmtp } from '../smtp.ts'
import { newCandidate } from '../staffing-fixtures.ts'
import { connectedApp, freshCode } from './as-client.ts'

setDefaultTimeout(120_000)

let smtp: TestSmtp
beforeAll(async () => {
	smtp = await startSmtp()
})
afterAll(() => smtp.stop())

const STATEMENT_ENTRIES = new Set(['query', 'exec', 'transaction', 'unsafe', 'begin', 'savepoint', 'reserve'])

/**
 * The test database behind a handle that counts statements: a second drizzle instance on the same
 * driver client, seen through a proxy that counts each call that sends SQL.
 */
async function countingDeps() {
	const base = await testDeps()
	let statements = 0
	const client = (base.db as unknown as { $client: object }).$client
	const counted = new Proxy(client, {
		get(target, prop, receiver) {
			const value = Reflect.get(target, prop, receiver)
			if (typeof value !== 'function') return value
			return (...args: unknown[]) => {
				if (STATEMENT_ENTRIES.has(String(prop))) statements++
				return value.apply(target, args)
			}
		},
		apply(target, thisArg, args) {
			statements++ // postgres.js tagged-template queries
			return Reflect.apply(target as (...a: unknown[]) => unknown, thisArg, args)
		},
	})
	const db = (base.database.kind === 'pglite' ? drizzlePglite({ client: counted as never }) : drizzlePostgres({ client: counted as never })) as unknown as Db
	const database = { ...base.database, db, rows: <T>(query: Parameters<typeof base.database.rows>[0], handle: Db = db) => base.database.rows<T>(query, handle) }
	const deps: AppDeps = { ...base, db, database }
	const app = createApp(deps)
	return {
		/** Sends one request and says how many statements it made. */
		async request(path: string, init: RequestInit = {}) {
			const before = statements
			const res = await app.handle(new Request(`http://localhost${path}`, init))
			await res.text()
			// Work the answer does not wait for (last-used stamps) is counted too.
			await Bun.sleep(20)
			return { status: res.status, statements: statements - before }
		},
	}
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** The credential with the character at `index` (counted from its random body) replaced by another base62 one. */
function flipped(token: string, index: number): string {
	const at = token.lastIndexOf('_') + 1 + index
	const c = token[at]!
	return token.slice(0, at) + BASE62[(BASE62.indexOf(c) + 17) % 62] + token.slice(at + 1)
}

/** Body positions changed: first, middle, last random character, and inside the 6-character checksum. */
const POSITIONS = [0, 15, 29, 30, 35]

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const mcpCall = (token: string): RequestInit => ({
	method: 'POST',
	headers: { ...bearer(token), 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
	body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
})
const form = (fields: Record<string, string>): RequestInit => ({
	method: 'POST',
	headers: { 'content-type': 'application/x-www-form-urlencoded' },
	body: new URLSearchParams(fields).toString(),
})

/** One of each secret the portal hands out, issued the ordinary way. */
async function issueEverything() {
	const deps = await testDeps()
	const ws = await newWorkspace()
	const vendor = await newVendor(ws)
	const pat = await newPersonWithToken(ws, 'recruiter')
	const app = await connectedApp()
	const code = await freshCode()
	const recruiter = await personActor(deps, ws.slug, (await newPerson(ws, 'recruiter')).email)
	const candidateId = await newCandidate(ws, { phone: '+1 512 555 0100', resume: false })
	// Requested on a server with SMTP_URL (without it the mail would be held in the dev mailbox).
	const request = await requestCandidateDocuments(await testDeps({ SMTP_URL: smtp.url }), recruiter, { candidateId, items: ['dl', 'visa'] })
	// The e-mail goes out; the text message is recorded as not sent (no provider).
	const [mail] = await deps.db
		.select({ to: outbox.to })
		.from(outbox)
		.where(and(eq(outbox.relatedId, request.id), eq(outbox.channel, 'email')))
	expect(await deliverDue(await testDeps({ SMTP_URL: smtp.url }), { workspaceId: ws.id })).toEqual({ sent: 1, retried: 0, failed: 0 })
	const uploadLink = /\/upload\/(bl_ul_[0-9A-Za-z]+)/.exec(smtp.to(mail!.to)[0]!.parsed.text!)![1]!
	const session = app.portal.cookies.get('bl_session')!
	return { deps, ws, vendor, pat, app, code, request, uploadLink, session }
}

describe('H1 typed credentials with a checksum', () => {
	test('H1 a credential with one character changed is refused before any database statement, for every type with a checksum; the right one does reach the database', async () => {
		const { vendor, pat, app, code, uploadLink } = await issueEverything()
		const counted = await countingDeps()
		const jobs = (key: string) => counted.request('/api/v1/jobs', { headers: bearer(key) })
		const mcp = (token: string) => counted.request('/api/mcp', mcpCall(token))
		const exchange = (c: string) =>
			counted.request(
				'/oauth/token',
				form({ grant_type: 'authorization_code', code: c, code_verifier: code.verifier, redirect_uri: code.redirectUri, client_id: code.client.client_id }),
			)
		const refresh = (t: string) => counted.request('/oauth/token', form({ grant_type: 'refresh_token', refresh_token: t, client_id: app.client.client_id }))
		const revoke = (t: string) => counted.request('/oauth/revoke', form({ token: t, client_id: app.client.client_id }))
		const upload = (t: string) => counted.request(`/upload/${t}`)

		const cases: { type: CredentialType; token: string; send: (t: string) => Promise<{ status: number; statements: number }>; refused: number }[] = [
			{ type: 'vk', token: vendor.apiKey, send: jobs, refused: 401 },
			{ type: 'pat', token: pat.token, send: mcp, refused: 401 },
			{ type: 'at', token: app.tokens.access_token, send: mcp, refused: 401 },
			{ type: 'rt', token: app.tokens.refresh_token, send: refresh, refused: 400 },
			{ type: 'code', token: code.code, send: exchange, refused: 400 },
			{ type: 'ul', token: uploadLink, send: upload, refused: 404 },
		]
		const seen: Record<string, { status: number; statements: number }[]> = {}
		for (const c of cases) {
			expect(credentialType(c.token)).toBe(c.type)
			seen[c.type] = []
			for (const position of POSITIONS) {
				const bad = flipped(c.token, position)
				expect(bad).not.toBe(c.token)
				expect(credentialType(bad)).toBeNull()
				seen[c.type]!.push(await c.send(bad))
			}
		}
		// Revocation (RFC 7009 answers 200 whatever the token) and the other door's prefix: no statement either.
		const elsewhere = {
			revokeAccess: await revoke(flipped(app.tokens.access_token, 3)),
			revokeRefresh: await revoke(flipped(app.tokens.refresh_token, 31)),
			personalTokenAtRest: await jobs(pat.token),
			vendorKeyAtMcp: await mcp(vendor.apiKey),
		}
		const expected = Object.fromEntries(cases.map((c) => [c.type, POSITIONS.map(() => ({ status: c.refused, statements: 0 }))]))
		expect(seen).toEqual(expected)
		expect(elsewhere).toEqual({
			revokeAccess: { status: 200, statements: 0 },
			revokeRefresh: { status: 200, statements: 0 },
			personalTokenAtRest: { status: 401, statements: 0 },
			vendorKeyAtMcp: { status: 401, statements: 0 },
		})

		// The same requests with the credential as issued are looked up (the counter sees prepared lookups too).
		const right = {
			vk: await jobs(vendor.apiKey),
			pat: await mcp(pat.token),
			at: await mcp(app.tokens.access_token),
			code: await exchange(code.code),
			rt: await refresh(app.tokens.refresh_token),
			ul: await upload(uploadLink),
		}
		expect(Object.fromEntries(Object.entries(right).map(([k, v]) => [k, v.status]))).toEqual({ vk: 200, pat: 200, at: 200, code: 200, rt: 200, ul: 200 })
		for (const [type, r] of Object.entries(right)) expect({ type, looked: r.statements > 0 }).toEqual({ type, looked: true })
	})

	test('H1 100 000 new credentials of each type: the typed shape, all distinct, each passes its own checksum', () => {
		const types: CredentialType[] = ['vk', 'pat', 'at', 'rt', 'code', 'ul']
		const all = new Set<string>()
		const bodies = new Set<string>()
		for (const type of types) {
			const shape = new RegExp(`^bl_${type}_[0-9A-Za-z]{36}$`)
			for (let i = 0; i < 100_000; i++) {
				const token = newCredential(type)
				if (!shape.test(token) || credentialType(token) !== type) throw new Error(`${token} does not have the ${type} shape or checksum`)
				all.add(token)
				bodies.add(token.slice(-36, -6))
			}
		}
		expect(all.size).toBe(600_000)
		// The 30 random characters alone are distinct too (no type shares a body with another).
		expect(bodies.size).toBe(600_000)
	})
})

/** Every text-like column (text, varchar, char, json, jsonb, bytea, arrays) of every table. */
async function textColumns(deps: AppDeps) {
	const rows = await deps.database.rows<{ schema: string; table: string; column: string }>(sql`
		select c.table_schema as schema, c.table_name as table, c.column_name as column
		from information_schema.columns c
		join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
		where t.table_type = 'BASE TABLE' and c.table_schema not in ('pg_catalog', 'information_schema')
		  and c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb', 'bytea', 'ARRAY')
		order by 1, 2, 3`)
	const tables = new Map<string, string[]>()
	for (const r of rows) tables.set(`"${r.schema}"."${r.table}"`, [...(tables.get(`"${r.schema}"."${r.table}"`) ?? []), r.column])
	return tables
}

/** `table.column` of every value that contains one of the needles, per needle. */
async function whereStored(deps: AppDeps, needles: string[]): Promise<Map<string, Set<string>>> {
	const found = new Map(needles.map((n) => [n, new Set<string>()]))
	const q = (name: string) => `"${name.replaceAll('"', '""')}"`
	for (const [table, columns] of await textColumns(deps)) {
		const all = sql.raw(`concat_ws(chr(10), ${columns.map((c) => `${q(c)}::text`).join(', ')})`)
		const anyNeedle = sql.join(
			needles.map((n) => sql`strpos(${all}, ${n}) > 0`),
			sql.raw(' or '),
		)
		const rows = await deps.database.rows<Record<string, unknown>>(
			sql`select ${sql.raw(columns.map((c) => `${q(c)}::text as ${q(c)}`).join(', '))} from ${sql.raw(table)} where ${anyNeedle}`,
		)
		for (const row of rows)
			for (const [column, value] of Object.entries(row))
				for (const n of needles) if (typeof value === 'string' && value.includes(n)) found.get(n)!.add(`${table.split('.')[1]!.replaceAll('"', '')}.${column}`)
	}
	return found
}

const hex = (s: string) => Buffer.from(s).toString('hex')

describe('H2 secrets are stored only as their SHA-256', () => {
	test('H2 after a vendor key, a personal token, an OAuth code, access and refresh token, a session and an upload link are issued, no column of any table holds one (the upload link not even in the outbox rows that delivered it, sealed or plain); their SHA-256 is stored', async () => {
		const { deps, vendor, pat, app, code, uploadLink, session, request } = await issueEverything()
		const secrets: Record<string, { value: string; hashAt: string }> = {
			'vendor key': { value: vendor.apiKey, hashAt: 'vendor_api_keys.key_hash' },
			'personal token': { value: pat.token, hashAt: 'personal_tokens.token_hash' },
			'OAuth code': { value: code.code, hashAt: 'oauth_codes.id' },
			'access token': { value: app.tokens.access_token, hashAt: 'oauth_tokens.id' },
			'refresh token': { value: app.tokens.refresh_token, hashAt: 'oauth_tokens.id' },
			'session cookie': { value: session, hashAt: 'sessions.id' },
			'upload link': { value: uploadLink, hashAt: 'document_requests.token_hash' },
		}
		// The secret, its random body without the prefix (base62), and the bytes as bytea would show them.
		const forms = (s: string) => [s, s.replace(/^bl_[a-z]+_/, ''), hex(s)]
		const needles = Object.values(secrets).flatMap((s) => [...forms(s.value), hashSecret(s.value)])
		const found = await whereStored(deps, needles)

		const plain: Record<string, string[]> = {}
		const hashed: Record<string, string[]> = {}
		for (const [what, s] of Object.entries(secrets)) {
			plain[what] = [...new Set(forms(s.value).flatMap((n) => [...found.get(n)!]))].sort()
			hashed[what] = [...found.get(hashSecret(s.value))!]
		}
		const nowhere: Record<string, string[]> = Object.fromEntries(Object.keys(secrets).map((k) => [k, []]))
		expect(plain).toEqual(nowhere)
		// The e-mail that delivered the link and the text message that could not go show a marker in
		// its place, and keep no sealed copy either (erased once sent, never kept for a message not sent).
		const linkRows = await deps.db
			.select({ status: outbox.status, text: outbox.text, sealed: outbox.privateSealed })
			.from(outbox)
			.where(eq(outbox.relatedId, request.id))
		expect(linkRows.map((r) => [r.status, r.sealed, r.text.includes('[private link, sent to the recipient only]')]).sort()).toEqual([
			['not_sent', null, true],
			['sent', null, true],
		])
		expect(hashed).toEqual(Object.fromEntries(Object.entries(secrets).map(([k, s]) => [k, [s.hashAt]])))
		// Hex SHA-256 only: 64 characters, the 32-byte digest.
		for (const s of Object.values(secrets)) expect(hashSecret(s.value)).toMatch(/^[0-9a-f]{64}$/)
		// And no log line of the run so far carries any of them.
		for (const s of Object.values(secrets)) expect(logLines.filter((line) => forms(s.value).some((n) => line.includes(n)))).toEqual([])
	})
})
