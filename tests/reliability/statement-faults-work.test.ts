/**
 * K4 for the everyday writes of the staffing work: an inbox reply (message, thread, read state and
 * the e-mail it queues), inbound mail (new thread and its message), the AI interview provider's
 * result (answers, interview, event, review to-do), a document request (request row, e-mail and
 * text message), a candidate's upload (document, upload count, log line, stored file), bench, saved
 * searches, to-dos, lookups and a calendar feed's removal. Each is cut by pg_terminate_backend while
 * a later statement waits (mostly the last one, the activity-log line), after the earlier writes of
 * its transaction (statement-fault-harness.ts says how). Not acknowledged (503, or a tool error saying to retry), none of its effects left, and
 * the same request again succeeds once: a row left behind would show up as a retry that answers
 * "duplicate", "repeated" or "already there" instead of doing the work.
 */
import { expect, setDefaultTimeout, test } from 'bun:test'
import { signWebhook } from '../../core/http/signed-webhook.ts'
import { syncOutbox } from '../../modules/inbox/index.ts'
import { inviteToInterview } from '../../modules/interviews/index.ts'
import { requestCandidateDocuments } from '../../modules/documents/index.ts'
import { samplePdf } from '../../modules/documents/seed.ts'
import { enqueueMail, textToSend } from '../../modules/outbox/index.ts'
import { addTodo } from '../../modules/todos/service.ts'
import { unique } from '../helpers.ts'
import { newApplication, newCandidate, newVendorJob } from '../staffing-fixtures.ts'
import { onPostgres, skipReason, statementFaults } from './statement-fault-harness.ts'

setDefaultTimeout(60_000)
const INTERVIEW_SECRET = 'interview-provider-shared-secret-k4-0123'
const INBOUND_SECRET = 'inbound-mail-provider-secret-k4-4567'

onPostgres(`a connection terminated inside an everyday write leaves nothing half-done${skipReason}`, () => {
	const { world, terminatedAt, tableLock, count, filesUnder, linesOf, person, ownerToken, tool, expectToolUnavailable, signedIn } = statementFaults({
		INTERVIEW_WEBHOOK_SECRET: INTERVIEW_SECRET,
		INBOUND_MAIL_SECRET: INBOUND_SECRET,
	})
	const atActivityLine = [tableLock('activity'), /^insert into "activity"/i] as const

	// ─── Portal: inbox reply ───────────────────────────────────────────────────────────────────

	test('inbox reply cut before its log line: no message, no queued e-mail, thread and read state as they were; the retry replies once', async () => {
		const { ws, who } = await person()
		const { deps, admin } = world()
		const email = `${unique('cand')}@example.test`
		await newCandidate(ws, { name: 'Nora Quinn', email }, deps)
		await deps.db.transaction((tx) =>
			enqueueMail(tx, { workspaceId: ws.id, to: email, subject: 'Your application', text: 'Hi Nora, thanks for applying.' }, deps),
		)
		await syncOutbox(deps, ws.id)
		const [{ id: threadId }] = await admin<{ id: string }[]>`select id from inbox_threads where workspace_id = ${ws.id}`
		const portal = await signedIn(who)
		expect((await portal.get(`/inbox/${threadId}`)).status).toBe(200)
		const reply = () => portal.post(`/inbox/${threadId}/reply`, { text: 'Could you start on Monday?' })
		const thread = async () => (await admin`select message_count, snippet, last_message_at from inbox_threads where id = ${threadId}`)[0]
		const readState = async () => await admin`select user_id, read_at from inbox_states where thread_id = ${threadId}`
		const mails = () => count(admin`select count(*)::int as n from outbox where workspace_id = ${ws.id} and "to" = ${email}`)
		const messages = () => count(admin`select count(*)::int as n from inbox_messages where thread_id = ${threadId}`)
		const [threadBefore, readBefore] = [await thread(), await readState()]

		const cut = await terminatedAt(...atActivityLine, reply)
		expect(cut.written).toEqual(['inbox_messages', 'inbox_states', 'inbox_threads', 'outbox'])
		expect(cut.answer.status).toBe(503)
		expect({ mails: await mails(), messages: await messages(), lines: await linesOf(ws, 'inbox.replied') }).toEqual({ mails: 1, messages: 1, lines: 0 })
		expect(await thread()).toEqual(threadBefore)
		expect(await readState()).toEqual(readBefore)

		await portal.get(`/inbox/${threadId}`)
		// Post/Redirect/Get: followed as a browser would, to the page that says it.
		const retry = await portal.submit(`/inbox/${threadId}/reply`, { text: 'Could you start on Monday?' })
		expect(retry.redirectedTo).not.toBeNull()
		expect(retry.status).toBe(200)
		expect(retry.text).toContain('Your reply is on its way.')
		expect({ mails: await mails(), messages: await messages(), lines: await linesOf(ws, 'inbox.replied') }).toEqual({ mails: 2, messages: 2, lines: 1 })
		expect((await thread())!.message_count).toBe(2)
	})

	// ─── Webhook: the AI interview provider's result ───────────────────────────────────────────

	test('interview result cut before its log line: no answer, score, event or review to-do is kept; the retry applies it once (not "duplicate")', async () => {
		const { ws, actor } = await person()
		const { deps, admin, app } = world()
		const candidateId = await newCandidate(ws, { name: 'Ada One' }, deps)
		const applicationId = await newApplication(ws, candidateId, await newVendorJob(ws, { title: 'Senior Java Developer' }, deps), {}, deps)
		const { id: interviewId } = await inviteToInterview(deps, actor, { applicationId })
		const questions = await admin<{ id: string }[]>`select id from interview_questions where interview_id = ${interviewId} order by position`
		const event = {
			id: `evt_${crypto.randomUUID()}`,
			type: 'interview.completed',
			interviewId,
			occurredAt: new Date().toISOString(),
			result: {
				overallScore: 82,
				verdict: 'recommended',
				summary: 'Clear examples.',
				answers: questions.map((q, i) => ({ questionId: q.id, transcript: `Answer ${i}: Spring Boot services.`, score: 70 + i, durationSeconds: 90 })),
			},
		}
		const deliver = async () => {
			const body = JSON.stringify(event)
			const timestamp = Math.floor(Date.now() / 1000)
			const headers = {
				'content-type': 'application/json',
				'x-interview-timestamp': String(timestamp),
				'x-interview-signature': signWebhook(INTERVIEW_SECRET, timestamp, body),
			}
			const res = await app.handle(new Request('http://localhost/api/interviews/callback', { method: 'POST', headers, body }))
			return { status: res.status, json: await res.json().catch(() => null) }
		}
		const state = async () => ({
			interview: (await admin`select status, completed_at, overall_score, verdict from interviews where id = ${interviewId}`)[0],
			scored: await count(admin`select count(*)::int as n from interview_questions where interview_id = ${interviewId} and score is not null`),
			events: await count(admin`select count(*)::int as n from interview_events where interview_id = ${interviewId}`),
			todos: await count(admin`select count(*)::int as n from todos where source = 'interview' and source_ref = ${interviewId}`),
			lines: await linesOf(ws, 'interview.completed'),
		})

		const cut = await terminatedAt(...atActivityLine, deliver)
		expect(cut.written).toEqual(['interview_events', 'interview_questions', 'interviews', 'todos'])
		expect(cut.answer.status).toBe(503)
		expect(await state()).toEqual({
			interview: { status: 'invited', completed_at: null, overall_score: null, verdict: null },
			scored: 0,
			events: 0,
			todos: 0,
			lines: 0,
		})

		const retry = await deliver()
		expect(retry).toEqual({ status: 200, json: { status: 'applied', interviewId, interviewStatus: 'completed' } })
		expect(await state()).toMatchObject({
			interview: { status: 'completed', overall_score: 82, verdict: 'recommended' },
			scored: questions.length,
			events: 1,
			todos: 1,
			lines: 1,
		})
	})

	test('inbound mail cut between its new thread and its message: no thread, no message; the provider’s retry is accepted (not "duplicate")', async () => {
		const { ws } = await person()
		const { admin, app } = world()
		const from = `${unique('lead')}@example.test`
		const messageId = `<${unique('m')}@mail.example>`
		const raw = [
			`From: Lee Lead <${from}>`,
			`To: reply+${ws.slug}@localhost`,
			'Subject: A Java developer for you',
			`Message-ID: ${messageId}`,
			'',
			'I am available from Monday.',
		].join('\r\n')
		const deliver = async () => {
			const timestamp = Math.floor(Date.now() / 1000)
			const headers = {
				'content-type': 'message/rfc822',
				'x-inbound-timestamp': String(timestamp),
				'x-inbound-signature': signWebhook(INBOUND_SECRET, timestamp, raw),
			}
			const res = await app.handle(new Request('http://localhost/api/inbox/inbound', { method: 'POST', headers, body: raw }))
			return { status: res.status, json: await res.json().catch(() => null) }
		}
		const state = async () => ({
			threads: await count(admin`select count(*)::int as n from inbox_threads where workspace_id = ${ws.id}`),
			messages: await count(admin`select count(*)::int as n from inbox_messages where message_id = ${messageId}`),
		})

		const cut = await terminatedAt(tableLock('inbox_messages'), /^insert into "inbox_messages"/i, deliver)
		expect(cut.written).toEqual(['inbox_threads'])
		expect(cut.answer.status).toBe(503)
		expect(await state()).toEqual({ threads: 0, messages: 0 })

		const retry = await deliver()
		expect(retry).toMatchObject({ status: 200, json: { status: 'accepted', messageId } })
		expect(await state()).toEqual({ threads: 1, messages: 1 })
		expect((await admin`select message_count from inbox_threads where workspace_id = ${ws.id}`)[0]).toEqual({ message_count: 1 })
	})

	// ─── MCP: document request, bench ─────────────────────────────────────────────────────────

	test('request_candidate_documents cut before its log line: no request row, no e-mail or text message; the retry sends once (not "repeated")', async () => {
		const { ws, token } = await ownerToken()
		const { deps, admin } = world()
		const candidateId = await newCandidate(ws, { workAuthorization: 'H1B' }, deps)
		await newApplication(ws, candidateId, await newVendorJob(ws, {}, deps), {}, deps)
		const request = () => tool(token, 'request_candidate_documents', { candidateId, items: ['dl', 'visa'] })
		const requests = () => count(admin`select count(*)::int as n from document_requests where candidate_id = ${candidateId}`)
		const queued = () => count(admin`select count(*)::int as n from outbox where workspace_id = ${ws.id} and related_type = 'document_request'`)

		const cut = await terminatedAt(...atActivityLine, request)
		expect(cut.written).toEqual(['document_requests', 'outbox'])
		expectToolUnavailable(cut.answer)
		expect({ requests: await requests(), queued: await queued(), lines: await linesOf(ws, 'documents.requested') }).toEqual({
			requests: 0,
			queued: 0,
			lines: 0,
		})

		const retry = await request()
		expect(retry.result?.structuredContent?.request).toMatchObject({ candidateId, repeated: false, email: { status: 'queued' } })
		// The e-mail and the text message (kept as not sent: no messaging provider here).
		expect({ requests: await requests(), queued: await queued(), lines: await linesOf(ws, 'documents.requested') }).toEqual({
			requests: 1,
			queued: 2,
			lines: 1,
		})
	})

	test('a candidate’s upload cut before its review to-do: no document, no upload counted, no log line, no stored file; the retry stores it once', async () => {
		const { ws, actor } = await person()
		const { deps, admin, app } = world()
		const candidateId = await newCandidate(ws, { name: 'Ravi Kumar' }, deps)
		const { id: requestId } = await requestCandidateDocuments(deps, actor, { candidateId, items: ['dl'] })
		const [mail] = await admin<
			{ id: string; text: string; private_sealed: string | null }[]
		>`select id, text, private_sealed from outbox where related_id = ${requestId} and channel = 'email'`
		const path = /\/upload\/bl_ul_[0-9A-Za-z]+/.exec(await textToSend(deps.secret, { id: mail!.id, text: mail!.text, privateSealed: mail!.private_sealed }))![0]
		const upload = async () => {
			const page = await app.handle(new Request(`http://localhost${path}`))
			const cookie = page.headers
				.getSetCookie()
				.map((c) => c.split(';')[0])
				.join('; ')
			const form = new FormData()
			form.set('csrf', /name="csrf" value="([^"]*)"/.exec(await page.text())![1]!)
			form.set('kind', 'dl')
			form.set('file', new File([samplePdf('Driver licence of Ravi Kumar') as Uint8Array<ArrayBuffer>], 'licence.pdf', { type: 'application/pdf' }))
			const res = await app.handle(new Request(`http://localhost${path}`, { method: 'POST', body: form, headers: { cookie } }))
			return { status: res.status, location: res.headers.get('location') }
		}
		const state = async () => ({
			documents: await count(admin`select count(*)::int as n from candidate_documents where candidate_id = ${candidateId}`),
			uploads: (await admin<{ n: number }[]>`select upload_count as n from document_requests where id = ${requestId}`)[0]!.n,
			todos: await count(admin`select count(*)::int as n from todos where source = 'document' and candidate_id = ${candidateId}`),
			lines: await linesOf(ws, 'document.uploaded'),
			events: await count(admin`select count(*)::int as n from events where workspace_id = ${ws.id} and type = 'document.uploaded'`),
			files: filesUnder(`documents/${ws.id}`),
		})

		const cut = await terminatedAt(tableLock('todos'), /^insert into "todos"/i, upload)
		expect(cut.written).toEqual(['activity', 'candidate_documents', 'document_requests', 'events'])
		expect(cut.answer.status).toBe(503)
		expect(await state()).toEqual({ documents: 0, uploads: 0, todos: 0, lines: 0, events: 0, files: 0 })

		expect(await upload()).toEqual({ status: 303, location: `${path}?received=dl` })
		expect(await state()).toEqual({ documents: 1, uploads: 1, todos: 1, lines: 1, events: 1, files: 1 })
	})

	test('add_to_bench cut before its log line: no bench entry; the retry adds it once (created, not "already on the bench")', async () => {
		const { ws, token } = await ownerToken()
		const candidateId = await newCandidate(ws, {}, world().deps)
		const add = () => tool(token, 'add_to_bench', { candidateId, roleFamily: 'java' })
		const entries = () => count(world().admin`select count(*)::int as n from bench_entries where candidate_id = ${candidateId}`)

		const cut = await terminatedAt(...atActivityLine, add)
		expect(cut.written).toEqual(['bench_entries'])
		expectToolUnavailable(cut.answer)
		expect({ entries: await entries(), lines: await linesOf(ws, 'bench.added') }).toEqual({ entries: 0, lines: 0 })

		const retry = await add()
		expect(retry.result?.structuredContent).toMatchObject({ created: true })
		expect({ entries: await entries(), lines: await linesOf(ws, 'bench.added') }).toEqual({ entries: 1, lines: 1 })
	})

	// ─── Portal: saved search, to-dos, lookups ─────────────────────────────────────────────────

	/**
	 * A portal form post cut before its log line: 503, `rows()` and the log lines unchanged; the
	 * retry (after reloading the page, as a person would) redirects to a page that says `done`, with one more of each.
	 */
	async function formCutThenRetried(o: {
		page: string
		post: string
		fields?: Record<string, string>
		action: string
		rows: () => Promise<number>
		written: string[]
		done: string
	}) {
		const { ws, who } = await person()
		const portal = await signedIn(who)
		const send = async () => {
			expect((await portal.get(o.page)).status).toBe(200)
			return portal.post(o.post, o.fields)
		}
		const rowsBefore = await o.rows()
		const cut = await terminatedAt(...atActivityLine, send)
		expect(cut.written).toEqual(o.written)
		expect(cut.answer.status).toBe(503)
		expect({ rows: await o.rows(), lines: await linesOf(ws, o.action) }).toEqual({ rows: rowsBefore, lines: 0 })

		// The form answers with a redirect (Post/Redirect/Get), followed as a browser would, to the page that says `done`.
		expect((await portal.get(o.page)).status).toBe(200)
		const retry = await portal.submit(o.post, o.fields)
		expect(retry.redirectedTo).not.toBeNull()
		expect(retry.status).toBe(200)
		expect(retry.text).toContain(o.done)
		expect({ rows: await o.rows(), lines: await linesOf(ws, o.action) }).toEqual({ rows: rowsBefore + 1, lines: 1 })
		return { ws, who }
	}

	test('saved search create cut before its log line: no saved search; the retry saves it once (not "already have one by that name")', async () => {
		const name = `Java in Austin ${unique()}`
		await formCutThenRetried({
			page: '/saved-searches',
			post: '/saved-searches',
			fields: { list: 'candidates', name, query: 'java austin' },
			action: 'saved_search.created',
			rows: () => count(world().admin`select count(*)::int as n from saved_searches where name = ${name}`),
			written: ['saved_searches'],
			done: 'Saved',
		})
	})

	test('to-do create cut before its log line: no to-do; the retry adds it once', async () => {
		const title = `Call the client back ${unique()}`
		await formCutThenRetried({
			page: '/todos',
			post: '/todos',
			fields: { title, dueAt: '', candidateId: '', notes: '' },
			action: 'todo.created',
			rows: () => count(world().admin`select count(*)::int as n from todos where title = ${title}`),
			written: ['todos'],
			done: 'The to-do was added.',
		})
	})

	test('to-do done cut between marking it and its log line: it stays open; the retry marks it done once', async () => {
		const { ws, who, actor } = await person()
		const todoId = await addTodo(world().deps, actor, { title: 'Send the offer letter' })
		const portal = await signedIn(who)
		const done = async () => {
			expect((await portal.get('/todos')).status).toBe(200)
			return portal.post(`/todos/${todoId}/done`)
		}
		const doneAt = async () => (await world().admin`select done_at from todos where id = ${todoId}`)[0]!.done_at

		const cut = await terminatedAt(...atActivityLine, done)
		expect(cut.written).toEqual(['todos'])
		expect(cut.answer.status).toBe(503)
		expect(await doneAt()).toBeNull()
		expect(await linesOf(ws, 'todo.done')).toBe(0)

		expect((await portal.get('/todos')).status).toBe(200)
		const retry = await portal.submit(`/todos/${todoId}/done`)
		expect(retry.redirectedTo).not.toBeNull()
		expect(retry.status).toBe(200)
		expect(retry.text).toContain('Marked done.')
		expect(await doneAt()).not.toBeNull()
		expect(await linesOf(ws, 'todo.done')).toBe(1)
	})

	test('removing a calendar feed cut before its log line: the feed and its busy times stay; the retry removes both once', async () => {
		const { ws, who } = await person()
		const { admin } = world()
		// Not due for a day, and on a loopback port nothing listens on: the server's refresh leaves it alone.
		await admin`insert into calendar_feeds (workspace_id, user_id, url, status, next_refresh_at) values (${ws.id}, ${who.userId}, 'http://127.0.0.1:9/busy.ics', 'ok', now() + interval '1 day')`
		for (const hour of [9, 14])
			await admin`insert into calendar_busy (id, workspace_id, user_id, starts_at, ends_at) values (${unique('busy')}, ${ws.id}, ${who.userId}, date_trunc('day', now()) + ${hour} * interval '1 hour', date_trunc('day', now()) + ${hour + 1} * interval '1 hour')`
		const portal = await signedIn(who)
		const remove = async () => {
			expect((await portal.get('/settings/calendar')).status).toBe(200)
			return portal.post('/settings/calendar/remove')
		}
		const state = async () => ({
			feeds: await count(admin`select count(*)::int as n from calendar_feeds where user_id = ${who.userId}`),
			busy: await count(admin`select count(*)::int as n from calendar_busy where user_id = ${who.userId}`),
			lines: await linesOf(ws, 'calendar.feed_removed'),
		})

		const cut = await terminatedAt(...atActivityLine, remove)
		expect(cut.written).toEqual(['calendar_busy', 'calendar_feeds'])
		expect(cut.answer.status).toBe(503)
		expect(await state()).toEqual({ feeds: 1, busy: 2, lines: 0 })

		expect((await portal.get('/settings/calendar')).status).toBe(200)
		const retry = await portal.submit('/settings/calendar/remove')
		expect(retry.redirectedTo).not.toBeNull()
		expect(retry.status).toBe(200)
		expect(retry.text).toContain('Your calendar feed was removed.')
		expect(await state()).toEqual({ feeds: 0, busy: 0, lines: 1 })
	})

	test('lookup add cut before its log line: no value; the retry adds it once (not "already in the list")', async () => {
		const name = `Globex ${unique()}`
		await formCutThenRetried({
			page: '/lookups',
			post: '/lookups',
			fields: { kind: 'client', name },
			action: 'lookup.added',
			rows: () => count(world().admin`select count(*)::int as n from staffing_lookups where name = ${name}`),
			written: ['staffing_lookups'],
			done: 'was added to',
		})
	})
})
