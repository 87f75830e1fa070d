/**
 * Records the document and submission tests stand on: candidates (with a stored résumé), vendor
 * jobs and applications, written straight to their tables (the candidate services were built at
 * the same time), plus real sample files (PDF, JPEG, PNG) built byte by byte.
 */
import { deflateSync } from 'node:zlib'
import type { AppDeps } from '../core/deps.ts'
import { newId } from '../core/credentials.ts'
import { fileStore } from '../core/files.ts'
import { applications, candidates } from '../modules/candidates/table.ts'
import { samplePdf } from '../modules/documents/seed.ts'
import { jobs } from '../modules/jobs/table.ts'
import type { Actor } from '../core/actor.ts'
import { operatorActor, personActor } from '../modules/auth/index.ts'
import { updateVendorProfile, type DocumentRules } from '../modules/vendors/index.ts'
import { newPerson, newVendor, newWorkspace, testDeps, unique, type TestWorkspace } from './helpers.ts'

export async function newCandidate(
	ws: TestWorkspace,
	o: { name?: string; email?: string; phone?: string | null; workAuthorization?: string | null; resume?: boolean } = {},
	deps?: AppDeps,
) {
	deps ??= await testDeps()
	const id = newId('cand')
	let resumePath: string | null = null
	if (o.resume !== false) {
		resumePath = `resumes/${ws.id}/${id}.pdf`
		await fileStore(deps.config).put(resumePath, samplePdf(`Resume of ${o.name ?? 'Jane Candidate'}`), 'application/pdf')
	}
	await deps.db.insert(candidates).values({
		id,
		workspaceId: ws.id,
		name: o.name ?? 'Jane Candidate',
		email: o.email ?? `${unique('cand')}@example.test`,
		phone: o.phone === undefined ? '+1 512 555 0100' : o.phone,
		workAuthorization: o.workAuthorization === undefined ? 'H1B' : o.workAuthorization,
		headline: 'Senior Java Developer',
		resumeFileName: resumePath ? 'Jane resume.pdf' : null,
		resumeMime: resumePath ? 'application/pdf' : null,
		resumePath,
		resumeText: resumePath ? 'Java, Spring Boot' : null,
	})
	return id
}

export async function newVendorJob(
	ws: TestWorkspace,
	o: { vendorId?: string | null; status?: 'Open' | 'Draft' | 'Closed'; title?: string } = {},
	deps?: AppDeps,
) {
	deps ??= await testDeps()
	const id = newId('job')
	const status = o.status ?? 'Open'
	await deps.db.insert(jobs).values({
		id,
		workspaceId: ws.id,
		vendorId: o.vendorId ?? null,
		vendorJobId: o.vendorId ? unique('REQ-') : null,
		slug: unique('job-'),
		title: o.title ?? 'Java Developer',
		status,
		publishedAt: status === 'Open' ? new Date() : null,
		closedAt: status === 'Closed' ? new Date() : null,
	})
	return id
}

export async function newApplication(ws: TestWorkspace, candidateId: string, jobId: string, o: { createdAt?: Date } = {}, deps?: AppDeps) {
	deps ??= await testDeps()
	const id = newId('app')
	await deps.db.insert(applications).values({ id, workspaceId: ws.id, candidateId, jobId, stageKey: 'applied', createdAt: o.createdAt ?? new Date() })
	return id
}

/** A vendor with a submission address and document rules. */
export async function newSubmissionVendor(
	ws: TestWorkspace,
	o: { email?: string | null; portal?: string; rules?: DocumentRules; name?: string } = {},
	deps?: AppDeps,
) {
	deps ??= await testDeps()
	const { vendorId } = await newVendor(ws, o.name ?? 'Acme Staffing', deps)
	await updateVendorProfile(deps, operatorActor(ws), vendorId, {
		contactName: 'Vera Vendor',
		contactEmail: 'vera@acme.example',
		submissionEmail: o.email === undefined ? `${unique('subs')}@acme.example` : o.email,
		submissionPortalUrl: o.portal ?? null,
		documentRules: o.rules ?? { always: ['dl', 'workAuth'], byWorkAuthorization: { H1B: ['visa', 'i94'] } },
	})
	return vendorId
}

/** A small valid PNG (solid colour), built with zlib. */
export function samplePng(width = 4, height = 4): Uint8Array {
	const crcTable = Array.from({ length: 256 }, (_, n) => {
		let c = n
		for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
		return c >>> 0
	})
	const crc = (bytes: Uint8Array) => {
		let c = 0xffffffff
		for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8)
		return (c ^ 0xffffffff) >>> 0
	}
	const chunk = (type: string, data: Uint8Array) => {
		const out = new Uint8Array(12 + data.length)
		const view = new DataView(out.buffer)
		view.setUint32(0, data.length)
		out.set(new TextEncoder().encode(type), 4)
		out.set(data, 8)
		view.setUint32(8 + data.length, crc(out.subarray(4, 8 + data.length)))
		return out
	}
	const header = new Uint8Array(13)
	const hv = new DataView(header.buffer)
	hv.setUint32(0, width)
	hv.setUint32(4, height)
	header.set([8, 2, 0, 0, 0], 8)
	const raw = new Uint8Array(height * (1 + width * 3))
	for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) raw.set([30, 90, 200], y * (1 + width * 3) + 1 + x * 3)
	const parts = [
		new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk('IHDR', header),
		chunk('IDAT', deflateSync(raw)),
		chunk('IEND', new Uint8Array()),
	]
	return Uint8Array.from(parts.flatMap((p) => [...p]))
}

/** A minimal baseline JPEG (SOI, APP0/JFIF, then EOI): enough for a content check that looks at the start. */
export function sampleJpeg(): Uint8Array {
	const jfif = [0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]
	return Uint8Array.from([0xff, 0xd8, ...jfif, ...new Array(64).fill(0), 0xff, 0xd9])
}

/** A new workspace and its owner, as the actor the services take (tests that call services directly). */
export async function workspaceWithOwner(deps: AppDeps): Promise<{ ws: TestWorkspace; owner: Actor }> {
	const ws = await newWorkspace(deps)
	return { ws, owner: await personActor(deps, ws.slug, (await newPerson(ws, 'owner', {}, deps)).email) }
}

/** A job with the given facts, open and published now unless said otherwise (the careers search and job alerts). */
export async function newPublicJob(
	ws: TestWorkspace,
	o: Partial<typeof jobs.$inferInsert> & { title: string },
	deps?: AppDeps,
): Promise<{ id: string; slug: string }> {
	deps ??= await testDeps()
	const id = newId('job')
	const slug = unique('job-')
	await deps.db.insert(jobs).values({ id, workspaceId: ws.id, slug, status: 'Open', publishedAt: new Date(), ...o })
	return { id, slug }
}
