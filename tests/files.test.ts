/**
 * The file store: the local folder by default, an S3-compatible bucket when `S3_*` is set —
 * tested against a real S3-protocol server (s3rver) on loopback.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from 's3rver'
import { loadConfig } from '../core/config.ts'
import { fileStore, localFileStore } from '../core/files.ts'
import { personActor } from '../modules/auth/index.ts'
import { requestCandidateDocuments } from '../modules/documents/requests.ts'
import { samplePdf } from '../modules/documents/seed.ts'
import { candidateDocuments } from '../modules/documents/table.ts'
import { storeUpload } from '../modules/documents/uploads.ts'
import { textToSend } from '../modules/outbox/index.ts'
import { outbox } from '../modules/outbox/table.ts'
import { newPerson, newWorkspace, testDeps, unique } from './helpers.ts'
import { newApplication, newCandidate, newSubmissionVendor, newVendorJob } from './staffing-fixtures.ts'

let server: S3rver
let endpoint = ''
const s3Dir = mkdtempSync(join(tmpdir(), 'benchline-s3-'))
const S3_ENV = () => ({ S3_ENDPOINT: endpoint, S3_BUCKET: 'benchline-files', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' })

beforeAll(async () => {
	server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Dir, configureBuckets: [{ name: 'benchline-files', configs: [] }] })
	const address = await server.run()
	endpoint = `http://127.0.0.1:${address.port}`
})
afterAll(() => server.close())

describe('configuration', () => {
	test('S3 settings come all together, or not at all', () => {
		expect(loadConfig({ ...S3_ENV() }).s3).toMatchObject({ bucket: 'benchline-files', region: 'us-east-1' })
		expect(() => loadConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(/S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY must be set too/)
		expect(() => loadConfig({ ...S3_ENV(), S3_BUCKET: 'Bad_Bucket' })).toThrow(/S3_BUCKET/)
		expect(loadConfig({}).s3).toBeUndefined()
	})
})

describe.each(['local', 's3'] as const)('the %s store', (kind) => {
	const store = () => (kind === 'local' ? localFileStore(mkdtempSync(join(tmpdir(), 'benchline-files-'))) : fileStore(loadConfig({ ...S3_ENV() })))

	test('puts, gets and deletes files; a missing file is null', async () => {
		const s = store()
		const bytes = new Uint8Array([37, 80, 68, 70, 1, 2, 3])
		await s.put('documents/ws/cand/doc1.pdf', bytes, 'application/pdf')
		expect(await s.get('documents/ws/cand/doc1.pdf')).toEqual(bytes)
		expect(await s.get('documents/ws/cand/none.pdf')).toBeNull()
		await s.delete('documents/ws/cand/doc1.pdf')
		expect(await s.get('documents/ws/cand/doc1.pdf')).toBeNull()
		expect(s.location.startsWith(kind === 'local' ? 'local:' : 's3:')).toBe(true)
	})

	test('refuses keys that could leave the store', async () => {
		const s = store()
		for (const key of ['../etc/passwd', 'a/../../b', '/abs', 'a//b', 'a/./b'])
			await expect(s.put(key, new Uint8Array([1]), 'text/plain')).rejects.toThrow(/not valid|leaves/)
	})
})

test('with S3 configured, an uploaded document lands in the bucket, not under DATA_DIR', async () => {
	const deps = await testDeps({ ...S3_ENV() })
	const ws = await newWorkspace(deps)
	const person = await newPerson(ws, 'recruiter', {}, deps)
	const recruiter = await personActor(deps, ws.slug, person.email)
	const email = `${unique('ana')}@example.test`
	const candidateId = await newCandidate(ws, { name: 'Ana Silva', email, workAuthorization: 'H1B' })
	const applicationId = await newApplication(ws, candidateId, await newVendorJob(ws, { vendorId: await newSubmissionVendor(ws), title: 'QA Lead' }))
	await requestCandidateDocuments(deps, recruiter, { candidateId, applicationId, items: ['visa'], includeJobLink: false })
	const [mail] = await deps.db
		.select()
		.from(outbox)
		.where(and(eq(outbox.to, email), eq(outbox.channel, 'email')))
	const token = (await textToSend(deps.secret, mail!)).match(/\/upload\/(bl_ul_[0-9A-Za-z]+)/)![1]!
	const pdf = samplePdf('visa of Ana')
	await storeUpload(deps, token, 'visa', { name: 'visa.pdf', bytes: pdf })
	const [doc] = await deps.db.select().from(candidateDocuments).where(eq(candidateDocuments.candidateId, candidateId))
	expect(await fileStore(deps.config).get(doc!.storageKey)).toEqual(pdf)
	expect(existsSync(join(deps.config.dataDir, 'files', doc!.storageKey))).toBe(false)
})
