/**
 * The portal's page parts: one way to show a notice, form errors, a table, a pager, a status tag,
 * record facts, a date, a form field. Patterns from the GOV.UK, MOJ and USWDS design systems
 * (`reference/portal-anchors.md` §12): an error summary at the top that takes focus, tables that
 * become cards on a phone, tags in words (never colour alone), previous/next paging.
 */
import type { PageSession } from './http/auth.ts'
import { html, raw, textOf, type SafeHtml } from './html.ts'
import { formatDate, formatDateTime } from './time.ts'

/** The hidden CSRF field every portal form carries. */
export const csrfField = (session: Pick<PageSession, 'csrf'>) => html`<input type="hidden" name="csrf" value="${session.csrf}">`

/** A green confirmation after an action (Post/Redirect/Get: shown once, on the page redirected to). */
export const notice = (text: string | null | undefined) => (text ? html`<div class="notice" role="status"><p>${text}</p></div>` : '')

/** A problem with one form field: `field` is the id of the input it is about. */
export interface FieldError {
	readonly field: string
	readonly message: string
}

/**
 * "There is a problem", above the page's heading: each error links to its field. `app.js` moves the
 * focus to it when the page loads, so keyboard and screen-reader users hear it at once.
 */
export function errorSummary(errors: readonly FieldError[] | null | undefined): SafeHtml | '' {
	if (!errors?.length) return ''
	return html`<div class="error-summary" role="alert" tabindex="-1" data-autofocus><h2>There is a problem</h2>
<ul>${errors.map((e) => html`<li><a href="#${e.field}">${e.message}</a></li>`)}</ul></div>`
}

/** The message of the error for one field, shown under its label. */
const fieldMessage = (errors: readonly FieldError[] | undefined, id: string) => errors?.find((e) => e.field === id)?.message

interface FieldOptions {
	id: string
	name?: string
	label: string
	/** The value to show again after a refused post (nothing typed is lost). */
	value?: string | number | null
	hint?: string
	errors?: readonly FieldError[]
	maxlength?: number
	type?: string
	autocomplete?: string
}

const described = (o: FieldOptions, error: string | undefined) => {
	const ids = [o.hint ? `${o.id}-hint` : '', error ? `${o.id}-error` : ''].filter(Boolean).join(' ')
	return raw(`${ids ? ` aria-describedby="${ids}"` : ''}${error ? ' aria-invalid="true"' : ''}`)
}

const labelParts = (o: FieldOptions, error: string | undefined) =>
	html`<label for="${o.id}">${o.label}</label>${o.hint ? html`<span class="hint" id="${o.id}-hint">${o.hint}</span>` : ''}${error ? html`<span class="field-error" id="${o.id}-error">${error}</span>` : ''}`

/** A labelled text input (with its hint, error and the value entered). */
export function textField(o: FieldOptions): SafeHtml {
	const error = fieldMessage(o.errors, o.id)
	return html`<div class="field">${labelParts(o, error)}<input id="${o.id}" name="${o.name ?? o.id}" type="${o.type ?? 'text'}" value="${o.value ?? ''}"${o.maxlength ? raw(` maxlength="${o.maxlength}"`) : ''}${o.autocomplete ? raw(` autocomplete="${o.autocomplete}"`) : ''}${described(o, error)}></div>`
}

/** A labelled multi-line input. */
export function textArea(o: FieldOptions & { rows?: number }): SafeHtml {
	const error = fieldMessage(o.errors, o.id)
	return html`<div class="field">${labelParts(o, error)}<textarea id="${o.id}" name="${o.name ?? o.id}" rows="${o.rows ?? 4}"${o.maxlength ? raw(` maxlength="${o.maxlength}"`) : ''}${described(o, error)}>${o.value ?? ''}</textarea></div>`
}

/** A labelled select; `options` are [value, label] pairs. */
export function selectField(o: FieldOptions & { options: readonly (readonly [string, string])[] }): SafeHtml {
	const error = fieldMessage(o.errors, o.id)
	const chosen = o.value === null || o.value === undefined ? undefined : String(o.value)
	return html`<div class="field">${labelParts(o, error)}<select id="${o.id}" name="${o.name ?? o.id}"${described(o, error)}>${o.options.map(
		([value, label]) => html`<option value="${value}"${value === chosen ? raw(' selected') : ''}>${label}</option>`,
	)}</select></div>`
}

/** A group of checkboxes (`fieldset` with a legend); `checked` holds the values ticked. */
export function checkboxes(o: {
	id: string
	name: string
	legend: string
	options: readonly (readonly [string, string])[]
	checked?: readonly string[]
	errors?: readonly FieldError[]
}): SafeHtml {
	const error = fieldMessage(o.errors, o.id)
	return html`<fieldset class="choice" id="${o.id}"${error ? raw(` aria-describedby="${o.id}-error"`) : ''}><legend>${o.legend}</legend>
${error ? html`<span class="field-error" id="${o.id}-error">${error}</span>` : ''}
${o.options.map(([value, label], i) => html`<label for="${o.id}-${i}"><input type="checkbox" id="${o.id}-${i}" name="${o.name}" value="${value}"${o.checked?.includes(value) ? raw(' checked') : ''}> ${label}</label>`)}</fieldset>`
}

export interface Column<T> {
	readonly label: string
	/** Right-aligned (numbers). */
	readonly numeric?: boolean
	readonly cell: (row: T) => unknown
	/**
	 * A column the list can be sorted by: its header is a link to the list in that order (`href`,
	 * the filters kept) and, when the list is in this column's order, says so (`aria-sort`).
	 */
	readonly sort?: { readonly href: string; readonly current?: 'ascending' | 'descending' }
}

/** A column's header: a link when the list sorts by it, with the order it is in (an arrow, and `aria-sort` for screen readers). */
function columnHeader<T>(c: Column<T>): SafeHtml {
	const cls = c.numeric ? raw(' class="num"') : ''
	if (!c.sort) return html`<th scope="col"${cls}>${c.label}</th>`
	const state = c.sort.current ? raw(` aria-sort="${c.sort.current}"`) : ''
	const arrow = c.sort.current ? html` <span aria-hidden="true">${c.sort.current === 'ascending' ? '▲' : '▼'}</span>` : ''
	// On a phone the head is hidden and the link with it (app.css): the plain label is what is read there.
	return html`<th scope="col"${cls}${state}><a class="sort" href="${c.sort.href}">${c.label}${arrow}</a><span class="sort-label">${c.label}</span></th>`
}

/**
 * A table that becomes one card per row on a phone (each cell shows its column's label), so no
 * column is ever cut off. Each cell's content sits in one box, so a cell of several parts (a link
 * and a line under it, a tag) stays together beside its label instead of spreading over the grid. `caption` names the table for screen readers (visually hidden with `hideCaption`).
 */
export function dataTable<T>(o: { caption: string; hideCaption?: boolean; columns: readonly Column<T>[]; rows: readonly T[]; empty: string }): SafeHtml {
	if (!o.rows.length) return html`<p class="empty">${o.empty}</p>`
	return html`<table class="stack"><caption${o.hideCaption ? raw(' class="visually-hidden"') : ''}>${o.caption}</caption>
<thead><tr>${o.columns.map(columnHeader)}</tr></thead>
<tbody>${o.rows.map((row) => html`<tr>${o.columns.map((c) => html`<td data-label="${c.label}"${c.numeric ? raw(' class="num"') : ''}>${cellContent(c.cell(row))}</td>`)}</tr>`)}</tbody></table>`
}

/**
 * A table too wide for a phone in a box that scrolls sideways, where cards would not do (a reference
 * table read across its columns). The box is a named region in the tab order: without that, a
 * keyboard alone could not scroll it (WCAG 2.1.1, axe's scrollable-region-focusable). `labelledBy`
 * is the id of what names the table, its caption or heading. The one way to write `table-wrap`.
 */
export function scrollingTable(labelledBy: string, table: SafeHtml): SafeHtml {
	return html`<div class="table-wrap" role="region" tabindex="0" aria-labelledby="${labelledBy}">${table}</div>`
}

/**
 * A cell's content in one element: on a phone a cell is a two-column grid (its label, then the
 * content), where a link followed by a line of text would otherwise be split over the two
 * columns. An empty cell stays empty (and is hidden on a phone).
 */
function cellContent(value: unknown): SafeHtml | '' {
	const content = html`${value}`
	return content.value === '' ? '' : html`<div class="cell">${content}</div>`
}

/**
 * Previous / next links of a keyset-paged list (`reference/portal-anchors.md`: at a million rows a
 * last-page number would need a count). `base` is the list's address with its filters.
 */
export function pager(o: { base: string; next?: string | null; first?: boolean; param?: string }): SafeHtml | '' {
	if (!o.next && o.first !== false) return ''
	const join = o.base.includes('?') ? '&' : '?'
	return html`<nav class="pager" aria-label="Pages">${o.first === false ? html`<a href="${o.base}">First page</a>` : ''}${o.next ? html`<a href="${o.base}${join}${o.param ?? 'cursor'}=${encodeURIComponent(o.next)}" rel="next">Next page</a>` : ''}</nav>`
}

export type Tone = 'neutral' | 'info' | 'good' | 'warn' | 'bad'

/** A status in words (an adjective), styled by tone; never a link, never colour alone. */
export const tag = (text: unknown, tone: Tone = 'neutral') => html`<strong class="tag tag-${tone}">${text}</strong>`

/** Record facts as a description list; rows with an empty value show "—" (or are left out with `skipEmpty`). */
export function facts(rows: readonly (readonly [string, unknown])[], o: { skipEmpty?: boolean } = {}): SafeHtml {
	const empty = (v: unknown) => v === null || v === undefined || textOf(v) === ''
	const shown = o.skipEmpty ? rows.filter(([, v]) => !empty(v)) : rows
	return html`<dl class="facts">${shown.map(([label, value]) => html`<div><dt>${label}</dt><dd>${empty(value) ? '—' : value}</dd></div>`)}</dl>`
}

/** A date written without a time (`2026-12-07`, a bench person's availability): a day of the calendar, the same in every zone. */
const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/

/**
 * A date (and time) in full, in a `<time>` element, in the reader's time zone with the zone named
 * ("Dec 1, 2026, 14:05 CST"; core/time.ts); "—" when there is none.
 */
export function when(value: Date | string | null | undefined, o: { time?: boolean } = { time: true }): SafeHtml | string {
	if (!value) return '—'
	if (typeof value === 'string' && CALENDAR_DAY.test(value)) {
		const day = new Date(`${value}T12:00:00Z`)
		return Number.isNaN(day.getTime()) ? '—' : html`<time datetime="${value}">${formatDate(day, 'UTC')}</time>`
	}
	const d = value instanceof Date ? value : new Date(value)
	if (Number.isNaN(d.getTime())) return '—'
	return html`<time datetime="${d.toISOString()}">${o.time === false ? formatDate(d) : formatDateTime(d)}</time>`
}

/** "1 message", "3 messages". */
export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`

/** Days between a date and now, in words ("today", "1 day", "12 days"). */
export function daysSince(value: Date | string, now: Date = new Date()): string {
	const days = Math.floor((now.getTime() - new Date(value).getTime()) / 86_400_000)
	return days <= 0 ? 'today' : plural(days, 'day')
}

/** A record page's header: breadcrumbs, the heading, facts under it and the actions beside it. */
export function pageHeader(o: { crumbs?: readonly (readonly [string, string])[]; title: unknown; meta?: unknown; actions?: unknown }): SafeHtml {
	return html`<div class="page-header">${o.crumbs?.length ? html`<nav class="crumbs" aria-label="Breadcrumb">${o.crumbs.map(([href, label]) => html`<a href="${href}">${label}</a> › `)}</nav>` : ''}
<div class="title-row"><h1>${o.title}</h1>${o.actions ? html`<div class="actions">${o.actions}</div>` : ''}</div>
${o.meta ? html`<p class="meta">${o.meta}</p>` : ''}</div>`
}

/**
 * A button that only the page's script can work (app.js): it is `hidden` in the HTML and app.js shows
 * it when it runs. Without the script (or before it has run, on a slow line) there is no button that
 * does nothing when pressed: a click before app.js ran used to be lost.
 */
export function scriptButton(label: string, attributes: Record<string, string>): SafeHtml {
	return html`<button type="button" class="secondary" data-needs-script${Object.entries(attributes).map(([k, v]) => html` ${raw(k)}="${v}"`)} hidden>${label}</button>`
}

/** Copy next to a secret or an address shown on the page: copies the text of the element `id` (app.js). */
export const copyButton = (id: string, name?: string) => scriptButton('Copy', name ? { 'data-copy': id, 'aria-label': name } : { 'data-copy': id })

/** A one-button form (Post/Redirect/Get) with the CSRF field; `confirm` asks first (app.js). */
export function actionButton(o: {
	session: Pick<PageSession, 'csrf'>
	action: string
	label: string
	style?: 'primary' | 'secondary' | 'danger'
	confirm?: string
	fields?: Record<string, string>
}): SafeHtml {
	return html`<form method="post" action="${o.action}" class="inline"${o.confirm ? html` data-confirm="${o.confirm}"` : ''}>${csrfField(o.session)}${Object.entries(o.fields ?? {}).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}<button type="submit"${o.style && o.style !== 'primary' ? html` class="${o.style}"` : ''}>${o.label}</button></form>`
}
