/**
 * JSON-line logger on stderr. Secrets never reach a log line: anything shaped like one of our
 * credentials, a bearer header or a session cookie is masked before writing. No character a terminal
 * acts on reaches it raw either (`escapeControls`, on the whole line).
 */
import { CREDENTIAL_TYPE_GROUP, SIGNING_SECRET_SOURCE } from './credentials.ts'
import { currentRequest } from './request-context.ts'

/** Minimum level of the lines written (`LOG_LEVEL`, read by core/config.ts). */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent'

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 }
// Masking works on each string of an entry before it is serialized (so a line stays valid JSON),
// and on the values of fields whose name says they hold a secret. A string may itself hold JSON text
// (a logged body), with its quotes escaped once or more: the key pattern allows for that.
// tests/reliability/redaction.test.ts pins every credential shape.
const KEYS = 'password|token|apiKey|api_key|secret|client_secret|code_verifier|refresh_token|access_token|authorization|cookie|csrf'
const SECRET_FIELD = new RegExp(`^(${KEYS}|set-cookie)$`, 'i')
const REDACTIONS: [RegExp, string][] = [
	[new RegExp(`bl_${CREDENTIAL_TYPE_GROUP}_[0-9A-Za-z]{8,}`, 'g'), 'bl_[redacted]'],
	[new RegExp(SIGNING_SECRET_SOURCE, 'g'), 'whsec_[redacted]'],
	[/\b(bearer|basic)(\s+)[^\s",\\]+/gi, '$1$2[redacted]'],
	[/\b((?:__Host-)?bl_session|session|csrf)=[^;&\s",\\]+/gi, '$1=[redacted]'],
	[/\b(code_verifier|refresh_token|access_token|client_secret|token|code|password)=[^&\s",\\]+/gi, '$1=[redacted]'],
	[new RegExp(`"(${KEYS})"\\s*:\\s*"(?:[^"\\\\]|\\\\.)*"`, 'gi'), '"$1":"[redacted]"'],
	[new RegExp(`(\\\\+")(${KEYS})\\1\\s*:\\s*\\1(?:(?!\\1).)*?\\1`, 'gi'), '$1$2$1:$1[redacted]$1'],
	// Passwords in connection strings: scheme://user:secret@host
	[/\b([a-z][a-z0-9+.-]*:\/\/[^:/\s"@\\]*:)[^@\s"\\/]+@/gi, '$1[redacted]@'],
]

/**
 * Characters a terminal acts on instead of showing: C0 and C1 controls (ESC and CSI start sequences
 * that move the cursor, retitle the window or rewrite what was printed), DEL, and the invisible and
 * direction-changing format characters (U+202E shows what follows reversed).
 */
const TERMINAL_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g
const SHORT_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' }

/**
 * The text with every such character written as its escape (`\n`, `\u001b`, `\u202e`), so stored
 * text printed on an operator's terminal shows as what it is. The escapes are JSON's: applied to
 * JSON text, which can hold these characters only inside strings, it stays the same JSON value.
 */
export const escapeControls = (text: string): string =>
	text.replace(TERMINAL_CONTROLS, (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)

/** Masks anything that looks like a secret. Applied to every log line. */
export function redact(text: string): string {
	let out = text
	for (const [pattern, replacement] of REDACTIONS) out = out.replace(pattern, replacement)
	return out
}

export interface Logger {
	debug(message: string, fields?: Record<string, unknown>): void
	info(message: string, fields?: Record<string, unknown>): void
	warn(message: string, fields?: Record<string, unknown>): void
	error(message: string, fields?: Record<string, unknown>): void
}

/**
 * What a log line keeps of a database error: its SQLSTATE and the names of the constraint, column and
 * table it concerns (PGlite's and postgres.js's spellings), never its message nor its detail, which
 * hold the values bound to the statement (22P02 `invalid input syntax for type integer: "<value>"`,
 * 23505 `Key (email)=(<value>) already exists`). Undefined when `e` is not a database's error.
 */
function databaseFacts(e: Error): Record<string, unknown> | undefined {
	const x = e as unknown as Record<string, unknown>
	if (typeof x.code !== 'string' || !/^[0-9A-Z]{5}$/.test(x.code) || typeof x.severity !== 'string') return undefined
	const name = (...values: unknown[]) => values.find((v) => typeof v === 'string' && v !== '')
	const facts: Record<string, unknown> = {
		code: x.code,
		constraint: name(x.constraint, x.constraint_name),
		column: name(x.column, x.column_name),
		table: name(x.table, x.table_name),
	}
	return Object.fromEntries(Object.entries(facts).filter(([, v]) => v !== undefined))
}

/** The stack's frames only: its first line repeats the message. */
const framesOf = (stack: string | undefined) =>
	stack
		?.split('\n')
		.filter((line) => line.trimStart().startsWith('at '))
		.join('\n')

/**
 * What a log line keeps of an error. drizzle wraps driver errors as "Failed query: <sql> params:
 * <values>": the values are people's data, so a failed query is logged by its driver cause only, and
 * a database's error (the cause, or the error itself) by its SQLSTATE and names (`databaseFacts`).
 */
export function describeError(err: Error): Record<string, unknown> {
	const cause = err.cause instanceof Error ? err.cause : undefined
	const own = databaseFacts(err)
	const ofCause = cause ? databaseFacts(cause) : undefined
	const failedQuery = err.message.startsWith('Failed query:')
	const code = (err as { code?: unknown }).code ?? (cause as { code?: unknown } | undefined)?.code
	return {
		...(own ?? {}),
		message: failedQuery || own ? 'database query failed' : err.message,
		code,
		stack: failedQuery || own ? framesOf(err.stack) : err.stack,
		...(cause ? { cause: ofCause ?? { message: cause.message, code: (cause as { code?: unknown }).code } } : {}),
	}
}

export function createLogger(level: LogLevel, write: (line: string) => void = (line) => process.stderr.write(line + '\n')): Logger {
	const at = (lvl: Exclude<LogLevel, 'silent'>) => (message: string, fields?: Record<string, unknown>) => {
		if (ORDER[lvl] < ORDER[level]) return
		// A line written while a request is handled names it (and its trace, when tracing is on).
		const request = currentRequest()
		const entry: Record<string, unknown> = {
			t: new Date().toISOString(),
			level: lvl,
			msg: message,
			...(request?.requestId && { requestId: request.requestId }),
			...(request?.traceId && { traceId: request.traceId }),
			...fields,
		}
		const err = fields?.error
		if (err instanceof Error) entry.error = describeError(err)
		// JSON escapes C0 controls only: C1 controls (U+009B starts a terminal sequence), DEL, the line and
		// paragraph separators and the direction marks are escaped here, for every string of the line at once.
		write(escapeControls(JSON.stringify(entry, (key, value) => (typeof value !== 'string' ? value : SECRET_FIELD.test(key) ? '[redacted]' : redact(value)))))
	}
	return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
}
