/**
 * The chart helpers: what each bar or column draws is its value against the scale, every number is
 * in the table too, text is escaped, and a chart with nothing to draw says so instead of drawing axes.
 */
import { describe, expect, test } from 'bun:test'
import { barChart, columnChart, funnelChart, roundUp } from './charts.ts'

/** Each `<rect data-label data-value …>` of a chart, with the attributes it was drawn with. */
function rects(svg: string) {
	return [...svg.matchAll(/<rect ([^>]*data-value="[^"]*"[^>]*)>/g)].map((m) => {
		const attr = (name: string) => m[1]!.match(new RegExp(`(?:^| )${name}="([^"]*)"`))?.[1]
		return {
			label: attr('data-label')!,
			value: Number(attr('data-value')),
			width: attr('width')!,
			height: attr('height')!,
			x: attr('x')!,
			broken: attr('data-broken') === 'true',
		}
	})
}
const percent = (s: string) => Number(s.replace('%', ''))
const cells = (html: string) => [...html.matchAll(/<td[^>]*>(?:<div class="cell">)?(.*?)(?:<\/div>)?<\/td>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ''))

describe('barChart', () => {
	const data = [
		{ label: 'LinkedIn', value: 80 },
		{ label: 'Indeed', value: 20 },
		{ label: 'Dice', value: 0 },
	]
	const chart = barChart({ title: 'Applications by source', labelHeading: 'Source', valueLabel: 'Applications', data, empty: 'None.' }).value

	test('each bar is as long as its value against the largest, and says its value', () => {
		expect(rects(chart).map((r) => [r.label, r.value, percent(r.width)])).toEqual([
			['LinkedIn', 80, 100],
			['Indeed', 20, 25],
			['Dice', 0, 0],
		])
		for (const d of data) expect(chart).toContain(`>${d.value}</text>`)
	})

	test('an image named by its title and described, with the same numbers in a table', () => {
		expect(chart).toMatch(/<svg role="img" aria-labelledby="(chart-bar-[a-z-]+)-title \1-desc"/)
		expect(chart).toContain('<title id="chart-bar-applications-by-source-title">Applications by source</title>')
		expect(chart).toMatch(/<desc [^>]*>3 bars; the largest is LinkedIn with 80 applications.<\/desc>/)
		expect(cells(chart)).toEqual(['LinkedIn', '80', 'Indeed', '20', 'Dice', '0'])
	})

	test('labels and notes are escaped', () => {
		const hostile = barChart({
			title: 'T',
			labelHeading: 'L',
			valueLabel: 'V',
			data: [{ label: '<script>alert(1)</script>', value: 3, note: '"><img src=x>' }],
			empty: '',
		}).value
		expect(hostile).not.toContain('<script>')
		expect(hostile).not.toContain('<img')
		expect(hostile).toContain('&lt;script&gt;')
	})

	test('nothing to draw: a sentence, no axes, no table', () => {
		for (const empty of [[], [{ label: 'A', value: 0 }]]) {
			const out = barChart({ title: 'T', labelHeading: 'L', valueLabel: 'V', data: empty, empty: 'No applications in these days.' }).value
			expect(out).toBe('<p class="empty">No applications in these days.</p>')
		}
	})
})

describe('funnelChart', () => {
	test('centred bars against the widest step, each with the share passed from the step before', () => {
		const chart = funnelChart({
			title: 'Funnel',
			valueLabel: 'Count',
			steps: [
				{ label: 'Applications', value: 40 },
				{ label: 'Screening', value: 30 },
				{ label: 'Hired', value: 3 },
			],
			empty: '',
		}).value
		const bars = rects(chart)
		expect(bars.map((b) => [b.label, b.value, percent(b.width)])).toEqual([
			['Applications', 40, 100],
			['Screening', 30, 75],
			['Hired', 3, 7.5],
		])
		for (const b of bars) expect(percent(b.x)).toBeCloseTo((100 - percent(b.width)) / 2, 1)
		expect(cells(chart)).toEqual(['Applications', '40', '—', 'Screening', '30', '75% of the step before', 'Hired', '3', '10% of the step before'])
	})

	test('a first step that dwarfs the rest is shortened, marked, and the rest keep their own scale', () => {
		const chart = funnelChart({
			title: 'Funnel',
			valueLabel: 'Count',
			steps: [
				{ label: 'Views', value: 5000 },
				{ label: 'Applications', value: 100 },
				{ label: 'Hired', value: 10 },
			],
			empty: '',
		}).value
		const [views, apps, hired] = rects(chart)
		expect([views!.broken, percent(views!.width)]).toEqual([true, 100])
		expect([apps!.broken, percent(apps!.width), percent(hired!.width)]).toEqual([false, 100, 10])
		expect(chart).toContain('bar shortened: 50 times the widest step after it')
		// The table keeps the exact numbers and the real share.
		expect(cells(chart).slice(0, 6)).toEqual(['Views', '5,000', '—', 'Applications', '100', '2% of the step before'])
	})
})

describe('columnChart', () => {
	const periods = [
		{ label: 'Nov 1', values: [10, 1] },
		{ label: 'Nov 2', values: [40, 4] },
		{ label: 'Nov 3', values: [0, 2] },
	]
	const chart = columnChart({
		title: 'Per day',
		periodHeading: 'Day',
		series: [
			{ name: 'Views', colour: 'blue' },
			{ name: 'Applications', colour: 'vermillion' },
		],
		periods,
		empty: 'Nothing.',
	}).value

	test('one panel per series on its own round scale; each column as tall as its value', () => {
		const columns = rects(chart)
		expect(columns.map((c) => [c.label, c.value])).toEqual([
			['Nov 1', 10],
			['Nov 2', 40],
			['Nov 3', 0],
			['Nov 1', 1],
			['Nov 2', 4],
			['Nov 3', 2],
		])
		// Views on a scale of 50, applications on a scale of 5 (96 px tall plots).
		expect(columns.map((c) => Number(c.height))).toEqual([19.2, 76.8, 0, 19.2, 76.8, 38.4])
		expect(chart).toContain('Views · 50 in all')
		expect(chart).toContain('Applications · 7 in all')
		expect(cells(chart)).toEqual(['Nov 1', '10', '1', 'Nov 2', '40', '4', 'Nov 3', '0', '2'])
	})

	test('no data: a sentence instead of empty axes', () => {
		expect(
			columnChart({
				title: 'T',
				periodHeading: 'Day',
				series: [{ name: 'Views', colour: 'blue' }],
				periods: [{ label: 'Nov 1', values: [0] }],
				empty: 'No visits.',
			}).value,
		).toBe('<p class="empty">No visits.</p>')
	})

	test('round scales', () => {
		expect([0, 1, 3, 7, 11, 26, 240, 999, 1001].map(roundUp)).toEqual([1, 1, 5, 10, 20, 50, 250, 1000, 2000])
	})
})
