/**
 * Portal forms: reading posted fields, and turning a service's refusal into what the page shows
 * again (each field's message, every value typed).
 */
import { t } from 'elysia'
import { AppError, type FieldError } from '../errors.ts'
import type { RefusedForm } from '../module.ts'
import { ownEntry } from '../own-entry.ts'
import { unreadableFormBody } from './query.ts'

/** The body of a portal form: its fields are read with `formText`/`formList`; the CSRF field is checked by `auth`. */
export const formBody = t.Object({ csrf: t.Optional(t.String()) }, { additionalProperties: true })

const fieldsOf = (body: unknown) => (body && typeof body === 'object' ? (body as Record<string, unknown>) : {})

/** One posted field as text ('' when absent; the first when sent several times). */
export function formText(body: unknown, name: string): string {
	const value = fieldsOf(body)[name]
	const first = Array.isArray(value) ? value[0] : value
	return typeof first === 'string' ? first : ''
}

/** A field sent once per ticked box (checkboxes), as a list. */
export function formList(body: unknown, name: string): string[] {
	const value = fieldsOf(body)[name]
	return (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((v): v is string => typeof v === 'string')
}

/** How a service's field names appear on the form: the input's id and the label people read. */
export type FieldLabels = Readonly<Record<string, readonly [id: string, label: string]>>

/**
 * True for what a person can correct and post again (bad input, a conflict, a limit reached); a
 * record out of reach (404) and anything else are not form problems.
 */
export const isRefusal = (error: unknown): error is AppError => error instanceof AppError && ['VALIDATION', 'CONFLICT', 'RATE_LIMITED'].includes(error.code)

/**
 * The refused form to show again: each field error as "<Label> <message>." on its input; an error
 * without a known field (a limit reached) on the form's first field, as the service worded it.
 */
export function refusedForm(form: string, values: RefusedForm['values'], error: AppError, labels: FieldLabels): RefusedForm {
	const first = Object.values(labels)[0]![0]
	const known = (error.fields ?? []).filter((f) => Object.hasOwn(labels, f.field))
	const errors = known.length
		? known.map((f) => ({ field: labels[f.field]![0], message: `${labels[f.field]![1]} ${f.message.replace(/\.$/, '')}.` }))
		: [{ field: first, message: error.message }]
	return { form, values, errors }
}

/** The value a refused form had for a field (undefined when the page is not showing a refusal of this form). */
export function keptText(refused: RefusedForm | undefined, form: string, name: string): string | undefined {
	if (refused?.form !== form) return undefined
	const value = refused.values[name]
	return typeof value === 'string' ? value : Array.isArray(value) ? value[0] : undefined
}

/** The values a refused form had for a list field (checkboxes). */
export function keptList(refused: RefusedForm | undefined, form: string, name: string): readonly string[] | undefined {
	if (refused?.form !== form) return undefined
	const value = refused.values[name]
	return typeof value === 'string' ? [value] : value
}

/** The errors of one form (none when the refusal is another form's). */
export const errorsOf = (refused: RefusedForm | undefined, form: string) => (refused?.form === form ? refused.errors : [])

/**
 * The answer to a portal form that changed something (Post/Redirect/Get): a 303 to the page that
 * shows the result, with `?done=<key>` naming the confirmation that page shows once. Reloading that
 * page never posts the form again. Every signed-in form answers either this or its refusal (4xx);
 * tests/portal-forms.test.ts posts each form found in the route table and checks it.
 */
export function seeOther(path: string, done?: string, fragment?: string): Response {
	const [base, query] = path.split('?') as [string, string | undefined]
	const params = new URLSearchParams(query)
	if (done) params.set('done', done)
	const search = params.toString()
	return new Response(null, { status: 303, headers: { location: `${base}${search ? `?${search}` : ''}${fragment ? `#${fragment}` : ''}` } })
}

/** The confirmation a page shows for `?done=<key>` (undefined for none or an unknown key). */
export const doneNotice = (notices: Readonly<Record<string, string>>, key: string | undefined): string | undefined => (key ? ownEntry(notices, key) : undefined)

/** The fields of each form request that cannot be read (`noteUnreadableForm`). */
const unreadableForms = new WeakMap<Request, readonly FieldError[]>()

/**
 * Notes the fields of a form body (`application/x-www-form-urlencoded`) whose name or value is no
 * text: a broken %-escape, bytes that are not UTF-8 (escaped or not). The body is parsed into the same `%zz`
 * a person would have typed (a browser sends that as `%25zz`), so it is read here, from a copy,
 * before the app parses it; core/app.ts then refuses such a form as it refuses such a query, unless
 * the route answers it on its own form (`answersUnreadableText`, `unreadableFormFields`).
 */
export async function noteUnreadableForm(request: Request): Promise<void> {
	const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
	if (type !== 'application/x-www-form-urlencoded' || !request.body || request.method === 'GET' || request.method === 'HEAD') return
	let bytes: Uint8Array
	try {
		bytes = new Uint8Array(await request.clone().arrayBuffer())
	} catch {
		return // The body cannot be read at all: the app's own reading of it says so.
	}
	const fields = unreadableFormBody(bytes)
	if (fields.length) unreadableForms.set(request, fields)
}

/** The fields of this request's form that cannot be read (none for other requests). */
export const unreadableFormFields = (request: Request): readonly FieldError[] => unreadableForms.get(request) ?? []

/** The refusal of a form with fields that cannot be read (null when there are none). */
export function unreadableForm(request: Request): AppError | null {
	const fields = unreadableFormFields(request)
	return fields.length ? new AppError('UNREADABLE', 'The form holds text that could not be read: type it again and send it', { fields: [...fields] }) : null
}
