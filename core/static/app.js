// Progressive enhancement only: every page works without it. No inline script anywhere (CSP).
// Loaded in <head> without `defer` (core/html.ts): the handlers below listen on the document before
// any of the page's buttons and forms exist, so none can be pressed before they are wired.
document.addEventListener('click', async (event) => {
	const button = event.target.closest('[data-copy]')
	if (!button) return
	const source = document.getElementById(button.getAttribute('data-copy'))
	if (!source) return
	try {
		await navigator.clipboard.writeText(source.textContent.trim())
		button.textContent = 'Copied'
	} catch {
		const range = document.createRange()
		range.selectNodeContents(source)
		const selection = window.getSelection()
		selection.removeAllRanges()
		selection.addRange(range)
		button.textContent = 'Selected: press Ctrl+C'
	}
})
document.addEventListener('submit', (event) => {
	const question = event.target.getAttribute('data-confirm')
	if (question && !window.confirm(question)) event.preventDefault()
})
document.addEventListener('DOMContentLoaded', () => {
	// Buttons only this script can work are hidden in the HTML (core/ui.ts scriptButton): shown now,
	// so nobody presses one that would do nothing.
	for (const button of document.querySelectorAll('[data-needs-script]')) button.hidden = false
	// A page that shows form errors moves the focus to their summary, so it is read out at once.
	const summary = document.querySelector('[data-autofocus]')
	if (summary) summary.focus()
})
// API access page: "Test connection" speaks MCP to /api/mcp from this browser with the portal
// session (initialize, then tools/list) and says which workspace answered and how many tools.
async function mcpCall(csrf, id, method, params) {
	const res = await fetch('/api/mcp', {
		method: 'POST',
		credentials: 'same-origin',
		headers: {
			'content-type': 'application/json',
			accept: 'application/json, text/event-stream',
			'mcp-protocol-version': '2025-06-18',
			'x-benchline-connection-test': csrf,
		},
		body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
	})
	const text = await res.text()
	// The answer is JSON, or one server-sent event whose data is the JSON.
	const data = text.trim().startsWith('{')
		? text
		: text
				.split('\n')
				.filter((l) => l.startsWith('data:'))
				.map((l) => l.slice(5))
				.join('')
	const message = data ? JSON.parse(data) : null
	if (!res.ok || !message || message.error) throw new Error(message?.error?.message || `the server answered ${res.status}`)
	return message.result
}
document.addEventListener('click', async (event) => {
	const button = event.target.closest('[data-test-connection]')
	if (!button) return
	const out = document.getElementById('connection-result')
	const csrf = button.getAttribute('data-test-connection')
	button.disabled = true
	out.textContent = 'Testing…'
	try {
		const init = await mcpCall(csrf, 1, 'initialize', {
			protocolVersion: '2025-06-18',
			capabilities: {},
			clientInfo: { name: 'benchline-connection-test', version: '1' },
		})
		const list = await mcpCall(csrf, 2, 'tools/list', {})
		const where = /workspace "([^"]+)" as a person with the role ([a-z ]+)/.exec(init.instructions || '')
		out.textContent = `Connected: ${init.serverInfo.title || init.serverInfo.name} answers at ${location.origin}/api/mcp${where ? ` for the workspace ${where[1]} (your role: ${where[2]})` : ''} with ${list.tools.length} tools.`
	} catch (error) {
		out.textContent = `The connection test failed: ${error.message}`
	} finally {
		button.disabled = false
	}
})
// The sign-in form sends the browser's time zone: a person who has not chosen one gets it (their profile can change it).
document.addEventListener('DOMContentLoaded', () => {
	let zone = ''
	try {
		zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ''
	} catch {}
	for (const input of document.querySelectorAll('input[data-browser-time-zone]')) input.value = zone
})
// A job's pipeline board: a card moves to another stage without reloading the page, from its Move
// menu (keyboard and touch) or, on a desktop, by dragging it to another column (native drag and
// drop: no library to serve, and nothing to sort inside a column, whose order the server decides).
// Both post the same Move to stage as the form does without script, asking for JSON, and say what
// happened in the board's live region. Without script, or when the answer is not JSON, the Move
// menu's form posts as usual; a dragged card goes back where it was and the region says why.
const board = {
	/** The card being dragged, while it is. */
	dragging: null,
	/** Dragging is offered where there is a fine pointer that hovers and room for the columns (app.css). */
	desktop: window.matchMedia('(hover: hover) and (pointer: fine) and (min-width: 40.0625rem)'),
}
const cardName = (card) => card?.querySelector('a')?.textContent ?? 'The application'
const stageLabel = (section) => section?.querySelector('h3 a span')?.textContent ?? 'its stage'
/** Posts the card's Move to stage form for `stageKey`; the JSON answer, or an error in the server's words. */
async function askMove(form, stageKey) {
	const body = new URLSearchParams(new FormData(form))
	body.set('stageKey', stageKey)
	const res = await fetch(form.action, {
		method: 'POST',
		credentials: 'same-origin',
		headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
		body,
	})
	if (res.headers.get('content-type')?.includes('application/json')) {
		const answer = await res.json()
		if (!res.ok) throw new Error(answer.error || `the server answered ${res.status}`)
		return answer
	}
	// A refusal before the move was looked at (role, expired form, signed out) is an error page: its words.
	const page = new DOMParser().parseFromString(await res.text(), 'text/html')
	const said = page.querySelector('.card h1 + p')?.textContent?.trim()
	throw Object.assign(new Error(said || `the server answered ${res.status}`), { page: true })
}
/** Adds `delta` to a column's count and shows its "Nobody at this stage." when it has no card left. */
function countCards(section, delta) {
	const badge = section?.querySelector('[data-count]')
	if (!badge) return
	const n = Number(badge.textContent.replace(/[^0-9]/g, '')) + delta
	badge.textContent = n.toLocaleString('en-US')
	const empty = section.querySelector('.empty')
	if (empty) empty.hidden = section.querySelector('ol').children.length > 0
}
/** Puts the card in the column `to` (first, or before `before`), or off the board when its column is not shown. */
function placeCard(card, to, before = null) {
	const from = card.closest('section[data-stage]')
	const list = to?.querySelector('ol')
	if (list) list.insertBefore(card, before?.parentElement === list ? before : list.firstElementChild)
	else card.remove()
	countCards(from, -1)
	countCards(to, +1)
}
document.addEventListener('submit', async (event) => {
	const form = event.target.closest('form[data-quick-move]')
	if (!form || event.defaultPrevented) return
	event.preventDefault()
	const said = form.closest('#pipeline')?.querySelector('[data-pipeline-status]')
	const card = form.closest('li[data-application]')
	const button = form.querySelector('button')
	const name = cardName(card)
	button.disabled = true
	try {
		const answer = await askMove(form, form.elements.stageKey.value)
		if (!answer.moved) {
			said.textContent = `${name} is already at ${answer.to.label}.`
			return
		}
		form.closest('details').open = false
		const inStage = card.querySelector('[data-in-stage]')
		if (inStage) inStage.textContent = 'entered today'
		placeCard(card, form.closest('#pipeline').querySelector(`section[data-stage="${CSS.escape(answer.to.key)}"]`))
		said.textContent = `${name} moved from ${answer.from.label} to ${answer.to.label}.`
		card.querySelector('summary')?.focus()
	} catch (error) {
		if (error.page) return form.submit()
		said.textContent = `${name} was not moved: ${error.message}`
	} finally {
		button.disabled = false
	}
})
/** Cards with a Move menu can be dragged on a desktop; not on a phone, where the menu does it. */
function offerDragging() {
	for (const card of document.querySelectorAll('#pipeline li[data-application]')) {
		if (!card.querySelector('form[data-quick-move]')) continue
		if (board.desktop.matches && !card.hasAttribute('aria-busy')) card.setAttribute('draggable', 'true')
		else card.removeAttribute('draggable')
	}
	for (const hint of document.querySelectorAll('[data-drag-hint]')) hint.hidden = !board.desktop.matches
}
document.addEventListener('DOMContentLoaded', offerDragging)
board.desktop.addEventListener('change', offerDragging)
/** The column a dragged card may be dropped on under the event: another column of the same board. */
function dropColumn(event) {
	const card = board.dragging
	const column = card && event.target.closest?.('section[data-stage]')
	if (!column || column === card.closest('section[data-stage]') || column.closest('#pipeline') !== card.closest('#pipeline')) return null
	return column
}
function markDropColumn(column) {
	for (const c of document.querySelectorAll('section[data-drop-target]')) if (c !== column) c.removeAttribute('data-drop-target')
	column?.setAttribute('data-drop-target', '')
}
document.addEventListener('dragstart', (event) => {
	const card = event.target.closest?.('#pipeline li[draggable="true"]')
	if (!card) return
	board.dragging = card
	card.setAttribute('data-dragging', '')
	event.dataTransfer.effectAllowed = 'move'
	event.dataTransfer.setData('text/plain', cardName(card))
})
document.addEventListener('dragover', (event) => {
	if (!board.dragging) return
	const column = dropColumn(event)
	markDropColumn(column)
	if (!column) return
	event.preventDefault()
	event.dataTransfer.dropEffect = 'move'
})
document.addEventListener('dragend', () => {
	board.dragging?.removeAttribute('data-dragging')
	board.dragging = null
	markDropColumn(null)
})
document.addEventListener('drop', (event) => {
	const column = dropColumn(event)
	if (!column) return
	event.preventDefault()
	const card = board.dragging
	card.removeAttribute('data-dragging')
	board.dragging = null
	markDropColumn(null)
	dropCard(card, column)
})
/**
 * A dropped card shows in its new column at once and is moved on the server; if the server refuses
 * (a role that may not move, an application out of reach), it goes back where it was and the live
 * region says why.
 */
async function dropCard(card, to) {
	const form = card.querySelector('form[data-quick-move]')
	const said = card.closest('#pipeline').querySelector('[data-pipeline-status]')
	const from = card.closest('section[data-stage]')
	const next = card.nextElementSibling
	const inStage = card.querySelector('[data-in-stage]')
	const wasInStage = inStage?.textContent
	const name = cardName(card)
	placeCard(card, to)
	card.setAttribute('aria-busy', 'true')
	card.removeAttribute('draggable')
	said.textContent = `Moving ${name} to ${stageLabel(to)}…`
	try {
		const answer = await askMove(form, to.getAttribute('data-stage'))
		form.elements.stageKey.value = answer.to.key
		if (answer.moved && inStage) inStage.textContent = 'entered today'
		said.textContent = answer.moved ? `${name} moved from ${answer.from.label} to ${answer.to.label}.` : `${name} is already at ${answer.to.label}.`
	} catch (error) {
		placeCard(card, from, next)
		if (inStage) inStage.textContent = wasInStage
		said.textContent = `${name} was not moved: ${error.message.replace(/\.$/, '')}. It is back in ${stageLabel(from)}.`
	} finally {
		card.removeAttribute('aria-busy')
		if (board.desktop.matches) card.setAttribute('draggable', 'true')
	}
}
// Bulk forms: "Select all on this page" ticks (or clears) every row's box of the same name.
document.addEventListener('change', (event) => {
	const all = event.target.closest('input[data-select-all]')
	if (!all) return
	// The form's own elements, those joined to it by form= included.
	const name = all.getAttribute('data-select-all')
	for (const box of all.form.elements) if (box.type === 'checkbox' && box.name === name) box.checked = all.checked
})
// The header (core/html.ts): the phone's Menu button, the keyboard shortcuts and the search box's results list.
document.addEventListener('DOMContentLoaded', () => {
	// Without script the menu's links stay shown; with it, a phone shows them when Menu is pressed (app.css).
	document.getElementById('site-menu')?.setAttribute('data-collapsible', '')
})
function setMenu(button, open) {
	button.setAttribute('aria-expanded', String(open))
	document.getElementById(button.getAttribute('aria-controls'))?.toggleAttribute('data-open', open)
}
function showShortcuts() {
	const dialog = document.getElementById('shortcuts')
	if (dialog && !dialog.open) dialog.showModal()
}
document.addEventListener('click', (event) => {
	const menu = event.target.closest('[data-menu-button]')
	if (menu) setMenu(menu, menu.getAttribute('aria-expanded') !== 'true')
	if (event.target.closest('[data-shortcuts]')) showShortcuts()
})
const typingIn = (el) => el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName))
document.addEventListener('keydown', (event) => {
	if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target)) return
	if (event.key === '/') {
		const box = document.querySelector('[data-site-search]')
		if (!box) return
		event.preventDefault()
		box.focus()
		box.select()
	} else if (event.key === '?') {
		if (!document.getElementById('shortcuts')) return
		event.preventDefault()
		showShortcuts()
	} else if (event.key === 'Escape') {
		const menu = document.querySelector('[data-menu-button][aria-expanded="true"]')
		if (!menu) return
		setMenu(menu, false)
		menu.focus()
	}
})
// The search box as a combobox (WAI-ARIA APG, list autocomplete): typing asks the results page for
// JSON (the same search, the same role limits) and lists the best of each type; the arrow keys move
// through them, Enter opens the chosen one (or, with none chosen, the results page: the form posts as usual).
const siteSearch = { timer: 0, abort: null }
function searchList(input) {
	return document.getElementById(input.getAttribute('aria-controls'))
}
function closeSearch(input) {
	const list = searchList(input)
	if (list) list.hidden = true
	input.setAttribute('aria-expanded', 'false')
	input.removeAttribute('aria-activedescendant')
}
function searchOptions(input) {
	return [...searchList(input).querySelectorAll('[role="option"]')]
}
function chooseOption(input, option) {
	for (const o of searchOptions(input)) o.setAttribute('aria-selected', String(o === option))
	if (option) {
		input.setAttribute('aria-activedescendant', option.id)
		option.scrollIntoView({ block: 'nearest' })
	} else input.removeAttribute('aria-activedescendant')
}
function showResults(input, answer) {
	const list = searchList(input)
	list.replaceChildren()
	let n = 0
	const option = (text, meta, href, kind) => {
		const o = document.createElement('div')
		o.setAttribute('role', 'option')
		o.setAttribute('aria-selected', 'false')
		o.id = `site-search-option-${n++}`
		o.dataset.href = href
		o.className = kind ?? 'hit'
		o.textContent = text
		if (meta) {
			const m = document.createElement('span')
			m.className = 'meta'
			m.textContent = meta
			o.append(m)
		}
		return o
	}
	let hits = 0
	for (const g of answer.groups) {
		if (!g.hits.length) continue
		const group = document.createElement('div')
		group.setAttribute('role', 'group')
		const label = document.createElement('div')
		label.id = `site-search-group-${g.type}`
		label.className = 'search-group'
		label.textContent = `${g.label} · ${g.count}`
		group.setAttribute('aria-labelledby', label.id)
		group.append(label)
		for (const h of g.hits) if (h.href) group.append(option(h.title, h.snippet, h.href))
		if (g.seeAll) group.append(option(g.seeAll.text, '', g.seeAll.href, 'see-all'))
		hits += g.hits.length
		list.append(group)
	}
	const page = new URL(input.form.action)
	page.searchParams.set('q', answer.query)
	list.append(
		option(hits ? `All results for “${answer.query}”` : `Nothing matches “${answer.query}”: open the search page`, '', page.pathname + page.search, 'see-all'),
	)
	list.hidden = false
	input.setAttribute('aria-expanded', 'true')
	input.removeAttribute('aria-activedescendant')
	const status = input.form.querySelector('[data-search-status]')
	if (status) status.textContent = hits ? `${hits} results listed` : 'No results'
}
async function askSearch(input) {
	const q = input.value.replace(/\s+/g, ' ').trim()
	siteSearch.abort?.abort()
	if ([...q].length < 2) return closeSearch(input)
	siteSearch.abort = new AbortController()
	const url = new URL(input.form.action)
	url.searchParams.set('q', q)
	try {
		const res = await fetch(url, { credentials: 'same-origin', headers: { accept: 'application/json' }, signal: siteSearch.abort.signal })
		if (!res.ok || !res.headers.get('content-type')?.includes('application/json')) return closeSearch(input)
		const answer = await res.json()
		if (answer.error || document.activeElement !== input) return closeSearch(input)
		showResults(input, answer)
	} catch (error) {
		if (error.name !== 'AbortError') closeSearch(input)
	}
}
document.addEventListener('input', (event) => {
	const input = event.target.closest?.('[data-site-search]')
	if (!input) return
	clearTimeout(siteSearch.timer)
	siteSearch.timer = setTimeout(() => askSearch(input), 150)
})
document.addEventListener('keydown', (event) => {
	const input = event.target.closest?.('[data-site-search]')
	if (!input) return
	const open = input.getAttribute('aria-expanded') === 'true'
	const options = open ? searchOptions(input) : []
	const at = options.findIndex((o) => o.id === input.getAttribute('aria-activedescendant'))
	if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
		if (!options.length) return
		event.preventDefault()
		const step = event.key === 'ArrowDown' ? 1 : -1
		chooseOption(input, options[at < 0 ? (step > 0 ? 0 : options.length - 1) : (at + step + options.length) % options.length])
	} else if (event.key === 'Enter' && at >= 0) {
		event.preventDefault()
		window.location.assign(options[at].dataset.href)
	} else if (event.key === 'Escape') {
		event.preventDefault()
		if (open) closeSearch(input)
		else input.value = ''
	}
})
// A pointer (mouse or touch) on a result: the box keeps the focus and the result opens.
document.addEventListener('mousedown', (event) => {
	if (event.target.closest('.search-pop [role="option"]')) event.preventDefault()
})
document.addEventListener('click', (event) => {
	const option = event.target.closest('.search-pop [role="option"]')
	if (option) window.location.assign(option.dataset.href)
})
document.addEventListener('focusout', (event) => {
	const input = event.target.closest?.('[data-site-search]')
	if (input && !input.form.contains(event.relatedTarget)) closeSearch(input)
})
