/** Vendor descriptions as stored (sanitizeDescription) and as read as text (htmlToText). */
import { describe, expect, test } from 'bun:test'
import { htmlToText, sanitizeDescription } from './sanitize.ts'

describe('htmlToText', () => {
	test('reads what a browser shows: each entity decoded once, so escaped markup stays text', () => {
		// The careers page renders the stored HTML: "write &lt;br&gt; to break a line; AT&amp;T".
		const stored = sanitizeDescription('<p>write &amp;lt;br&amp;gt; to break a line; AT&amp;amp;T</p>').html
		expect(htmlToText(stored)).toBe('write &lt;br&gt; to break a line; AT&amp;T')
		expect(htmlToText('<p>a &amp;quot;b&amp;quot; &amp;#39;c&amp;#39; &amp;amp;amp;</p>')).toBe('a &quot;b&quot; &#39;c&#39; &amp;amp;')
	})

	test('decodes the characters themselves, named and numeric entities alike', () => {
		expect(htmlToText('<p>5 &lt; 6 &amp; 7 &gt; 2, &quot;Q&quot; &#39;s&#x27; caf&eacute; &#233;</p>')).toBe('5 < 6 & 7 > 2, "Q" \'s\' café é')
		expect(htmlToText('<h2>Role</h2><ul><li>Java</li><li>SQL</li></ul><p>a<br>b</p>')).toBe('Role\nJava\nSQL\na\nb')
	})
})
