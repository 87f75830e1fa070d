/**
 * The trail is written behind the work it records: a line joins this instance's buffer and the
 * buffer goes to the database in one multi-row insert, at most a fifth of a second later or at 200
 * lines, so recording adds no round trip to a tool call or a page. Stopping the server writes what
 * is left. A failed write keeps its lines for the next try (up to a bound, so a database that stays
 * away cannot take the memory; what is dropped is logged as a count).
 *
 * A line holds what callers typed (search words, tool arguments): the database refuses a NUL and a
 * lone surrogate in text and jsonb, so both become U+FFFD as the line is added. A batch the database
 * refuses for its data (SQLSTATE classes 22 and 23) is written line by line and only the refused
 * lines are dropped: one bad line once held every later line of the instance back for good (any
 * caller could stop the trail with one NUL).
 */
import { getTableColumns, sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { compile } from '../../db/client.ts'
import { outsideRequest } from '../../core/request-context.ts'
import { auditLog } from './table.ts'

export type AuditLine = typeof auditLog.$inferInsert
type WriterDeps = Pick<AppDeps, 'database' | 'log'>

// A batch is one statement of one text whatever its size: the lines go as one JSON array that the
// database turns into rows. Built once, it stays prepared; a multi-row insert built by drizzle per
// batch cost 3 % of a tool call's JavaScript, and a text per batch size would each be prepared.
const COLUMNS = Object.entries(getTableColumns(auditLog)).filter(([key]) => key !== 'seq') as [keyof AuditLine, { name: string }][]
const COLUMN_LIST = sql.raw(COLUMNS.map(([, column]) => `"${column.name}"`).join(', '))
const INSERT_LINES = compile(
	sql`insert into ${auditLog} (${COLUMN_LIST}) select ${COLUMN_LIST} from jsonb_populate_recordset(null::${auditLog}, (${sql.placeholder('lines')}::text)::jsonb)`,
)

/** The lines as the JSON the insert reads: each under its column's name (dates as ISO text). */
const linesJson = (lines: readonly AuditLine[]) =>
	JSON.stringify(lines.map((line) => Object.fromEntries(COLUMNS.map(([key, column]) => [column.name, line[key] ?? null]))))

const BATCH = 200
const DELAY_MS = 200
const MAX_BUFFERED = 20_000

class AuditWriter {
	#lines: AuditLine[] = []
	#timer: ReturnType<typeof setTimeout> | undefined
	#writing: Promise<void> = Promise.resolve()

	constructor(private readonly deps: WriterDeps) {}

	add(line: AuditLine) {
		if (this.#lines.length >= MAX_BUFFERED) {
			this.deps.log.warn('audit trail buffer full: a line was dropped', { buffered: this.#lines.length })
			return
		}
		this.#lines.push(storable(line))
		// The batch is the instance's, not the request's whose line filled it or started its timer.
		if (this.#lines.length >= BATCH) outsideRequest(() => void this.flush())
		else this.#timer ??= outsideRequest(() => setTimeout(() => void this.flush(), DELAY_MS).unref())
	}

	/** Writes every buffered line (one write at a time, in order); resolves once they are in. */
	flush(): Promise<void> {
		clearTimeout(this.#timer)
		this.#timer = undefined
		this.#writing = this.#writing.then(() => this.#write())
		return this.#writing
	}

	async #write() {
		while (this.#lines.length) {
			const batch = this.#lines.splice(0, BATCH)
			try {
				await this.#insert(batch)
			} catch (error) {
				const unwritten = refusedForItsData(error) ? await this.#oneByOne(batch) : { lines: batch, error }
				if (!unwritten) continue
				this.#lines.unshift(...unwritten.lines)
				this.deps.log.warn('audit trail not written yet: will try again', { lines: this.#lines.length, error: unwritten.error })
				this.#timer ??= setTimeout(() => void this.flush(), 5_000).unref()
				return
			}
		}
	}

	#insert(lines: readonly AuditLine[]) {
		return this.deps.database.run(INSERT_LINES, { lines: linesJson(lines) })
	}

	/**
	 * A batch the database refused for its data: each line on its own, the refused ones dropped (each
	 * logged with its SQLSTATE, never its content). Answers the lines not yet tried when the connection
	 * failed on the way, or null when every line was written or dropped.
	 */
	async #oneByOne(batch: AuditLine[]): Promise<{ lines: AuditLine[]; error: unknown } | null> {
		for (const [i, line] of batch.entries()) {
			try {
				await this.#insert([line])
			} catch (error) {
				if (!refusedForItsData(error)) return { lines: batch.slice(i), error }
				this.deps.log.warn('audit trail line refused by the database: dropped', { sqlState: sqlState(error) })
			}
		}
		return null
	}
}

const sqlState = (error: unknown): string | undefined => {
	const e = error as { code?: unknown; cause?: { code?: unknown } }
	const code = typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) ? e.code : e?.cause?.code
	return typeof code === 'string' ? code : undefined
}

/** Data exceptions (22) and integrity violations (23): the line itself is at fault, not the connection. */
const refusedForItsData = (error: unknown) => /^2[23]/.test(sqlState(error) ?? '')

/**
 * The line with every string the database could not hold (a NUL, a lone surrogate) made U+FFFD, at
 * any depth. A line that holds none (nearly every line) is returned as it is, without a copy.
 */
const storable = <T>(line: T): T => (holdsUnstorable(line) ? fixed(line) : line)

const unstorable = (text: string) => text.includes('\0') || !text.isWellFormed()

function holdsUnstorable(value: unknown): boolean {
	if (typeof value === 'string') return unstorable(value)
	if (Array.isArray(value)) return value.some(holdsUnstorable)
	if (value && typeof value === 'object' && !(value instanceof Date)) {
		for (const key in value) if (unstorable(key) || holdsUnstorable((value as Record<string, unknown>)[key])) return true
	}
	return false
}

function fixed<T>(value: T): T {
	if (typeof value === 'string') return value.replaceAll('\0', '\uFFFD').toWellFormed() as T
	if (Array.isArray(value)) return value.map(fixed) as T
	if (value && typeof value === 'object' && !(value instanceof Date))
		return Object.fromEntries(Object.entries(value).map(([k, v]) => [fixed(k), fixed(v)])) as T
	return value
}

const writers = new WeakMap<object, AuditWriter>()

/** This instance's writer for these dependencies (one per app; tests build several apps). */
function writerOf(deps: WriterDeps): AuditWriter {
	let writer = writers.get(deps.database)
	if (!writer) writers.set(deps.database, (writer = new AuditWriter(deps)))
	return writer
}

export const writeAuditLine = (deps: WriterDeps, line: AuditLine) => writerOf(deps).add(line)

/** Writes what this instance has buffered (before the trail is read, and when the server stops). */
export const flushAudit = (deps: WriterDeps) => writerOf(deps).flush()
