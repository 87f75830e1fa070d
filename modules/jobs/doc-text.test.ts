/** The docs page's one rendering of every module's text: inline code as Markdown writes it, the rest escaped. */
import { describe, expect, test } from 'bun:test'
import { call } from '../../tests/helpers.ts'
import { docText, operationLine } from './doc-text.ts'

const shown = (text: string) => docText(text).value

describe('docText', () => {
	test('a code span is <code>, as CommonMark reads it', () => {
		expect(shown('`enabled` is false')).toBe('<code>enabled</code> is false')
		// A longer run holds a backtick; one space each side is dropped when both ends have one.
		expect(shown('``a ` b``')).toBe('<code>a ` b</code>')
		expect(shown('`` ` ``')).toBe('<code>`</code>')
		expect(shown('` `')).toBe('<code> </code>')
		// Line endings in a span are spaces; a backslash in one is itself.
		expect(shown('`a\nb\\`')).toBe('<code>a b\\</code>')
	})

	test('a backtick that opens no span, or is escaped, stays a backtick', () => {
		expect(shown('it`s')).toBe('it`s')
		expect(shown('``a`')).toBe('``a`')
		expect(shown('\\`not code\\`')).toBe('`not code`')
		expect(shown('C:\\path')).toBe('C:\\path')
	})

	test('everything, in a span or not, is escaped', () => {
		expect(shown('<b>&`<script>"x"</script>`')).toBe('&lt;b&gt;&amp;<code>&lt;script&gt;&quot;x&quot;&lt;/script&gt;</code>')
		expect(shown('`</code><img src=x onerror=alert(1)>`')).toBe('<code>&lt;/code&gt;&lt;img src=x onerror=alert(1)&gt;</code>')
	})

	test('an operation’s line starts with its method and path as code, then its text rendered the same way', () => {
		expect(operationLine('GET /webhooks lists; `enabled` says').value).toBe('<li><code>GET /webhooks</code> lists; <code>enabled</code> says</li>')
		expect(operationLine('An endpoint `off` stays off').value).toBe('<li>An endpoint <code>off</code> stays off</li>')
	})
})

describe('/api/v1/docs', () => {
	test('shows no Markdown backticks: every module’s inline code is code', async () => {
		const page = (await call('GET', '/api/v1/docs')).text
		const main = page.slice(page.indexOf('<h1>'), page.indexOf('<h2>Examples</h2>'))
		expect(main).toContain('<code>disabledReason</code>')
		expect(main).toContain('<code>vendorJobId</code>')
		expect(main.match(/`[^`<]*`/g) ?? []).toEqual([])
	})
})
