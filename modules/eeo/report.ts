/**
 * The EEO report: how many applicants of each job and stage gave each answer to one question. Counts
 * only, never a person: a row with a count under 5 (and above 0) is hidden whole, every count and its
 * total. Hiding only some cells of it would tell: a row's total is public anyway (the same row under
 * another question, the pipeline), so which cells are hidden and which show 0 would name the answer
 * of a lone applicant. The cells hidden depend only on whether the row has a small count, never on
 * which answer it is. The report has no column totals, so columns need no complement. Applicants
 * erased under a legal hold still count: their
 * answers are kept with the anonymous applicant-flow record (modules/privacy), which stands in for
 * the deleted application.
 */
import { sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { csvRows } from '../../core/csv.ts'
import { AppError } from '../../core/errors.ts'
import { jobLabelSql } from '../jobs/index.ts'
import { heldApplications } from '../privacy/index.ts'
import { EEO_QUESTIONS, type EeoQuestion } from './questions.ts'
import { eeoSelfIdentification } from './table.ts'

export const SMALLEST_SHOWN = 5

/** A count as shown: a number, or null when hidden (its row has a count under `SMALLEST_SHOWN` and above 0). */
export type ShownCount = number | null

export interface EeoReportRow {
	jobId: string
	jobTitle: string
	stage: string
	/** By answer code, in the question's order. */
	counts: ShownCount[]
	total: ShownCount
}

export interface EeoReport {
	question: EeoQuestion
	rows: EeoReportRow[]
}

const COLUMNS = {
	sex: eeoSelfIdentification.sex,
	ethnicity: eeoSelfIdentification.ethnicity,
	veteran: eeoSelfIdentification.veteran,
	disability: eeoSelfIdentification.disability,
} as const

/**
 * A row's counts as shown: all of them, or none when any is under `SMALLEST_SHOWN` (and above 0). Hiding
 * the small ones alone, even with a complement, lets the cells left at 0 say where the few answers are.
 */
export function suppressRow(counts: readonly number[]): ShownCount[] {
	const small = counts.some((n) => n > 0 && n < SMALLEST_SHOWN)
	return counts.map((n) => (small ? null : n))
}

export async function eeoReport(deps: AppDeps, actor: Actor, key: string): Promise<EeoReport> {
	if (!deps.permissions.can(actor, 'eeo:report')) throw new AppError('FORBIDDEN', 'Only owners see the EEO report')
	const question = EEO_QUESTIONS.find((q) => q.key === key)
	if (!question)
		throw new AppError('VALIDATION', 'Choose one of the questions listed', { fields: [{ field: 'question', message: 'is not one of the questions' }] })
	const answer = COLUMNS[question.key]
	const lines = await deps.database.rows<{ jobId: string; jobTitle: string; stage: string; code: string; count: number }>(
		sql`select a.job_id as "jobId", ${sql.raw(jobLabelSql('j'))} as "jobTitle", coalesce(s.label, a.stage_key) as stage, ${answer} as code, count(*)::int as count
		from ${eeoSelfIdentification}
		join (select id, workspace_id, job_id, stage_key from applications union all ${heldApplications}) a
			on a.id = ${eeoSelfIdentification.applicationId} and a.workspace_id = ${eeoSelfIdentification.workspaceId}
		join jobs j on j.id = a.job_id
		left join pipeline_stages s on s.workspace_id = a.workspace_id and s.key = a.stage_key
		where ${eeoSelfIdentification.workspaceId} = ${actor.workspaceId}
		group by a.job_id, j.id, coalesce(s.label, a.stage_key), s.position, ${answer}
		order by j.title, a.job_id, s.position nulls last, 3`,
	)
	const rows: EeoReportRow[] = []
	for (const line of lines) {
		let row = rows[rows.length - 1]
		if (!row || row.jobId !== line.jobId || row.stage !== line.stage) {
			row = { jobId: line.jobId, jobTitle: line.jobTitle, stage: line.stage, counts: question.options.map(() => 0), total: 0 }
			rows.push(row)
		}
		const at = question.options.findIndex(([c]) => c === line.code)
		if (at >= 0) row.counts[at] = (row.counts[at] ?? 0) + line.count
	}
	for (const row of rows) {
		const total = row.counts.reduce<number>((sum, n) => sum + (n ?? 0), 0)
		row.counts = suppressRow(row.counts.map((n) => n ?? 0))
		row.total = row.counts.some((n) => n === null) ? null : total
	}
	return { question, rows }
}

/** Every hidden count alike (a whole row with a count under 5), so which is which cannot be told. */
export const HIDDEN_LABEL = 'hidden'

/** The report as CSV (one line per job and stage; hidden counts as "hidden"). */
export function eeoReportCsv(report: EeoReport): string {
	const cell = (n: ShownCount) => (n === null ? HIDDEN_LABEL : n)
	return csvRows(
		[
			['job', 'jobId', 'stage', ...report.question.options.map(([, label]) => label), 'total'],
			...report.rows.map((r) => [r.jobTitle, r.jobId, r.stage, ...r.counts.map(cell), cell(r.total)]),
		],
		// A byte-order mark first: Excel reads a CSV without one in the machine's legacy code page (José as JosÃ©).
		{ bom: true },
	)
}
