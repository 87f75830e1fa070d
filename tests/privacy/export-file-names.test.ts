/**
 * The names inside a candidate's export (a ZIP): a document's file name is someone else's text, and
 * an imported or older row may hold one no upload would keep. In the ZIP, and in `candidate.json`
 * naming it, it is the name `cleanFileName` (core/file-name.ts) makes: no direction override hiding
 * the extension, no path leaving the folder, no control characters.
 */
import { expect, setDefaultTimeout, test } from 'bun:test'
import { strFromU8, unzipSync } from 'fflate'
import { newId } from '../../core/credentials.ts'
import { fileStore } from '../../core/files.ts'
import { personActor } from '../../modules/auth/index.ts'
import { candidateDocuments } from '../../modules/documents/table.ts'
import { samplePdf } from '../../modules/documents/seed.ts'
import { exportCandidate } from '../../modules/privacy/index.ts'
import { newPerson, newWorkspace, testApp, testDeps } from '../helpers.ts'
import { newCandidate } from '../staffing-fixtures.ts'

setDefaultTimeout(60_000)

test('a document named to hide its extension or leave its folder is named plainly in the ZIP and in candidate.json', async () => {
	const { deps: app } = await testApp()
	const deps = await testDeps()
	const ws = await newWorkspace()
	const owner = await newPerson(ws, 'owner', {}, deps)
	const candidateId = await newCandidate(ws, {}, deps)
	const hostile = { '\u202e': 'scan\u202efdp.exe', '..': '../../../etc/pass\u0001wd', '\u2028': 'visa\u2028scan\ufffe.pdf' }
	const ids: Record<string, string> = {}
	for (const [key, fileName] of Object.entries(hostile)) {
		const id = newId('doc')
		const storageKey = `documents/${ws.id}/${id}.pdf`
		await fileStore(app.config).put(storageKey, samplePdf('scan'), 'application/pdf')
		// As an import writes it: the name as it came, not through the upload page's cleaning.
		await deps.db
			.insert(candidateDocuments)
			.values({ id, workspaceId: ws.id, candidateId, kind: 'visa', fileName, contentType: 'application/pdf', sizeBytes: 10, storageKey })
		ids[key] = id
	}
	const exported = await exportCandidate(deps, await personActor(deps, ws.slug, owner.email), candidateId, '127.0.0.1')
	const zip = unzipSync(exported.bytes)
	const files = Object.keys(zip).filter((name) => name.startsWith('files/documents/'))
	expect(files.sort()).toEqual(
		[`files/documents/${ids['\u202e']}-scanfdp.exe`, `files/documents/${ids['..']}-passwd`, `files/documents/${ids['\u2028']}-visascan.pdf`].sort(),
	)
	const named = JSON.parse(strFromU8(zip['candidate.json']!)).documents.documents.map((d: { file: string }) => `files/${d.file}`)
	expect(named.sort()).toEqual(files)
})
