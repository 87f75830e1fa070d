/**
 * The /audit page's and export's filters from a query string: each checked, the dates read as days
 * in the person's time zone (`until` includes its whole day). Problems name their field.
 */
import type { FieldError } from '../../core/errors.ts'
import { nextDay, startOfDay } from '../../core/time.ts'
import { personFilterProblem } from '../activity/index.ts'
import type { AuditFilters } from './queries.ts'

export interface AuditQuery {
	person?: string
	app?: string
	action?: string
	record?: string
	from?: string
	until?: string
}

const DAY = /^\d{4}-\d{2}-\d{2}$/

/** `choices.people`: the people the page offers (auditChoices); a person filter must be one of them, as on /activity. */
export function readFilters(query: AuditQuery, choices: { people: readonly { id: string }[] }): { filters: AuditFilters; errors: FieldError[] } {
	const errors: FieldError[] = []
	const day = (field: 'from' | 'until', value: string | undefined) => {
		const text = value?.trim()
		if (!text) return undefined
		const start = DAY.test(text) ? startOfDay(text) : null
		if (!start) errors.push({ field, message: 'must be a date such as 2026-01-31' })
		return start ?? undefined
	}
	const since = day('from', query.from)
	const untilDay = day('until', query.until)
	const until = untilDay && query.until ? (startOfDay(nextDay(query.until.trim())) ?? undefined) : undefined
	if (since && until && until <= since) errors.push({ field: 'until', message: 'must be the same day as From or later' })
	// A control character (a NUL) can match nothing the trail holds, and the database refuses it in a comparison.
	const text = (field: keyof AuditQuery, v: string | undefined) => {
		const value = v?.trim() || undefined
		if (value && /\p{Cc}/u.test(value)) errors.push({ field, message: 'must not hold control characters' })
		return value
	}
	const person = text('person', query.person)
	const unknownPerson = personFilterProblem(person, choices.people)
	if (unknownPerson) errors.push(unknownPerson)
	return {
		filters: {
			person,
			app: text('app', query.app),
			action: text('action', query.action),
			record: text('record', query.record),
			since,
			until,
		},
		errors,
	}
}

/** The query string that gives these filters again (for the pager and the download links). */
export function filterQuery(query: AuditQuery): string {
	const kept = Object.entries(query).filter(([, v]) => typeof v === 'string' && v.trim() !== '') as [string, string][]
	return new URLSearchParams(kept.map(([k, v]) => [k, v.trim()])).toString()
}
