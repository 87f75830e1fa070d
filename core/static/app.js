// Progressive enhancement only: every page works without it. No inline script anywhere (CSP).
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
// A page that shows form errors moves the focus to their summary, so it is read out at once.
document.addEventListener('DOMContentLoaded', () => {
	const summary = document.querySelector('[data-autofocus]')
	if (summary) summary.focus()
})
