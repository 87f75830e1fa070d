/**
 * The statements a call really sends, and their plans: drizzle's sessions log every statement
 * through `session.logger`, so a recorder is swapped in for the call, and each recorded statement
 * can be EXPLAINed again with its own parameters. Used by the plan tests and `bench/scale.ts`.
 * (drizzle prepared queries keep the logger they were prepared with and are not seen.)
 */
import { sql, type SQL } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'

export interface Statement {
	text: string
	params: unknown[]
}

/** Every statement sent through `deps.db` while `run` runs, in order. */
export async function statementsOf(deps: Pick<AppDeps, 'db'>, run: () => Promise<unknown>): Promise<Statement[]> {
	const session = (deps.db as unknown as { session: { logger: { logQuery(q: string, p: unknown[]): void } } }).session
	const captured: Statement[] = []
	const previous = session.logger
	session.logger = { logQuery: (text, params) => void captured.push({ text, params }) }
	try {
		await run()
	} finally {
		session.logger = previous
	}
	return captured
}

/** The statement under EXPLAIN (with `options`, e.g. `analyze, buffers`), its parameters still parameters. */
export function explainOf(q: Statement, options = ''): SQL {
	const parts = q.text.split(/\$(\d+)/)
	const chunks: SQL[] = [sql.raw(options ? `explain (${options}) ` : 'explain ')]
	// sql.param: an array parameter stays one parameter (a bare array would become a list of them).
	for (const [i, part] of parts.entries()) chunks.push(i % 2 ? sql`${sql.param(q.params[Number(part) - 1])}` : sql.raw(part))
	return sql.join(chunks, sql.raw(''))
}

/** The plan of a statement, as text. */
export async function planOf(deps: Pick<AppDeps, 'database'>, q: Statement, options = ''): Promise<string> {
	return (await deps.database.rows<{ 'QUERY PLAN': string }>(explainOf(q, options))).map((r) => r['QUERY PLAN']).join('\n')
}

/**
 * The rows the statements took from `table`, kept or filtered out (EXPLAIN ANALYZE), with index reads
 * forced (`enable_seqscan = off`) so that other workspaces' rows of the shared test database do not
 * count. A bitmap index node is not counted: its heap scan is.
 */
export async function rowsReadFrom(deps: Pick<AppDeps, 'db' | 'database'>, statements: Statement[], table: string): Promise<number> {
	let read = 0
	await deps.db.transaction(async (tx) => {
		await deps.database.rows(sql`set local enable_seqscan = off`, tx)
		for (const q of statements) {
			const [row] = await deps.database.rows<{ 'QUERY PLAN': unknown }>(explainOf(q, 'analyze, format json'), tx)
			const plan = typeof row!['QUERY PLAN'] === 'string' ? JSON.parse(row!['QUERY PLAN'] as string) : row!['QUERY PLAN']
			const walk = (node: Record<string, unknown>): number =>
				(node['Relation Name'] === table && !String(node['Node Type']).startsWith('Bitmap Index')
					? Number(node['Actual Rows']) * Number(node['Actual Loops'] ?? 1) +
						Number(node['Rows Removed by Filter'] ?? 0) +
						Number(node['Rows Removed by Index Recheck'] ?? 0)
					: 0) + ((node.Plans as Record<string, unknown>[] | undefined) ?? []).reduce((s, n) => s + walk(n), 0)
			read += walk((plan as { Plan: Record<string, unknown> }[])[0]!.Plan)
		}
	})
	return read
}

/**
 * The `Seq Scan on <table>` nodes of a plan that may read the whole table. A scan right under a
 * Limit that the planner expects to stop early (the Limit costs at most a tenth of the scan) is
 * bounded by the limit, not by the table, and is allowed. A `Result` between them (a branch that
 * runs only when a one-time condition holds) changes nothing and is looked through.
 *
 * `cappedBranches` (search only): a search branch is `select id … where <GIN condition> limit N`.
 * At this test's size PostgreSQL prices the GIN scans (prefix tsquery terms, trigram word
 * similarity) above reading a few thousand rows, so it scans; which one it picks depends on the
 * table's size, so that choice is checked at 1,000,000 candidates by bench/scale.ts (it prints
 * every plan and flags sequential scans). Here the search statement must still fetch the ranked
 * rows by primary key and never hash or sort a whole table.
 */
export function seqScans(plan: string, table: string, cappedBranches = false) {
	const lines = plan.split('\n')
	const indent = (l: string) => l.search(/\S/)
	const totalCost = (l: string) => Number(/cost=[\d.]+\.\.([\d.]+)/.exec(l)?.[1] ?? NaN)
	const isNode = (l: string) => /^\s*(->\s+)?[A-Z][A-Za-z ]+\s+\(cost=/.test(l)
	/** The plan node a node hangs under, looking through `Result` nodes. */
	const parentOf = (i: number): string | undefined => {
		const at = lines.slice(0, i).findLastIndex((l) => isNode(l) && indent(l) < indent(lines[i]!))
		if (at < 0) return undefined
		return /^\s*(->\s+)?Result\s/.test(lines[at]!) ? parentOf(at) : lines[at]
	}
	return lines.filter((line, i) => {
		if (!line.includes(`Seq Scan on ${table} `)) return false
		const parent = parentOf(i)
		return !(parent && /^\s*(->\s+)?Limit /.test(parent) && (cappedBranches || totalCost(parent) <= totalCost(line) / 10))
	})
}

/** The one statement of `statements` whose text matches `pattern` (fails the test when there are none or several). */
export function theStatement(statements: Statement[], pattern: RegExp): Statement {
	const found = statements.filter((q) => pattern.test(q.text))
	if (found.length !== 1) throw new Error(`expected one statement matching ${pattern}, found ${found.length}`)
	return found[0]!
}

/**
 * ANALYZE that reads every row of the tables (a statistics target of 10,000 samples up to 3,000,000
 * rows): the shared test database holds every test file's rows, past the 30,000 a default ANALYZE
 * samples at random, and a plan these tests check flipped with the sample (a PostgreSQL CI run saw
 * list_candidates' query read candidates by Seq Scan once). Whole tables give the same estimates
 * every run.
 */
export async function analyzeWhole(deps: Pick<AppDeps, 'db' | 'database'>, ...tables: string[]): Promise<void> {
	await deps.db.transaction(async (tx) => {
		await deps.database.rows(sql`set local default_statistics_target = 10000`, tx)
		for (const table of tables) await deps.database.rows(sql.raw(`analyze ${table}`), tx)
	})
}
