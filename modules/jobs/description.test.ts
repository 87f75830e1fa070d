/**
 * A job's description as stored (description.ts), through every door: the Job Publish API,
 * create_job and the New job form all store what `storedDescription` makes of it.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { call, careersPagePath, newPersonWithToken, newVendor, newWorkspace, testApp, testDeps } from '../../tests/helpers.ts'
import { callTool } from '../../tests/mcp/rpc.ts'
import { personActor } from '../auth/index.ts'
import { storedDescription } from './description.ts'
import { createJob } from './service.ts'

beforeAll(() => testApp(), 60_000)

async function vendorKey() {
	const ws = await newWorkspace()
	return { ws, key: (await newVendor(ws)).apiKey }
}
const publish = (key: string, body: Record<string, unknown>) => call('POST', '/api/v1/jobs', { key, body: { title: 'QA Engineer', ...body } })

describe('character references', () => {
	const controls = '<p>a&#1;b&#x1b;[31mred&#x7f;c&#11;d</p>'

	test('a reference to a control character or a noncharacter is refused as the character itself is, naming the field', () => {
		for (const input of [controls, '<p>a&#x9d;b</p>', '<p>x&#xFFFE;y</p>', '<p>&#xFDD0;</p>', 'R&D &#x10FFFF;'])
			expect([input, storedDescription(input).problem]).toEqual([
				input,
				{ field: 'description', message: expect.stringMatching(/^contains a (control character|noncharacter .*), written as a character reference/) },
			])
		// A reference the decoder would store as U+FFFD is refused as what it names: NUL, a surrogate, no character at all.
		for (const [input, message] of [
			['<p>a&#0;b</p>', 'contains a NUL character'],
			['<p>a&#x0000;b</p>', 'contains a NUL character'],
			['<p>&#xD800;</p>', 'contains an invalid Unicode sequence (a lone surrogate)'],
			['<p>&#x110000;</p>', 'contains a character reference to no Unicode character'],
		])
			expect([input, storedDescription(input).problem]).toEqual([
				input,
				{ field: 'description', message: `${message}, written as a character reference (such as &#27;)` },
			])
		// What HTML reads as text is text: &#x85; is "…" (windows-1252), tab and line feed are white space.
		expect(storedDescription('<p>Wait&#x85; a&#9;b&#10;c &#169;</p>')).toMatchObject({ html: '<p>Wait… a\tb\nc ©</p>', problem: null })
	})

	test('the Job Publish API answers 422 naming description, on publish and change, and stores nothing of it', async () => {
		const { key } = await vendorKey()
		const refused = await publish(key, { vendorJobId: 'R-1', description: controls })
		expect([refused.status, refused.json.fields]).toEqual([
			422,
			[{ field: 'description', message: 'contains a control character, written as a character reference (such as &#27;)' }],
		])
		expect((await call('GET', '/api/v1/jobs/R-1', { key })).status).toBe(404)
		const kept = await publish(key, { vendorJobId: 'R-1', description: '<p>Wait&#x85; &#169; 2026</p>' })
		expect(kept.status).toBe(201)
		// What a read returns can be sent back as it is.
		const back = await call('PATCH', '/api/v1/jobs/R-1', { key, body: { description: kept.json.job.description } })
		expect([back.status, back.json.job.description]).toEqual([200, '<p>Wait… © 2026</p>'])
		const changed = await call('PATCH', '/api/v1/jobs/R-1', { key, body: { description: '<p>&#xFFFF;</p>' } })
		expect([changed.status, changed.json.fields?.[0]?.field]).toEqual([422, 'description'])
		expect((await call('GET', '/api/v1/jobs/R-1', { key })).json.job.description).toBe('<p>Wait… © 2026</p>')
	})

	test('hidden formatting written as references is removed as the raw characters are, with the warning; &#0; is a 422', async () => {
		const { key } = await vendorKey()
		const raw = await publish(key, { vendorJobId: 'H-1', description: '<p>abc\u202Edef \u{E0041}tag</p>' })
		const referenced = await publish(key, { vendorJobId: 'H-2', description: '<p>abc&#x202E;def &#xE0041;tag</p>' })
		const warning = 'Invisible direction-control and tag characters were removed from description'
		for (const res of [raw, referenced]) {
			expect([res.status, res.json.job.description]).toEqual([201, '<p>abcdef tag</p>'])
			expect(res.json.warnings).toContain(warning)
		}
		const both = await publish(key, { vendorJobId: 'H-3', title: 'QA\u200F Engineer', description: '<p>&#8207;x</p>' })
		expect([both.status, both.json.job.description]).toEqual([201, '<p>x</p>'])
		expect(both.json.warnings).toContain('Invisible direction-control and tag characters were removed from title, description')
		const nul = await publish(key, { vendorJobId: 'H-4', description: '<p>a&#0;b</p>' })
		expect([nul.status, nul.json.fields]).toEqual([
			422,
			[{ field: 'description', message: 'contains a NUL character, written as a character reference (such as &#27;)' }],
		])
	})

	test('create_job is refused with a tool error naming description', async () => {
		const { ws } = await vendorKey()
		const { token } = await newPersonWithToken(ws, 'recruiter')
		const result = await callTool(token, 'create_job', { title: 'Escaped Engineer', description: controls })
		expect(result.isError).toBe(true)
		expect(JSON.stringify(result.content)).toContain('description')
		expect(JSON.stringify(result.content)).toContain('character reference')
	})

	test('a noncharacter sent as itself is refused in any field, as a control character is', async () => {
		const { key } = await vendorKey()
		const res = await publish(key, { vendorJobId: 'N-1', title: 'QA\uFFFE', summary: 'x\uFDD0' })
		expect([res.status, res.json.fields]).toEqual([
			422,
			[
				{ field: 'title', message: 'contains a noncharacter (such as U+FFFE), which is not text' },
				{ field: 'summary', message: 'contains a noncharacter (such as U+FFFE), which is not text' },
			],
		])
	})
})

describe('line breaks', () => {
	const crlf = 'First paragraph.\r\n\r\nSecond paragraph.\r\nSame para line.\rAfter a lone CR.'
	const lf = 'First paragraph.\n\nSecond paragraph.\nSame para line.\nAfter a lone CR.'

	test('CRLF and a lone CR are stored as LF, so the page, JSON-LD and the feeds keep the paragraphs', async () => {
		const { ws, key } = await vendorKey()
		const res = await publish(key, { vendorJobId: 'L-1', location: 'Austin, TX', description: crlf, summary: 'One.\r\nTwo.' })
		expect([res.status, res.json.job.description, res.json.job.summary]).toEqual([201, lf, 'One.\nTwo.'])
		const paragraphs = '<p>First paragraph.</p><p>Second paragraph.<br>Same para line.<br>After a lone CR.</p>'
		const page = await call('GET', await careersPagePath(res.json.job.url))
		expect(page.text).toContain(paragraphs)
		const posting = JSON.parse(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/.exec(page.text)![1]!)
		expect(posting.description).toBe(paragraphs)
		expect((await call('GET', `/careers/${ws.slug}/feeds/indeed.xml`)).text).toContain(`<![CDATA[${paragraphs}]]>`)
		expect((await call('GET', `/careers/${ws.slug}/feeds/jobs.rss`)).text).not.toContain('\r')
		// In HTML too, and a reference to CR (&#13;) is a line break like the others.
		expect(storedDescription('<p>a\r\nb&#13;c</p>').html).toBe('<p>a\nb\nc</p>')
	})

	test('create_job (and the New job form) store them the same way', async () => {
		const { ws } = await vendorKey()
		const person = await newPersonWithToken(ws, 'recruiter')
		const deps = await testDeps()
		const job = await createJob(deps, await personActor(deps, ws.slug, person.email), { title: 'Line Engineer', description: crlf, pitch: 'One.\rTwo.' })
		const [row] = await deps.database.rows<{ description: string; summary: string }>(sql`select description, summary from jobs where id = ${job.id}`)
		expect(row).toEqual({ description: lf, summary: 'One.\nTwo.' })
	})
})

describe('a description with no text', () => {
	const empty = '<p></script><!-- <script>x</script> --></p>'

	test('is stored as none: the summary stands in for it in JSON-LD and the feeds, and the page has no empty section', async () => {
		const { ws, key } = await vendorKey()
		const res = await publish(key, { vendorJobId: 'E-1', location: 'Austin, TX', summary: 'Build the parser.', description: empty })
		expect([res.status, res.json.job.description]).toEqual([201, null])
		expect(res.json.warnings).toContain('description has no text once its markup is removed, so the job has no description')
		const page = await call('GET', await careersPagePath(res.json.job.url))
		expect(page.text).not.toContain('About the role')
		const posting = JSON.parse(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/.exec(page.text)![1]!)
		// As HTML, a paragraph, as a plain-text description becomes (careers/pages.ts, postingDescription).
		expect(posting.description).toBe('<p>Build the parser.</p>')
		expect((await call('GET', `/careers/${ws.slug}/feeds/indeed.xml`)).text).toContain('<description><![CDATA[<p>Build the parser.</p>]]></description>')
		expect((await call('GET', `/careers/${ws.slug}/feeds/jobs.rss`)).text).toContain('<description>&lt;p&gt;Build the parser.&lt;/p&gt;</description>')
		// A change to a description of spaces and empty markup takes the description away too.
		await publish(key, { vendorJobId: 'E-1', description: '<p>Real text</p>' })
		const cleared = await call('PATCH', '/api/v1/jobs/E-1', { key, body: { description: '<h2> </h2><p>\u200b</p><br>' } })
		expect([cleared.status, cleared.json.job.description]).toEqual([200, null])
	})

	test('create_job stores none either', async () => {
		const { ws } = await vendorKey()
		const person = await newPersonWithToken(ws, 'recruiter')
		const deps = await testDeps()
		const job = await createJob(deps, await personActor(deps, ws.slug, person.email), { title: 'Empty Engineer', description: empty })
		const [row] = await deps.database.rows<{ description: string | null }>(sql`select description from jobs where id = ${job.id}`)
		expect(row!.description).toBeNull()
		expect(storedDescription('R&amp;D').html).toBe('R&amp;D')
	})
})
