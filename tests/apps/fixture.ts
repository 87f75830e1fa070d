/**
 * What the MCP Apps tests stand on, made once per test process: a workspace filled with the demo
 * data (`seed`: jobs, candidates, résumé checks, interviews, documents, careers analytics, calendar),
 * a person of every role with a personal token, and the test host signed in as each of them.
 */
import { sql } from 'drizzle-orm'
import { runCommand } from '../../core/cli.ts'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { newPersonWithToken, newWorkspace, serveApp, testDeps, type TestWorkspace } from '../helpers.ts'
import { candidateDocuments } from '../../modules/documents/table.ts'
import { onTeam, ROLES, type TestRole } from '../sdk.ts'
import { newApplication, newCandidate, newSubmissionVendor, newVendorJob } from '../staffing-fixtures.ts'
import { startTestHost, type TestHost } from './host.ts'

export interface AppsFixture {
	deps: AppDeps
	ws: TestWorkspace
	url: string
	people: Record<TestRole, { userId: string; token: string }>
	host: TestHost
	/** The job with the most applicants; its hiring team holds the hiring manager. */
	jobId: string
	/**
	 * An application showing every part of a candidate card: on a vendor's job, the candidate's
	 * newest, with a résumé check, a scored interview and documents on file.
	 */
	cardApplicationId: string
	/**
	 * A vendor submission with documents on file and missing (the demo data may have none): an H1B
	 * candidate with a driver's license and a work authorization on file, for a vendor that also
	 * needs the visa and the I-94 of H1B candidates.
	 */
	vendorCase: { applicationId: string; candidateId: string; vendorId: string }
}

let fixture: Promise<AppsFixture> | undefined

export function appsFixture(): Promise<AppsFixture> {
	fixture ??= (async () => {
		const { url } = await serveApp()
		const deps = await testDeps()
		const ws = await newWorkspace()
		const people = {} as AppsFixture['people']
		for (const role of ROLES) people[role] = await newPersonWithToken(ws, role)
		await runCommand(deps, 'seed', { workspace: ws.slug })
		const [job] = await deps.database.rows<{ id: string }>(
			sql`select j.id from jobs j where j.workspace_id = ${ws.id} order by (select count(*) from applications a where a.job_id = j.id and not a.archived and a.kind = 'applicant') desc, j.id limit 1`,
		)
		await onTeam(job!.id, people.hiring_manager.userId)
		const host = await startTestHost()
		for (const role of ROLES) host.signIn(role, people[role].token)
		return { deps, ws, url, people, host, jobId: job!.id, cardApplicationId: await cardApplication(deps, ws), vendorCase: await vendorCase(deps, ws) }
	})()
	return fixture
}

/**
 * The demo data is random per workspace: an application with documents on file and a scored
 * interview may not exist, so a scored interview is moved onto the chosen application.
 */
async function cardApplication(deps: AppDeps, ws: TestWorkspace): Promise<string> {
	const [app] = await deps.database.rows<{ id: string; candidateId: string; jobId: string }>(
		sql`select a.id, a.candidate_id as "candidateId", a.job_id as "jobId" from applications a join jobs j on j.id = a.job_id
		where a.workspace_id = ${ws.id} and not a.archived and a.resume_check is not null and j.vendor_id is not null
		and exists (select 1 from candidate_documents d where d.candidate_id = a.candidate_id)
		and a.created_at = (select max(b.created_at) from applications b where b.candidate_id = a.candidate_id and not b.archived)
		order by exists (select 1 from interviews i where i.application_id = a.id and i.overall_score is not null) desc, a.resume_score desc nulls last, a.id limit 1`,
	)
	if (!app) throw new Error('the demo data has no application with a résumé check and documents on file')
	await deps.database.rows(
		sql`update interviews set application_id = ${app.id}, candidate_id = ${app.candidateId}, job_id = ${app.jobId}
		where id = (select id from interviews where workspace_id = ${ws.id} and overall_score is not null order by id limit 1)
		and not exists (select 1 from interviews where application_id = ${app.id} and overall_score is not null) returning id`,
	)
	return app.id
}

async function vendorCase(deps: AppDeps, ws: TestWorkspace): Promise<AppsFixture['vendorCase']> {
	const vendorId = await newSubmissionVendor(
		ws,
		{ name: 'Keystone Talent', rules: { always: ['dl', 'workAuth'], byWorkAuthorization: { H1B: ['visa', 'i94'] } } },
		deps,
	)
	const candidateId = await newCandidate(ws, { name: 'Mei Chen', workAuthorization: 'H1B' }, deps)
	const applicationId = await newApplication(ws, candidateId, await newVendorJob(ws, { vendorId, title: 'Java Developer' }, deps), {}, deps)
	for (const [kind, fileName] of [
		['dl', 'drivers-license.pdf'],
		['workAuth', 'EAD card.pdf'],
	]) {
		await deps.db.insert(candidateDocuments).values({
			id: newId('doc'),
			workspaceId: ws.id,
			candidateId,
			kind: kind!,
			fileName: fileName!,
			contentType: 'application/pdf',
			sizeBytes: 900,
			storageKey: `documents/${ws.id}/${candidateId}/${kind}.pdf`,
		})
	}
	return { applicationId, candidateId, vendorId }
}

/** Rows of a query on the test database. */
export async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
	return (await testDeps()).database.rows<T>(query)
}
