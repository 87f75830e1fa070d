/**
 * K4: a write path made of several statements in one transaction leaves nothing half-done when its
 * database connection dies between two of them: OAuth code exchange and refresh rotation, job
 * writes, the careers apply form and the vendor submission (statement-faults-*.test.ts cover the
 * other writes). How the fault is placed, and why on a database and server process of their own:
 * statement-fault-harness.ts. The answer must be a 503 (not acknowledged), the database must show
 * none of the transaction's effects, and the same request sent again must succeed once.
 */
import { beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import * as oauth from 'oauth4webapi'
import { hashSecret } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { createJob, setJobStatus } from '../../modules/jobs/service.ts'
import { makePdf } from '../fixtures/resumes.ts'
import { careersPagePath, unique } from '../helpers.ts'
import { authorizationRequest, consent, formPost, mcp, registerApp, type AS } from '../oauth/as-client.ts'
import { PortalClient, uniqueAddress } from '../portal.ts'
import { newApplication, newCandidate, newSubmissionVendor, newVendorJob } from '../staffing-fixtures.ts'
import { onPostgres, skipReason, statementFaults, type Sql } from './statement-fault-harness.ts'

setDefaultTimeout(60_000)

onPostgres(`a connection terminated between the statements of a write leaves nothing half-done${skipReason}`, () => {
	const { world, terminatedAt, tableLock, count, filesUnder, linesOf, person, ownerToken, tool, expectToolUnavailable } = statementFaults()
	let admin: Sql
	let deps: AppDeps
	let app: { handle(request: Request): Promise<Response> }
	let ctx: AS
	beforeAll(() => void ({ admin, deps, app, ctx } = world()))

	// ─── OAuth ─────────────────────────────────────────────────────────────────────────────────

	/** A fresh app, person and authorization code, through registration and the consent page. */
	async function freshCode() {
		const { who } = await person()
		const portal = new PortalClient(app, { address: uniqueAddress() })
		expect((await portal.signIn(who.email, who.password)).status).toBe(303)
		const { client, redirectUri } = await registerApp(ctx)
		const request = await authorizationRequest(ctx, client, redirectUri)
		const { location } = await consent(portal, request.url)
		const params = oauth.validateAuthResponse(ctx.as, client, location!, request.state)
		const code = params.get('code')!
		const exchange = () =>
			formPost(ctx, '/oauth/token', {
				grant_type: 'authorization_code',
				code,
				redirect_uri: redirectUri,
				code_verifier: request.verifier,
				client_id: client.client_id,
				resource: ctx.resource,
			})
		return { clientId: client.client_id, code, exchange }
	}

	const codeRow = async (code: string) =>
		(await admin<{ used_at: Date | null; grant_id: string | null }[]>`select used_at, grant_id from oauth_codes where id = ${hashSecret(code)}`)[0]!
	const grantsOf = (clientId: string) => count(admin`select count(*)::int as n from oauth_grants where client_id = ${clientId}`)
	const tokensOf = (clientId: string) =>
		count(admin`select count(*)::int as n from oauth_tokens t join oauth_grants g on g.id = t.grant_id where g.client_id = ${clientId}`)
	const toolsWork = async (accessToken: string) => (await mcp(ctx, accessToken, 'tools/list')).status === 200

	async function expectExchangeWorksOnce(flow: Awaited<ReturnType<typeof freshCode>>) {
		const retry = await flow.exchange()
		expect(retry.status).toBe(200)
		expect(await toolsWork(retry.json.access_token)).toBe(true)
		expect((await codeRow(flow.code)).used_at).not.toBeNull()
		expect({ grants: await grantsOf(flow.clientId), tokens: await tokensOf(flow.clientId) }).toEqual({ grants: 1, tokens: 2 })
		return retry.json as { access_token: string; refresh_token: string }
	}

	test('code exchange cut after the code is consumed, before its grant: the code is not used up, no grant, no token; the retry gets tokens', async () => {
		const flow = await freshCode()
		const cut = await terminatedAt(tableLock('oauth_grants'), /^insert into "oauth_grants"/i, flow.exchange)
		expect(cut.written).toEqual(['oauth_codes'])
		expect(cut.answer.status).toBe(503)
		expect(await codeRow(flow.code)).toEqual({ used_at: null, grant_id: null })
		expect({ grants: await grantsOf(flow.clientId), tokens: await tokensOf(flow.clientId) }).toEqual({ grants: 0, tokens: 0 })
		await expectExchangeWorksOnce(flow)
	})

	test('code exchange cut after the grant, before the tokens: no code consumed without its tokens, no grant left behind; the retry gets tokens', async () => {
		const flow = await freshCode()
		const cut = await terminatedAt(tableLock('oauth_tokens'), /^insert into "oauth_tokens"/i, flow.exchange)
		expect(cut.written).toEqual(['oauth_codes', 'oauth_grants'])
		expect(cut.answer.status).toBe(503)
		expect(await codeRow(flow.code)).toEqual({ used_at: null, grant_id: null })
		expect({ grants: await grantsOf(flow.clientId), tokens: await tokensOf(flow.clientId) }).toEqual({ grants: 0, tokens: 0 })
		await expectExchangeWorksOnce(flow)
	})

	const refresh = (clientId: string, refreshToken: string) =>
		formPost(ctx, '/oauth/token', { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId, resource: ctx.resource })

	test('refresh rotation cut after the new pair is written, before the old token is marked replaced: no new token, the old one still works; the retry rotates once', async () => {
		const flow = await freshCode()
		const tokens = await expectExchangeWorksOnce(flow)
		const oldId = hashSecret(tokens.refresh_token)
		const cut = await terminatedAt(
			(lock) => lock`select id from oauth_tokens where id = ${oldId} for update`,
			/^update "oauth_tokens" set "replaced_at"/i,
			() => refresh(flow.clientId, tokens.refresh_token),
		)
		expect(cut.written).toEqual(['oauth_tokens'])
		expect(cut.answer.status).toBe(503)
		expect(await tokensOf(flow.clientId)).toBe(2)
		expect((await admin`select replaced_at, successor from oauth_tokens where id = ${oldId}`)[0]).toEqual({ replaced_at: null, successor: null })
		expect(await toolsWork(tokens.access_token)).toBe(true)

		const retry = await refresh(flow.clientId, tokens.refresh_token)
		expect(retry.status).toBe(200)
		expect(await toolsWork(retry.json.access_token)).toBe(true)
		expect(await tokensOf(flow.clientId)).toBe(4)
		expect((await admin`select replaced_at from oauth_tokens where id = ${oldId}`)[0]!.replaced_at).not.toBeNull()
	})

	test('family revocation is one statement: cut while it waits, every token of the connection still works; the retry revokes them all', async () => {
		const flow = await freshCode()
		const tokens = await expectExchangeWorksOnce(flow)
		const revoke = () => formPost(ctx, '/oauth/revoke', { token: tokens.refresh_token, token_type_hint: 'refresh_token', client_id: flow.clientId })
		const cut = await terminatedAt(
			(lock) => lock`select id from oauth_grants where client_id = ${flow.clientId} for update`,
			/^update "oauth_grants" set "revoked_at"/i,
			revoke,
		)
		expect(cut.written).toEqual(['oauth_grants'])
		expect(cut.answer.status).toBe(503)
		expect(await count(admin`select count(*)::int as n from oauth_grants where client_id = ${flow.clientId} and revoked_at is null`)).toBe(1)
		expect(await toolsWork(tokens.access_token)).toBe(true)

		expect((await revoke()).status).toBe(200)
		expect(await toolsWork(tokens.access_token)).toBe(false)
		expect((await refresh(flow.clientId, tokens.refresh_token)).json?.error).toBe('invalid_grant')
	})

	// ─── MCP job writes: the change and its activity-log line ──────────────────────────────────

	test('create_job cut before its activity line: no job and no hiring-team row are left; the retry creates it once', async () => {
		const { ws, token } = await ownerToken()
		const title = `Fault ${unique()}`
		const create = () => tool(token, 'create_job', { title })
		const cut = await terminatedAt(tableLock('activity'), /^insert into "activity"/i, create)
		expect(cut.written).toEqual(['job_team', 'jobs'])
		expectToolUnavailable(cut.answer)
		expect(await count(admin`select count(*)::int as n from jobs where workspace_id = ${ws.id}`)).toBe(0)
		expect(await count(admin`select count(*)::int as n from job_team t join jobs j on j.id = t.job_id where j.workspace_id = ${ws.id}`)).toBe(0)
		expect(await linesOf(ws, 'job.created')).toBe(0)

		const retry = await create()
		expect(retry.result?.isError).toBeFalsy()
		expect(await count(admin`select count(*)::int as n from jobs where workspace_id = ${ws.id} and title = ${title}`)).toBe(1)
		expect(await linesOf(ws, 'job.created')).toBe(1)
	})

	test('set_job_status cut between the job update and its activity line: the job keeps its status; the retry changes it with one line', async () => {
		const { ws, token, actor } = await ownerToken()
		const job = await createJob(deps, actor, { title: 'Senior Java Developer' })
		const open = () => tool(token, 'set_job_status', { jobId: job.id, status: 'Open' })
		const cut = await terminatedAt(tableLock('activity'), /^insert into "activity"/i, open)
		expect(cut.written).toEqual(['jobs'])
		expectToolUnavailable(cut.answer)
		expect((await admin`select status, published_at from jobs where id = ${job.id}`)[0]).toEqual({ status: 'Draft', published_at: null })
		expect(await linesOf(ws, 'job.status_set')).toBe(0)

		const retry = await open()
		expect(retry.result?.structuredContent?.job?.status).toBe('Open')
		expect(await linesOf(ws, 'job.status_set')).toBe(1)
	})

	// ─── Careers apply form and vendor submission: records and the e-mail they queue ───────────

	test('careers apply cut before its confirmation e-mail: no candidate, application, answer, log line, mail or stored résumé; the retry applies once', async () => {
		const { ws, actor } = await person()
		const created = await createJob(deps, actor, { title: 'Senior Java Developer', requirements: ['Java'] })
		const job = await setJobStatus(deps, actor, created.id, 'Open')
		const page = await careersPagePath(job.url!, deps)
		const email = `${unique('applicant')}@example.test`
		const apply = async () => {
			const form = await app.handle(new Request(`http://localhost${page}`))
			const cookie = (form.headers.get('set-cookie') ?? '').split(';')[0]!
			const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())![1]!
			const body = new FormData()
			for (const [k, v] of Object.entries({ csrf, name: 'Jane Applicant', email, phone: '+1 512 555 0100' })) body.set(k, v)
			body.set('resume', new File([Buffer.from(makePdf(['Jane Applicant', 'Java 17, Spring Boot']))], 'jane.pdf', { type: 'application/pdf' }))
			const res = await app.handle(new Request(`http://localhost${page}/apply`, { method: 'POST', body, headers: { cookie } }))
			return { status: res.status, text: await res.text() }
		}
		const stored = () => filesUnder(`resumes/${ws.id}`)

		const cut = await terminatedAt(tableLock('outbox'), /^insert into "outbox"/i, apply)
		expect(cut.written).toEqual(['activity', 'application_daily_counts', 'applications', 'candidates', 'eeo_self_identification', 'events', 'pipeline_stages'])
		expect(cut.answer.status).toBe(503)
		for (const table of ['candidates', 'applications', 'application_daily_counts', 'eeo_self_identification'])
			expect({ table, rows: await count(admin`select count(*)::int as n from ${admin(table)} where workspace_id = ${ws.id}`) }).toEqual({ table, rows: 0 })
		const applyEvents = () =>
			count(admin`select count(*)::int as n from events where workspace_id = ${ws.id} and type in ('candidate.created', 'application.created')`)
		expect(await applyEvents()).toBe(0)
		expect(await linesOf(ws, 'application.received')).toBe(0)
		expect(await count(admin`select count(*)::int as n from outbox where workspace_id = ${ws.id} and "to" = ${email}`)).toBe(0)
		expect(await count(admin`select count(*)::int as n from careers_events where job_id = ${job.id} and kind = 'application'`)).toBe(0)
		expect(stored()).toBe(0)

		const retry = await apply()
		expect(retry.status).toBe(200)
		expect(await count(admin`select count(*)::int as n from applications where job_id = ${job.id}`)).toBe(1)
		expect(await linesOf(ws, 'application.received')).toBe(1)
		expect(await applyEvents()).toBe(2)
		expect(await count(admin`select count(*)::int as n from outbox where workspace_id = ${ws.id} and "to" = ${email}`)).toBe(1)
		expect(stored()).toBe(1)
	})

	test('submit_to_vendor cut after its e-mail is queued, before the submission is recorded: no mail to the vendor, no submission, no log line; the retry submits once', async () => {
		const { ws, token } = await ownerToken()
		const vendorId = await newSubmissionVendor(ws, { rules: { always: [], byWorkAuthorization: {} } }, deps)
		const candidateId = await newCandidate(ws, { workAuthorization: 'USC' }, deps)
		const applicationId = await newApplication(ws, candidateId, await newVendorJob(ws, { vendorId }, deps), {}, deps)
		const submit = () => tool(token, 'submit_to_vendor', { applicationId, documents: [] })
		const stored = () => filesUnder(`submissions/${ws.id}`)
		const mails = () =>
			count(admin`select count(*)::int as n from outbox where workspace_id = ${ws.id} and related_type = 'application' and related_id = ${applicationId}`)

		const cut = await terminatedAt(tableLock('vendor_submissions'), /^insert into "vendor_submissions"/i, submit)
		expect(cut.written).toEqual(['outbox'])
		expectToolUnavailable(cut.answer)
		expect(await mails()).toBe(0)
		expect(await count(admin`select count(*)::int as n from vendor_submissions where application_id = ${applicationId}`)).toBe(0)
		expect(await linesOf(ws, 'application.submitted_to_vendor')).toBe(0)
		expect(stored()).toBe(0)

		const retry = await submit()
		expect(retry.result?.structuredContent?.submission).toMatchObject({ applicationId, delivery: 'queued' })
		expect(await count(admin`select count(*)::int as n from vendor_submissions where application_id = ${applicationId}`)).toBe(1)
		expect(await mails()).toBe(1)
		expect(await linesOf(ws, 'application.submitted_to_vendor')).toBe(1)
		expect(stored()).toBe(1)
	})
})
