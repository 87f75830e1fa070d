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
// A job's pipeline board: a card's Move menu moves the card without reloading the page (the form
// posts the same Move to stage as without script, asking for JSON) and says what happened in the
// board's live region. Without script, or when the answer is not JSON, the form posts as usual.
document.addEventListener('submit', async (event) => {
	const form = event.target.closest('form[data-quick-move]')
	if (!form || event.defaultPrevented) return
	event.preventDefault()
	const board = form.closest('#pipeline')
	const said = board?.querySelector('[data-pipeline-status]')
	const card = form.closest('li[data-application]')
	const button = form.querySelector('button')
	const name = card?.querySelector('a')?.textContent ?? 'The application'
	button.disabled = true
	try {
		const res = await fetch(form.action, {
			method: 'POST',
			credentials: 'same-origin',
			headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams(new FormData(form)),
		})
		const answer = res.headers.get('content-type')?.includes('application/json') ? await res.json() : null
		if (!answer) return form.submit()
		if (!res.ok) throw new Error(answer.error || `the server answered ${res.status}`)
		if (!answer.moved) {
			said.textContent = `${name} is already at ${answer.to.label}.`
			return
		}
		const from = form.closest('section[data-stage]')
		const to = board.querySelector(`section[data-stage="${CSS.escape(answer.to.key)}"]`)
		const count = (section, delta) => {
			const badge = section?.querySelector('[data-count]')
			if (!badge) return
			const n = Number(badge.textContent.replace(/[^0-9]/g, '')) + delta
			badge.textContent = n.toLocaleString('en-US')
			const empty = section.querySelector('.empty')
			const list = section.querySelector('ol')
			if (empty) empty.hidden = list.children.length > 0
		}
		form.closest('details').open = false
		const inStage = card.querySelector('[data-in-stage]')
		if (inStage) inStage.textContent = 'entered today'
		if (to) to.querySelector('ol').prepend(card)
		else card.remove()
		count(from, -1)
		count(to, +1)
		said.textContent = `${name} moved from ${answer.from.label} to ${answer.to.label}.`
		card.querySelector('summary')?.focus()
	} catch (error) {
		said.textContent = `${name} was not moved: ${error.message}`
	} finally {
		button.disabled = false
	}
})
// Bulk forms: "Select all on this page" ticks (or clears) every row's box of the same name.
document.addEventListener('change', (event) => {
	const all = event.target.closest('input[data-select-all]')
	if (!all) return
	// The form's own elements, those joined to it by form= included.
	const name = all.getAttribute('data-select-all')
	for (const box of all.form.elements) if (box.type === 'checkbox' && box.name === name) box.checked = all.checked
})
