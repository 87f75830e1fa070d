/*
 * Shared script of Benchline's MCP Apps views, inlined into each view after the official runtime
 * (core/mcp/apps/views.ts), as `globalThis.BenchlineView`.
 *
 * Rules every view follows through these helpers:
 * - Text is only ever set as text (`textContent`, text nodes): tool results carry text written by
 *   candidates, vendors and colleagues, and `untrusted` envelopes are shown by their `.text`.
 * - No links and no addresses: a view sets no `href`, `src` or event-handler attribute.
 * - The view holds no credential and reaches nothing itself: more data comes from read tools called
 *   through the assistant app, and a write is asked of the app as a tool call (the app asks the person).
 */
const { App, applyDocumentTheme, applyHostStyleVariables } = globalThis.ExtApps

const settings = JSON.parse(document.getElementById('view-settings')?.textContent || '{}')

// Attributes that load, navigate or run something: never set from a view (whatever the value).
const FORBIDDEN_ATTRIBUTES = /^(on.*|href|xlink:href|src|srcdoc|srcset|action|formaction|poster|data|style)$/i

function setAttributes(node, attributes) {
	for (const [name, value] of Object.entries(attributes ?? {})) {
		if (value === null || value === undefined || value === false) continue
		if (name === 'on') {
			for (const [event, handler] of Object.entries(value)) node.addEventListener(event, handler)
			continue
		}
		if (FORBIDDEN_ATTRIBUTES.test(name)) throw new Error(`Views do not set the ${name} attribute`)
		node.setAttribute(name, value === true ? '' : String(value))
	}
}

/** Appends children: nodes as they are, arrays flattened, anything else as a text node. */
function append(node, children) {
	for (const child of children) {
		if (child === null || child === undefined || child === false) continue
		if (Array.isArray(child)) append(node, child)
		else if (child instanceof Node) node.append(child)
		else node.append(document.createTextNode(String(child)))
	}
	return node
}

/** Adds children to a node (see `append`). */
const add = (node, ...children) => append(node, children)
/** Replaces a node's children (null and false are skipped, strings become text). */
function fill(node, ...children) {
	node.replaceChildren()
	return append(node, children)
}

/** `el('p', { class: 'meta', on: { click } }, 'text', child)`: an element with text children. */
function el(tag, attributes, ...children) {
	const node = document.createElement(tag)
	setAttributes(node, attributes)
	return append(node, children)
}

const SVG_NS = 'http://www.w3.org/2000/svg'
/** The same for SVG elements (charts). */
function svg(tag, attributes, ...children) {
	const node = document.createElementNS(SVG_NS, tag)
	setAttributes(node, attributes)
	return append(node, children)
}

const isEnvelope = (value) => Boolean(value && typeof value === 'object' && value.untrusted === true && typeof value.text === 'string')

/** The words of a field: an untrusted envelope's `.text`, a string, a number; '' for nothing. */
function text(value) {
	if (isEnvelope(value)) return value.text
	if (value === null || value === undefined) return ''
	return typeof value === 'object' ? '' : String(value)
}

// Every \`writtenBy\` an envelope may carry (core/untrusted.ts TEXT_AUTHORS; core/mcp/apps/views.test.ts checks).
const AUTHORS = { candidate: 'the candidate', vendor: 'the vendor', colleague: 'a colleague', self: 'you', outside: 'someone outside the firm' }

/** Text someone else wrote, quoted as text (with who wrote it, and a note when it was cut). */
function said(value, attributes = {}) {
	const words = text(value)
	if (!words) return null
	const by = isEnvelope(value) ? AUTHORS[value.writtenBy] : undefined
	return el(
		'blockquote',
		{ class: 'said', ...(by ? { title: `Written by ${by}` } : {}), ...attributes },
		words,
		isEnvelope(value) && value.truncated ? el('span', { class: 'cut' }, ' … (cut short)') : null,
	)
}

function tag(words, tone = 'neutral') {
	return el('span', { class: `tag tone-${tone}` }, words)
}

/** Formatting in the person's language and time zone, as the assistant app reports them. */
const place = { locale: undefined, timeZone: undefined }
const format = {
	number: (n) => (n === null || n === undefined ? '–' : new Intl.NumberFormat(place.locale).format(n)),
	percent: (n, digits = 1) => (n === null || n === undefined ? '–' : `${new Intl.NumberFormat(place.locale, { maximumFractionDigits: digits }).format(n)}%`),
	date: (iso, options = { dateStyle: 'medium' }) =>
		iso ? new Intl.DateTimeFormat(place.locale, { timeZone: place.timeZone, ...options }).format(new Date(iso)) : '–',
	dateTime: (iso) =>
		iso ? new Intl.DateTimeFormat(place.locale, { timeZone: place.timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso)) : '–',
	time: (iso) => new Intl.DateTimeFormat(place.locale, { timeZone: place.timeZone, timeStyle: 'short' }).format(new Date(iso)),
	/** A calendar day given as YYYY-MM-DD, in words. */
	calendarDay: (day, options = { dateStyle: 'medium' }) =>
		new Intl.DateTimeFormat(place.locale, { timeZone: 'UTC', ...options }).format(new Date(`${day}T00:00:00Z`)),
	timeZone: () => place.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
	/** The calendar day of an instant in the person's time zone, as YYYY-MM-DD. */
	day: (iso) => new Intl.DateTimeFormat('en-CA', { timeZone: place.timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso)),
}

/** A tool answered with an error (its message is written for people and models alike). */
class ToolError extends Error {}

/** The data of a tool result: `structuredContent`, or the JSON text for apps that pass only `content`. */
function dataOf(result) {
	const words = (result?.content ?? []).filter((c) => c.type === 'text').map((c) => c.text)
	if (result?.isError) throw new ToolError(words.join('\n') || 'The tool answered with an error.')
	if (result?.structuredContent && typeof result.structuredContent === 'object') return result.structuredContent
	try {
		return JSON.parse(words[0] ?? '')
	} catch {
		throw new ToolError('The tool result holds no data this view can show.')
	}
}

/** `<p class="status">`: what is happening, an error (announced), or a confirmation. */
function status(node, message, kind = 'info') {
	node.className = kind === 'info' ? 'status' : `status ${kind}`
	node.setAttribute('role', kind === 'error' ? 'alert' : 'status')
	node.textContent = message ?? ''
	return node
}

/**
 * A small table of numbers for a chart (the chart's accessible twin). In a narrow host it may scroll
 * sideways: its box is a named region in the tab order, so a keyboard alone can scroll it (as the
 * portal's `scrollingTable`, core/ui.ts).
 */
function numbersTable(caption, columns, rows) {
	return el(
		'div',
		{ class: 'table-wrap', role: 'region', tabindex: '0', 'aria-label': caption },
		el(
			'table',
			{},
			el('caption', { class: 'visually-hidden' }, caption),
			el(
				'thead',
				{},
				el(
					'tr',
					{},
					columns.map((c) => el('th', { scope: 'col', class: c.numeric ? 'num' : null }, c.label)),
				),
			),
			el(
				'tbody',
				{},
				rows.map((row) =>
					el(
						'tr',
						{},
						columns.map((c, i) => el(i === 0 ? 'th' : 'td', { scope: i === 0 ? 'row' : null, class: c.numeric ? 'num' : null }, row[i])),
					),
				),
			),
		),
	)
}

function applyContext(context) {
	if (!context) return
	if (context.theme) applyDocumentTheme(context.theme)
	// Colours and sizes only: the app's font files would come from another origin, which the CSP refuses.
	if (context.styles?.variables) applyHostStyleVariables(context.styles.variables)
	if (context.locale) place.locale = context.locale
	if (context.timeZone) place.timeZone = context.timeZone
}

/**
 * Connects the view to the assistant app and calls `show(data, view)` with each tool result.
 * `view.call(name, args)` calls a tool through the app and returns its data (throws `ToolError`);
 * `view.ask(text)` posts a message in the chat for the assistant.
 */
async function startView({ name, show }) {
	const main = document.querySelector('main')
	const line = status(el('p'), 'Waiting for the result…')
	fill(main, line)
	const app = new App({ name: `benchline-${name}`, version: '1.0.0' }, {}, { autoResize: true })
	const view = {
		app,
		settings,
		/** The arguments of the tool call this view shows. */
		args: {},
		/** The tools this view calls itself that the person may use, as the result lists them (null: not listed). */
		usable: null,
		/** Whether the person may use `tool`; a result that does not say (an app that drops `_meta`) is taken as yes. */
		can(tool) {
			return !Array.isArray(view.usable) || view.usable.includes(tool)
		},
		async call(tool, args) {
			return dataOf(await app.callServerTool({ name: tool, arguments: args }))
		},
		async ask(words) {
			const answer = await app.sendMessage({ role: 'user', content: [{ type: 'text', text: words }] })
			if (answer?.isError) throw new Error('The assistant app did not take the message.')
		},
	}
	const render = async (result) => {
		applyContext(app.getHostContext()) // the result can come before `connect()` has returned
		const usable = result?._meta?.['benchline/usable-tools']
		view.usable = Array.isArray(usable) ? usable : null
		try {
			await show(dataOf(result), view)
		} catch (error) {
			fill(main, status(el('p'), error instanceof ToolError ? error.message : `This view could not show the result: ${error.message}`, 'error'))
		}
	}
	// Handlers first: the app sends the input and the result once, right after the handshake.
	app.ontoolinput = (params) => {
		view.args = params?.arguments ?? {}
	}
	app.ontoolresult = (result) => render(result)
	app.ontoolcancelled = () => status(line, 'The call was cancelled.', 'error')
	app.onhostcontextchanged = (context) => applyContext(context)
	app.onteardown = async () => ({})
	await app.connect()
	applyContext(app.getHostContext())
	return view
}

globalThis.BenchlineView = { startView, el, svg, add, fill, text, said, tag, format, status, numbersTable, ToolError, settings }
