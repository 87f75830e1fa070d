/**
 * A small world for the candidate pages' tests: one workspace with a person of every role (a
 * hiring manager on one job's team and one on none), candidates with stored résumés (PDF, Word)
 * and documents on file, and a second workspace whose records nobody in the first may reach.
 */
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../core/deps.ts'
import { newId } from '../core/credentials.ts'
import { fileStore } from '../core/files.ts'
import { DOCX, PDF } from '../core/http/file-response.ts'
import { candidateDocuments } from '../modules/documents/table.ts'
import { samplePdf } from '../modules/documents/seed.ts'
import { makeDocx } from './fixtures/resumes.ts'
import { newPerson, newWorkspace, type TestWorkspace } from './helpers.ts'
import { signedIn, portalApp, type PortalClient } from './portal.ts'
import { onTeam } from './sdk.ts'
import { newApplication, newCandidate, newVendorJob, samplePng } from './staffing-fixtures.ts'

export const PAGE_ROLES = ['owner', 'admin', 'recruiter', 'hiring_manager', 'outsider_manager', 'viewer'] as const
export type PageRole = (typeof PAGE_ROLES)[number]

export interface CandidatePageWorld {
	deps: AppDeps
	ws: TestWorkspace
	other: TestWorkspace
	people: Record<PageRole, PortalClient>
	userIds: Record<PageRole, string>
	/** Applied to the hiring manager's job; PDF résumé, a PDF and a PNG document. */
	onTeam: { id: string; email: string; phone: string; jobId: string; applicationId: string; pdfDocumentId: string; pngDocumentId: string }
	/** Applied to another job; a Word résumé. */
	offTeam: { id: string; jobId: string; applicationId: string }
	/** The second workspace's candidate (résumé and a document on file). */
	foreign: { id: string; documentId: string }
	/** The second workspace's owner. */
	foreignOwner: PortalClient
}

/** Stores a document file and its record. */
export async function newDocument(
	deps: AppDeps,
	ws: TestWorkspace,
	candidateId: string,
	o: { kind?: string; fileName: string; contentType: string; bytes: Uint8Array },
) {
	const id = newId('doc')
	const storageKey = `documents/${ws.id}/${candidateId}/${id}.bin`
	await fileStore(deps.config).put(storageKey, o.bytes, o.contentType)
	await deps.db.insert(candidateDocuments).values({
		id,
		workspaceId: ws.id,
		candidateId,
		kind: o.kind ?? 'dl',
		fileName: o.fileName,
		contentType: o.contentType,
		sizeBytes: o.bytes.byteLength,
		storageKey,
	})
	return id
}

/** Gives a candidate a stored Word résumé (with its text). */
async function wordResume(deps: AppDeps, ws: TestWorkspace, candidateId: string) {
	const key = `resumes/${ws.id}/${candidateId}.docx`
	await fileStore(deps.config).put(key, makeDocx(['Word résumé of Omar', 'Kotlin, Kafka']), DOCX)
	await deps.database.rows(
		sql`update candidates set resume_path = ${key}, resume_mime = ${DOCX}, resume_file_name = 'Omar CV.docx', resume_text = 'Word résumé of Omar\nKotlin, Kafka' where id = ${candidateId}`,
	)
}

export async function candidatePageWorld(): Promise<CandidatePageWorld> {
	const { deps } = await portalApp()
	const ws = await newWorkspace(deps)
	const other = await newWorkspace(deps)
	const teamJob = await newVendorJob(ws, { title: 'Kafka Engineer' }, deps)
	const otherJob = await newVendorJob(ws, { title: 'Kotlin Developer' }, deps)
	const email = `${newId('mail')}@example.test`
	const phone = '+1 512 555 0199'
	const c1 = await newCandidate(ws, { name: 'Priya Raman', email, phone }, deps)
	await deps.database.rows(sql`update candidates set resume_text = ${`Priya Raman\n${email} | ${phone}\nKafka, Kotlin, Spring Boot`} where id = ${c1}`)
	const c2 = await newCandidate(ws, { name: 'Omar Haddad', resume: false }, deps)
	await wordResume(deps, ws, c2)
	const a1 = await newApplication(ws, c1, teamJob, {}, deps)
	const a2 = await newApplication(ws, c2, otherJob, {}, deps)
	const pdfDocumentId = await newDocument(deps, ws, c1, { kind: 'visa', fileName: 'visa.pdf', contentType: PDF, bytes: samplePdf('SAMPLE visa') })
	const pngDocumentId = await newDocument(deps, ws, c1, { kind: 'dl', fileName: 'licence.png', contentType: 'image/png', bytes: samplePng() })
	const cf = await newCandidate(other, { name: 'Foreign Person' }, deps)
	const foreignDoc = await newDocument(deps, other, cf, { kind: 'dl', fileName: 'foreign.pdf', contentType: PDF, bytes: samplePdf('foreign') })

	const people = {} as Record<PageRole, PortalClient>
	const userIds = {} as Record<PageRole, string>
	for (const role of PAGE_ROLES) {
		const person = await newPerson(ws, role === 'outsider_manager' ? 'hiring_manager' : role, {}, deps)
		userIds[role] = person.userId
		people[role] = await signedIn(person)
	}
	await onTeam(teamJob, userIds.hiring_manager)
	const foreignOwner = await signedIn(await newPerson(other, 'owner', {}, deps))
	return {
		deps,
		ws,
		other,
		people,
		userIds,
		onTeam: { id: c1, email, phone, jobId: teamJob, applicationId: a1, pdfDocumentId, pngDocumentId },
		offTeam: { id: c2, jobId: otherJob, applicationId: a2 },
		foreign: { id: cf, documentId: foreignDoc },
		foreignOwner,
	}
}

/** The file addresses a page links to (résumé and documents). */
export function fileLinks(pageHtml: string): { resume: string | null; documents: string[] } {
	const hrefs = [...pageHtml.matchAll(/href="([^"#]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'))
	return { resume: hrefs.find((h) => /\/resume\//.test(h)) ?? null, documents: [...new Set(hrefs.filter((h) => /\/documents\//.test(h)))] }
}

/** The activity lines of an action in the workspace, newest first. */
export async function activityOf(deps: AppDeps, ws: TestWorkspace, action: string) {
	return deps.database.rows<{
		actorUserId: string | null
		credentialKind: string
		targetType: string
		targetId: string
		detail: Record<string, unknown> | null
	}>(
		sql`select actor_user_id as "actorUserId", credential_kind as "credentialKind", target_type as "targetType", target_id as "targetId", detail from activity where workspace_id = ${ws.id} and action = ${action} order by at desc, seq desc`,
	)
}

/** Posts a form without its CSRF token (as a forged cross-site form would). */
export const postWithoutToken = (client: PortalClient, path: string, fields: Record<string, string>) => client.request('POST', path, { form: fields })

/** The error summary's messages of a page (empty when there is none). */
export function summaryErrors(pageHtml: string): string[] {
	const start = pageHtml.indexOf('class="error-summary"')
	if (start < 0) return []
	const block = pageHtml.slice(start, pageHtml.indexOf('</div>', start))
	return [...block.matchAll(/<a href="#[^"]+">([^<]*)<\/a>/g)].map((m) => m[1]!)
}

/**
 * Where the page says a change was made: the text of each confirmation (`role="status"`) and the id
 * of the form it sits in (null when it is not inside a form). After an action the one confirmation
 * must be in that action's form, right after its button, and take the focus (`data-autofocus`).
 */
export function confirmations(pageHtml: string): { text: string; form: string | null; afterButton: boolean; takesFocus: boolean }[] {
	return [...pageHtml.matchAll(/<div class="notice[^"]*"[^>]*role="status"[^>]*>[\s\S]*?<\/div>/g)].map((m) => {
		const before = pageHtml.slice(0, m.index)
		const open = before.lastIndexOf('<form ')
		const inForm = open >= 0 && before.lastIndexOf('</form>') < open
		return {
			text: m[0].replace(/<[^>]+>/g, '').trim(),
			form: inForm ? (/ id="([^"]+)"/.exec(before.slice(open, before.indexOf('>', open)))?.[1] ?? '') : null,
			afterButton: /<button type="submit">[^<]*<\/button>$/.test(before),
			takesFocus: / data-autofocus/.test(m[0].slice(0, m[0].indexOf('>'))) && / tabindex="-1"/.test(m[0].slice(0, m[0].indexOf('>'))),
		}
	})
}
