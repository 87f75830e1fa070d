/**
 * The New job form: what it asks, how a post becomes `create_job`'s input, and how a refusal is
 * shown. The limits are `create_job`'s own (its parameter schema, checked by the same checker the
 * MCP door uses) and the rules are the service's, so the form and the tool accept exactly the same jobs.
 */
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { FieldError } from '../../core/errors.ts'
import { html, type SafeHtml } from '../../core/html.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { checkValue } from '../../core/schema-check.ts'
import { checkboxes, csrfField, selectField, textArea, textField } from '../../core/ui.ts'
import { ACTIVELY_HIRING, type CreateJobInput } from './service.ts'
import { CreateJobParams } from './tools.ts'

/** The form's fields: input name (= create_job's parameter) and its label. */
const LABELS = {
	title: 'Job title',
	department: 'Department',
	location: 'Location',
	employment: 'Engagement',
	contractType: 'Contract type',
	salaryMin: 'Lowest salary',
	salaryMax: 'Highest salary',
	pitch: 'Summary',
	description: 'Description',
	requirements: 'Must-haves',
	niceToHave: 'Nice-to-haves',
	activelyHiring: 'Actively hiring',
} as const
type Field = keyof typeof LABELS

/** Everything typed, as typed (shown again after a refusal). */
export type JobFormValues = Partial<Record<Field, string>>

const LISTS = ['requirements', 'niceToHave'] as const
const NUMBERS = ['salaryMin', 'salaryMax'] as const
const CONTRACT_TYPES = [
	['', 'Not set'],
	['W2', 'W2'],
	['C2C', 'C2C'],
	['Fulltime', 'Full-time'],
] as const

/** The values of a posted form (a repeated name keeps its last value; anything else is ignored). */
export function formValues(body: unknown): JobFormValues {
	const posted = (body ?? {}) as Record<string, unknown>
	const values: JobFormValues = {}
	for (const field of Object.keys(LABELS) as Field[]) {
		const raw = posted[field]
		const value = Array.isArray(raw) ? raw[raw.length - 1] : raw
		if (typeof value === 'string') values[field] = value
	}
	return values
}

/** Lines of a list field that hold something, with their line numbers in the text box (from 1). */
function listLines(text: string): { item: string; line: number }[] {
	return text
		.split(/\r\n|\r|\n/)
		.map((item, i) => ({ item: item.trim(), line: i + 1 }))
		.filter((l) => l.item !== '')
}

/** A field name in a message (the service's messages name create_job's parameters) as its label. */
const labelled = (message: string) =>
	message.replace(/\b(salaryMin|salaryMax|title|requirements|niceToHave|activelyHiring)\b/g, (name) => LABELS[name as Field].toLowerCase())

/**
 * The form's values as `create_job`'s input, or the problems, each on its field, worded with the
 * field's label. Empty fields are left out (the service's defaults apply, as for the tool).
 */
export function parseJobForm(values: JobFormValues): { input: CreateJobInput; errors: [] } | { input: null; errors: FieldError[] } {
	const candidate: Record<string, unknown> = {}
	const errors: FieldError[] = []
	const lines: Partial<Record<(typeof LISTS)[number], number[]>> = {}
	for (const field of ['title', 'department', 'location', 'employment', 'pitch', 'description', 'contractType'] as const) {
		const value = values[field] ?? ''
		if (field === 'title' || value.trim() !== '') candidate[field] = field === 'description' || field === 'pitch' ? value : value.trim()
	}
	for (const field of LISTS) {
		const items = listLines(values[field] ?? '')
		if (items.length) {
			candidate[field] = items.map((l) => l.item)
			lines[field] = items.map((l) => l.line)
		}
	}
	for (const field of NUMBERS) {
		// People write amounts as they read them: "95,000", "$95 000".
		const value = (values[field] ?? '').replace(/[\s,$]/g, '')
		if (value === '') continue
		if (/^\d+$/.test(value)) candidate[field] = Number(value)
		else errors.push({ field, message: `${LABELS[field]} must be a whole number, like 95000` })
	}
	if (values.activelyHiring === 'on') candidate.activelyHiring = true

	const checked = checkValue<CreateJobInput>(CreateJobParams, candidate, { unknown: 'reject' })
	for (const e of checked.errors) {
		// A list item's path is `requirements[3]`: say which line of the text box it is.
		const item = /^(requirements|niceToHave)\[(\d+)\]$/.exec(e.field)
		const field = (item ? item[1] : e.field) as Field
		if (!(field in LABELS)) throw new Error(`the New job form has no field for ${e.field}`)
		if (errors.some((x) => x.field === field)) continue
		const where = item ? `, line ${lines[field as (typeof LISTS)[number]]![Number(item[2])]},` : ''
		const message = e.message === 'must not be empty' && field === 'title' ? 'Enter a job title' : `${LABELS[field]}${where} ${e.message}`
		errors.push({ field, message })
	}
	return errors.length ? { input: null, errors } : { input: checked.value, errors: [] }
}

/** Problems the service found (its field errors), on the form's fields, with labels. */
export function serviceErrors(fields: readonly FieldError[] | undefined, message: string): FieldError[] {
	if (!fields?.length) return [{ field: 'title', message }]
	return fields.map((f) => {
		const field = (f.field in LABELS ? f.field : 'title') as Field
		return { field, message: `${LABELS[field]} ${labelled(f.message)}` }
	})
}

/** The form (empty, or with what was typed and the problems found). */
export function jobForm(deps: AppDeps, session: PageSession, values: JobFormValues, errors: readonly FieldError[]): SafeHtml {
	const actor: Actor = session.actor
	const mayFlag = deps.permissions.can(actor, ACTIVELY_HIRING)
	const text = (field: Field, o: { hint?: string; maxlength?: number; type?: string } = {}) =>
		textField({ id: field, label: LABELS[field], value: values[field], errors, ...o })
	return html`<form method="post" action="/jobs/new" class="stack job-form" novalidate>
${csrfField(session)}
${text('title', { maxlength: 200 })}
${text('department', { maxlength: 120, hint: 'The practice area; Technologies when left empty' })}
${text('location', { maxlength: 200, hint: 'For example: Austin, TX (hybrid) or Remote (US)' })}
${text('employment', { maxlength: 60, hint: 'For example: 12-month contract' })}
${selectField({ id: 'contractType', label: LABELS.contractType, value: values.contractType ?? '', options: CONTRACT_TYPES, errors })}
<div class="grid-2 pair">${text('salaryMin', { hint: 'Whole amount, for example 95000' })}${text('salaryMax', { hint: 'Not below the lowest' })}</div>
${textArea({ id: 'pitch', label: LABELS.pitch, hint: 'One or two sentences shown at the top of the job', maxlength: 600, rows: 2, value: values.pitch, errors })}
${textArea({ id: 'description', label: LABELS.description, hint: 'Plain text, or simple HTML: headings, paragraphs, lists, bold and italics. Any other markup is removed.', maxlength: 20000, rows: 10, value: values.description, errors })}
${textArea({ id: 'requirements', label: LABELS.requirements, hint: 'One per line, at most 40. Applicants’ résumés are checked against them.', rows: 5, value: values.requirements, errors })}
${textArea({ id: 'niceToHave', label: LABELS.niceToHave, hint: 'One per line, at most 40.', rows: 3, value: values.niceToHave, errors })}
${mayFlag ? checkboxes({ id: 'activelyHiring', name: 'activelyHiring', legend: LABELS.activelyHiring, options: [['on', 'Show this job as actively hiring']], checked: values.activelyHiring === 'on' ? ['on'] : [], errors }) : ''}
<p class="meta">The job is saved as a Draft: nobody outside sees it until it is published.</p>
<div class="actions"><button type="submit">Create job</button> <a href="/jobs">Cancel</a></div>
</form>`
}
