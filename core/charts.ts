/**
 * Charts drawn on the server as SVG (no script, no outside network, allowed by the CSP: SVG
 * presentation attributes are not inline styles). Each chart is an `<svg role="img">` named by its
 * `<title>` and summed up in a `<desc>`, followed by a table of the same numbers (`dataTable`), so
 * the numbers are there for screen readers, for copying and on any screen. No data: a sentence
 * saying so, never empty axes.
 *
 * Sizes: no `viewBox`. Widths are percentages of the chart's box and text is in CSS pixels, so
 * labels stay readable on a 390 px phone and bars stretch on a desktop. Colours come from a palette
 * safe for colour blindness (Okabe–Ito, darkened to 3:1 against white), and never carry meaning
 * alone: every bar has its label and value in words, every series its own labelled panel.
 *
 * Tests read what a chart shows: each bar or column is a `<rect>` whose `data-label` and
 * `data-value` give its category and number, and whose width or height is proportional to it.
 */
import { html, type SafeHtml } from './html.ts'
import { dataTable, type Column } from './ui.ts'

export const PALETTE = { blue: '#0072B2', vermillion: '#B35300', green: '#007A5A', purple: '#8E4B8A', grey: '#5B6478' } as const
export type ChartColour = keyof typeof PALETTE

const n = (x: number) => x.toLocaleString('en-US')
/** Room the SVG text of one bar label gets before it is cut (the table and the tooltip hold it whole). */
const MAX_LABEL = 34
const cut = (s: string) => (s.length > MAX_LABEL ? `${s.slice(0, MAX_LABEL - 1)}…` : s)
/** Percent with at most two decimals, as an SVG length. */
const pct = (x: number) => `${Math.round(x * 100) / 100}%`

export interface BarDatum {
	readonly label: string
	readonly value: number
	/** Where the row's label links to in the table (the list behind the number). */
	readonly href?: string
	/** A word after the value, e.g. "34% of the step before". */
	readonly note?: string
}

interface ChartText {
	/** Names the chart (the SVG title and the table caption). */
	readonly title: string
	/** One or two sentences saying what the chart shows (the SVG description); a default is made from the data. */
	readonly summary?: string
	/** Said instead of the chart when there is nothing to draw. */
	readonly empty: string
}

const ROW = 44
const BAR = 14
/** A row with a note (a funnel's share passed from the step before) has a second line, above its bar. */
const NOTED_ROW = 62

/**
 * The accessible frame of a chart: the SVG with its title and description, then its table behind
 * a disclosure (the SVG already shows every number in words; the table is there to read, copy and
 * compare, and keeps a phone's page short).
 */
function figure(kind: string, text: ChartText, height: number, body: SafeHtml, summary: string, table: SafeHtml, rows: number): SafeHtml {
	const id = `chart-${kind}-${slug(text.title)}`
	return html`<figure class="chart chart-${kind}">
<svg role="img" aria-labelledby="${id}-title ${id}-desc" width="100%" height="${height}" data-chart="${kind}" xmlns="http://www.w3.org/2000/svg"><title id="${id}-title">${text.title}</title><desc id="${id}-desc">${summary}</desc>${body}</svg>
<details class="chart-numbers"><summary>The numbers as a table (${rows} ${rows === 1 ? 'row' : 'rows'})</summary>${table}</details></figure>`
}

const slug = (s: string) =>
	s
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-|-$/g, '')
		.slice(0, 40)

function defaultSummary(data: readonly BarDatum[], valueLabel: string): string {
	const top = data.reduce((best, d) => (d.value > best.value ? d : best), data[0]!)
	return `${data.length} ${data.length === 1 ? 'bar' : 'bars'}; the largest is ${top.label} with ${n(top.value)} ${valueLabel.toLowerCase()}.`
}

const nothing = (data: readonly { value: number }[]) => data.length === 0 || data.every((d) => d.value === 0)

/**
 * One bar per row: the label and the value in words on the first line, a note (if any) on the
 * second, the bar under them (as long as the value is against the largest; centred for a funnel).
 */
function barRows(data: readonly BarDatum[], o: { fill: string; centred?: boolean; row: number; scaleMax?: number }): SafeHtml {
	const max = o.scaleMax ?? Math.max(...data.map((d) => d.value))
	const noted = data.some((d) => d.note)
	return html`${data.map((d, i) => {
		const y = i * o.row
		const barY = y + (noted ? 38 : 22)
		// A value beyond the scale is drawn full width with a gap in it: the bar is shortened.
		const broken = d.value > max
		const width = broken ? 100 : max > 0 && d.value > 0 ? Math.max((d.value / max) * 100, 0.5) : 0
		return html`<g><title>${d.label}: ${n(d.value)}${d.note ? ` (${d.note})` : ''}</title><text x="0" y="${y + 15}" class="chart-label">${cut(d.label)}</text><text x="100%" y="${y + 15}" text-anchor="end" class="chart-value">${n(d.value)}</text>${d.note ? html`<text x="0" y="${y + 31}" class="chart-note">${d.note}</text>` : ''}<rect x="${pct(o.centred ? (100 - width) / 2 : 0)}" y="${barY}" width="${pct(width)}" height="${BAR}" rx="2" fill="${o.fill}" data-label="${d.label}" data-value="${d.value}"${broken ? html` data-broken="true"` : ''}/>${broken ? html`<rect x="61%" y="${barY - 2}" width="1.5%" height="${BAR + 4}" fill="#fff" class="chart-break"/>` : ''}</g>`
	})}`
}

/** Horizontal bars, one row per category (sources, jobs, stages, waiting times). */
export function barChart(
	o: ChartText & { data: readonly BarDatum[]; labelHeading: string; valueLabel: string; noteHeading?: string; colour?: ChartColour },
): SafeHtml {
	if (nothing(o.data)) return html`<p class="empty">${o.empty}</p>`
	const row = o.data.some((d) => d.note) ? NOTED_ROW : ROW
	return figure(
		'bar',
		o,
		o.data.length * row,
		barRows(o.data, { fill: PALETTE[o.colour ?? 'blue'], row }),
		o.summary ?? defaultSummary(o.data, o.valueLabel),
		numbersTable(o),
		o.data.length,
	)
}

/**
 * A funnel: each step a centred bar as wide as its count against the widest step, with the share
 * that passed from the step before (as Lever and Ashby show it: the first bar is the whole group,
 * each later one says what share of the step before reached it). When the first step dwarfs the
 * rest (page views against applications), the rest are drawn to their own scale and the first bar
 * is shortened, with a gap in it and a note saying so, so the later steps stay readable.
 */
export function funnelChart(o: ChartText & { steps: readonly { label: string; value: number; href?: string }[]; valueLabel: string }): SafeHtml {
	if (nothing(o.steps)) return html`<p class="empty">${o.empty}</p>`
	const data: BarDatum[] = o.steps.map((s, i) => ({ ...s, note: i === 0 ? undefined : passed(o.steps[i - 1]!.value, s.value) }))
	const rest = Math.max(0, ...data.slice(1).map((d) => d.value))
	const shortened = rest > 0 && data[0]!.value > SHORTEN_OVER * rest
	const drawn = shortened
		? [{ ...data[0]!, note: `bar shortened: ${Math.round(data[0]!.value / rest).toLocaleString('en-US')} times the widest step after it` }, ...data.slice(1)]
		: data
	const first = data[0]!
	const last = data[data.length - 1]!
	const summary = o.summary ?? `${n(first.value)} ${first.label.toLowerCase()} narrowed to ${n(last.value)} ${last.label.toLowerCase()}.`
	return figure(
		'funnel',
		o,
		data.length * NOTED_ROW,
		barRows(drawn, { fill: PALETTE.green, centred: true, row: NOTED_ROW, scaleMax: shortened ? rest : undefined }),
		summary,
		numbersTable({ ...o, data, labelHeading: 'Step', noteHeading: 'Passed from the step before' }),
		data.length,
	)
}

/** A funnel's first bar is shortened when it is more than this many times the widest step after it. */
const SHORTEN_OVER = 4

/** "34% of the step before" (or "none of the step before" when it had none). */
function passed(before: number, now: number): string {
	if (before === 0) return 'none before it'
	const share = (now / before) * 100
	return `${share >= 10 || share === 0 ? Math.round(share) : Math.round(share * 10) / 10}% of the step before`
}

function numbersTable(o: { title: string; data: readonly BarDatum[]; labelHeading: string; valueLabel: string; noteHeading?: string }): SafeHtml {
	const columns: Column<BarDatum>[] = [
		{ label: o.labelHeading, cell: (d) => (d.href ? html`<a href="${d.href}">${d.label}</a>` : d.label) },
		{ label: o.valueLabel, numeric: true, cell: (d) => n(d.value) },
	]
	if (o.data.some((d) => d.note)) columns.push({ label: o.noteHeading ?? 'Note', cell: (d) => d.note ?? '—' })
	return dataTable({ caption: `${o.title}: the numbers`, columns, rows: o.data, empty: '' })
}

export interface Series {
	readonly name: string
	readonly colour: ChartColour
}

export interface Period {
	/** Short label under the chart and in the table, e.g. "Oct 3". */
	readonly label: string
	/** The period in full for the table and the tooltip, e.g. "Friday, October 3, 2026". */
	readonly full?: string
	/** One value per series. */
	readonly values: readonly number[]
}

const PANEL = 150
const PLOT_TOP = 26
const PLOT = 96
/** The plot starts after the axis labels (a share of the width: a few characters on a phone). */
const GUTTER = 9

/**
 * Columns over time, one panel per series (small multiples, each on its own scale: page views and
 * applications differ a hundredfold). The axis shows 0, half and a round maximum; the first,
 * middle and last periods are named under the columns, every period in the table.
 */
export function columnChart(o: ChartText & { periods: readonly Period[]; series: readonly Series[]; periodHeading: string }): SafeHtml {
	if (!o.periods.length || o.periods.every((p) => p.values.every((v) => v === 0))) return html`<p class="empty">${o.empty}</p>`
	const count = o.periods.length
	const slot = (100 - GUTTER) / count
	const panels = o.series.map((s, si) => {
		const top = si * PANEL
		const values = o.periods.map((p) => p.values[si] ?? 0)
		const max = roundUp(Math.max(...values))
		const total = values.reduce((a, b) => a + b, 0)
		const base = top + PLOT_TOP + PLOT
		const grid = [0, 0.5, 1].map((f) => {
			const y = base - f * PLOT
			return html`<line x1="${GUTTER}%" x2="100%" y1="${y}" y2="${y}" class="chart-grid"/><text x="${GUTTER - 1}%" y="${y + 4}" text-anchor="end" class="chart-axis">${compact(max * f)}</text>`
		})
		const columns = o.periods.map((p, i) => {
			const v = values[i]!
			const h = max > 0 ? (v / max) * PLOT : 0
			return html`<rect x="${pct(GUTTER + i * slot + slot * 0.15)}" y="${Math.round((base - h) * 100) / 100}" width="${pct(slot * 0.7)}" height="${Math.round(h * 100) / 100}" fill="${PALETTE[s.colour]}" data-series="${s.name}" data-label="${p.label}" data-value="${v}"><title>${p.full ?? p.label}: ${n(v)} ${s.name.toLowerCase()}</title></rect>`
		})
		return html`<text x="0" y="${top + 16}" class="chart-series">${s.name} · ${n(total)} in all</text>${grid}${columns}`
	})
	const height = o.series.length * PANEL + 18
	const ticks = [...new Set([0, Math.floor((count - 1) / 2), count - 1])].map((i, k, all) => {
		const anchor = all.length === 1 ? 'middle' : k === 0 ? 'start' : k === all.length - 1 ? 'end' : 'middle'
		const x = anchor === 'start' ? GUTTER + i * slot : anchor === 'end' ? GUTTER + (i + 1) * slot : GUTTER + (i + 0.5) * slot
		return html`<text x="${pct(x)}" y="${height - 4}" text-anchor="${anchor}" class="chart-axis">${o.periods[i]!.label}</text>`
	})
	const totals = o.series.map((s, si) => `${n(o.periods.reduce((a, p) => a + (p.values[si] ?? 0), 0))} ${s.name.toLowerCase()}`)
	const summary = o.summary ?? `${count} periods from ${o.periods[0]!.label} to ${o.periods[count - 1]!.label}: ${totals.join(' and ')} in all.`
	const table = dataTable<Period>({
		caption: `${o.title}: the numbers`,
		columns: [
			{ label: o.periodHeading, cell: (p) => p.full ?? p.label },
			...o.series.map((s, si) => ({ label: s.name, numeric: true, cell: (p: Period) => n(p.values[si] ?? 0) })),
		],
		rows: o.periods,
		empty: '',
	})
	return figure('columns', o, height, html`${panels}${ticks}`, summary, table, count)
}

/** The smallest "round" number (1, 2, 2.5, 5 × 10ⁿ) at or above x, so the axis reads easily. */
export function roundUp(x: number): number {
	if (x <= 0) return 1
	const power = 10 ** Math.floor(Math.log10(x))
	for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= x) return step * power
	return 10 * power
}

const COMPACT = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 })
const compact = (x: number) => COMPACT.format(x)
