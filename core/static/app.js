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
