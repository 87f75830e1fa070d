/**
 * The /activity page's filters from its query string: a person and a record type chosen from what
 * the log holds, and a range of days read in the person's time zone (`until` includes its whole day).
 * Each problem names its field, so the page answers 422 with the values kept.
 */
import type { FieldError } from '../../core/errors.ts'
import { nextDay, startOfDay } from '../../core/time.ts'
import type { ActivityFilters } from './service.ts'

export interface ActivityQuery {
	person?: string
	type?: string
	from?: string
	until?: string
}

const DAY = /^\d{4}-\d{2}-\d{2}$/

/**
 * A person filter names one of the people the page offers, or it is refused on its field: an id
 * from nowhere (typed into the address, someone never in the workspace) would show an empty list
 * as if they had done nothing. The one rule of /activity and /audit (each with its own choices).
 */
export function personFilterProblem(person: string | undefined, people: readonly { id: string }[]): FieldError | null {
	return person && !people.some((p) => p.id === person) ? { field: 'person', message: 'Choose a person from the list' } : null
}

export function readActivityFilters(
	query: ActivityQuery,
	choices: { people: readonly { id: string }[]; types: readonly string[] },
): { filters: ActivityFilters; errors: FieldError[] } {
	const errors: FieldError[] = []
	const text = (v: string | undefined) => v?.trim() || undefined
	const person = text(query.person)
	const unknownPerson = personFilterProblem(person, choices.people)
	if (unknownPerson) errors.push(unknownPerson)
	const recordType = text(query.type)
	if (recordType && !choices.types.includes(recordType)) errors.push({ field: 'type', message: 'Choose a record type from the list' })
	const day = (field: 'from' | 'until', value: string | undefined) => {
		const t = text(value)
		if (!t) return undefined
		const start = DAY.test(t) ? startOfDay(t) : null
		if (!start) errors.push({ field, message: `${field === 'from' ? 'From' : 'Until'} must be a date such as 2026-01-31` })
		return start ?? undefined
	}
	const since = day('from', query.from)
	const untilDay = day('until', query.until)
	const until = untilDay ? (startOfDay(nextDay(text(query.until)!)) ?? undefined) : undefined
	if (since && until && until <= since) errors.push({ field: 'until', message: 'Until must be the same day as From or later' })
	return { filters: { person, recordType, since, until }, errors }
}

/** The query string that gives these filters again (for the pager). */
export function activityFilterQuery(query: ActivityQuery): string {
	const kept = (['person', 'type', 'from', 'until'] as const).flatMap((k) => {
		const v = query[k]?.trim()
		return v ? [[k, v] as [string, string]] : []
	})
	return new URLSearchParams(kept).toString()
}
