/**
 * No secret reaches a log line: every credential shape the service issues or receives, in every
 * place it could show up in a log entry (message, field, nested object, error message and stack,
 * header, cookie, form body, URL, JSON text inside a string), is masked by core/log.ts. `.ci/run`
 * also scans the log of the whole test run (server processes included) for credential shapes.
 */
import { describe, expect, test } from 'bun:test'
import { resolve } from 'node:path'
import { CREDENTIAL_TYPES, newCredential, randomToken } from '../../core/credentials.ts'
import { createLogger, redact } from '../../core/log.ts'
import { withoutCredentials } from '../../core/untrusted.ts'
import { sql } from 'drizzle-orm'
import { testDeps } from '../helpers.ts'
import { newSigningSecret } from '../../modules/webhooks/secrets.ts'

const TYPES = CREDENTIAL_TYPES

/** [what, a secret, the text that carries it]. */
function shapes(): [string, string, string][] {
	const out: [string, string, string][] = []
	for (const type of TYPES) {
		const c = newCredential(type)
		out.push(
			[`bl_${type} credential alone`, c, c],
			[`bl_${type} in a path`, c, `/upload/${c}/files`],
			[`bl_${type} in JSON text`, c, JSON.stringify({ value: c })],
		)
	}
	// Webhook signing secrets (Standard Webhooks' `whsec_` + base64): a receiver's, shown once like the others.
	for (const w of [newSigningSecret(), newSigningSecret()])
		out.push(
			['webhook signing secret alone', w, w],
			['webhook signing secret in JSON text', w, JSON.stringify({ value: w })],
			['webhook signing secret in a sentence', w, `use ${w}.`],
		)
	const s = () => randomToken()
	const secret = (x = s()) => x
	let v: string
	out.push(
		['bearer header', (v = secret()), `Authorization: Bearer ${v}`],
		['bearer, lower case', (v = secret()), `authorization: bearer ${v}`],
		['basic header', (v = btoa(`client:${secret()}`)), `Authorization: Basic ${v}`],
		['session cookie', (v = secret()), `Cookie: bl_session=${v}; csrf=abc`],
		['secure session cookie', (v = secret()), `cookie: __Host-bl_session=${v}`],
		['csrf cookie', (v = secret()), `Cookie: csrf=${v}`],
		['set-cookie', (v = secret()), `Set-Cookie: bl_session=${v}; Path=/; HttpOnly`],
		['form: code', (v = secret()), `grant_type=authorization_code&code=${v}&redirect_uri=x`],
		['form: code_verifier', (v = secret()), `code_verifier=${v}`],
		['form: refresh_token', (v = secret()), `grant_type=refresh_token&refresh_token=${v}`],
		['form: token (revocation)', (v = secret()), `token=${v}&token_type_hint=refresh_token`],
		['form: password', (v = secret()), `email=a%40b.c&password=${v}`],
		['form: client_secret', (v = secret()), `client_id=c&client_secret=${v}`],
		['query: access_token', (v = secret()), `/api/mcp?access_token=${v}`],
		['JSON: password', (v = secret()), `{"email":"a@b.c","password":"${v}"}`],
		['JSON: password with a quote and a backslash', (v = `q"${secret()}\\x`), JSON.stringify({ password: v })],
		['JSON: client_secret', (v = secret()), `{"client_secret":"${v}"}`],
		['JSON: authorization', (v = secret()), `{"authorization":"${v}"}`],
		['JSON: apiKey', (v = secret()), `{"apiKey":"${v}"}`],
		['JSON: csrf', (v = secret()), `{"csrf":"${v}"}`],
		['database URL password', (v = secret()), `postgres://benchline:${v}@db.internal:5432/benchline`],
		['SMTP URL password', (v = secret()), `smtp://mailer:${v}@smtp.example.com:587`],
		['Redis URL password', (v = secret()), `redis://:${v}@cache:6379/0`],
	)
	return out
}

describe('log redaction (core/log.ts)', () => {
	test('redact() masks every credential shape', () => {
		const leaks = shapes()
			.filter(([, secret, text]) => redact(text).includes(secret))
			.map(([what, , text]) => `${what}: ${redact(text)}`)
		expect(leaks).toEqual([])
	})

	test('a database error is logged by its SQLSTATE, constraint, column and table: never the values its message or detail quote', async () => {
		const deps = await testDeps()
		const lines: string[] = []
		const log = createLogger('info', (line) => lines.push(line))
		const value = `jane.${randomToken()}@example.test`
		// The run's own driver (PGlite, or postgres.js with DATABASE_URL), through drizzle: "Failed query", its cause 22P02.
		const failed = await deps.db.execute(sql`select ${value}::int`).catch((e: Error) => e)
		log.error('unhandled error', { error: failed })
		// A driver's error thrown as it is, in postgres.js's spelling: a unique violation quoting the key.
		const duplicate = Object.assign(new Error(`duplicate key value violates unique constraint "people_email_key"`), {
			name: 'PostgresError',
			severity: 'ERROR',
			code: '23505',
			detail: `Key (email)=(${value}) already exists.`,
			constraint_name: 'people_email_key',
			table_name: 'people',
			column_name: 'email',
		})
		log.warn('write refused', { error: duplicate })
		const [first, second] = lines.map((l) => JSON.parse(l))
		expect(first.error).toMatchObject({ message: 'database query failed', code: '22P02', cause: { code: '22P02' } })
		expect(second.error).toMatchObject({ message: 'database query failed', code: '23505', constraint: 'people_email_key', table: 'people', column: 'email' })
		expect(lines.filter((l) => l.includes(value))).toEqual([])
	})

	test('a logged entry never carries one: message, fields, nested objects, JSON inside strings, errors', () => {
		const lines: string[] = []
		const log = createLogger('debug', (line) => lines.push(line))
		for (const [what, secret, text] of shapes()) {
			lines.length = 0
			log.info(`request failed: ${text}`, {
				header: text,
				nested: { deeper: [{ value: text }] },
				body: JSON.stringify({ raw: text }),
				error: new Error(`upstream said ${text}`),
			})
			for (const line of lines) expect({ what, leaked: line.includes(secret) }).toEqual({ what, leaked: false })
			expect(() => JSON.parse(lines[0]!)).not.toThrow() // masking keeps the line valid JSON
		}
	})

	test('every credential type is caught by the CI scan of the run’s log (.ci/run) and blanked in text for assistants', async () => {
		const script = await Bun.file(resolve(import.meta.dir, '../../.ci/run')).text()
		// The scan greps the log for the shapes the script lists once, and masks what it shows of them.
		const shapes = /^SECRET_SHAPES='([^']+)'$/m.exec(script)?.[1]
		expect(shapes).toBeDefined()
		expect(script).toContain('grep -cE "$SECRET_SHAPES" .tmp/test-log.jsonl')
		const scan = new RegExp(shapes!)
		for (const type of TYPES) {
			const credential = newCredential(type)
			expect({ type, scanned: scan.test(`{"msg":"${credential}"}`) }).toEqual({ type, scanned: true })
			expect({ type, blanked: withoutCredentials(`see https://x.test/a/${credential} now`) }).toEqual({ type, blanked: 'see [credential removed] now' })
		}
		expect({ type: 'webhook signing secret', scanned: scan.test(`{"msg":"${newSigningSecret()}"}`) }).toEqual({ type: 'webhook signing secret', scanned: true })
	})

	test('a webhook signing secret pasted into stored text (a note, a message) is blanked as a credential is', () => {
		const secret = newSigningSecret()
		expect(withoutCredentials(`the receiver's secret is ${secret}, keep it`)).toBe("the receiver's secret is [credential removed], keep it")
	})

	test('plain text and ids are left alone', () => {
		for (const text of [
			'job_abc123 published by vendor ven_x',
			'GET /careers/demo/jobs/senior-java',
			'token created',
			'{"name":"Load token"}',
			'code review done',
		])
			expect(redact(text)).toBe(text)
	})
})
