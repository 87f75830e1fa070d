/**
 * The trail is written behind the work it records: a line joins this instance's buffer and the
 * buffer goes to the database in one multi-row insert, at most a fifth of a second later or at 200
 * lines, so recording adds no round trip to a tool call or a page. Stopping the server writes what
 * is left. A failed write keeps its lines for the next try (up to a bound, so a database that stays
 * away cannot take the memory; what is dropped is logged as a count).
 */
import type { AppDeps } from '../../core/deps.ts'
import { auditLog } from './table.ts'

export type AuditLine = typeof auditLog.$inferInsert

const BATCH = 200
const DELAY_MS = 200
const MAX_BUFFERED = 20_000

class AuditWriter {
	#lines: AuditLine[] = []
	#timer: ReturnType<typeof setTimeout> | undefined
	#writing: Promise<void> = Promise.resolve()

	constructor(private readonly deps: Pick<AppDeps, 'db' | 'log'>) {}

	add(line: AuditLine) {
		if (this.#lines.length >= MAX_BUFFERED) {
			this.deps.log.warn('audit trail buffer full: a line was dropped', { buffered: this.#lines.length })
			return
		}
		this.#lines.push(line)
		if (this.#lines.length >= BATCH) void this.flush()
		else this.#timer ??= setTimeout(() => void this.flush(), DELAY_MS).unref()
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
				await this.deps.db.insert(auditLog).values(batch)
			} catch (error) {
				this.#lines.unshift(...batch)
				this.deps.log.warn('audit trail not written yet: will try again', { lines: this.#lines.length, error })
				this.#timer ??= setTimeout(() => void this.flush(), 5_000).unref()
				return
			}
		}
	}
}

const writers = new WeakMap<object, AuditWriter>()

/** This instance's writer for these dependencies (one per app; tests build several apps). */
function writerOf(deps: Pick<AppDeps, 'db' | 'log'>): AuditWriter {
	let writer = writers.get(deps.db)
	if (!writer) writers.set(deps.db, (writer = new AuditWriter(deps)))
	return writer
}

export const writeAuditLine = (deps: Pick<AppDeps, 'db' | 'log'>, line: AuditLine) => writerOf(deps).add(line)

/** Writes what this instance has buffered (before the trail is read, and when the server stops). */
export const flushAudit = (deps: Pick<AppDeps, 'db' | 'log'>) => writerOf(deps).flush()
