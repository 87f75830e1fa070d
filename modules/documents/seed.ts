/**
 * Demo documents: a few candidates get some of their verification documents on file (small
 * generated PDFs saying "SAMPLE"), so the submission checks have something to find.
 */
import { seededId, seededRandom } from '../../core/seed-random.ts'
import type { AppDeps } from '../../core/deps.ts'
import { fileStore } from '../../core/files.ts'
import type { WorkspaceRef } from '../../core/module.ts'
import { operatorActor } from '../auth/index.ts'
import { candidateCards, demoCandidateId } from '../candidates/index.ts'
import { DOCUMENT_KINDS, DOCUMENT_LABELS } from '../vendors/index.ts'
import { candidateDocuments } from './table.ts'
import { textPdf } from '../../core/text-pdf.ts'

const FILE_NAMES: Record<string, string[]> = {
	dl: ['drivers-license.pdf', 'DL front and back.pdf', 'license_scan.pdf'],
	visa: ['visa-stamp.pdf', 'H1B approval notice.pdf', 'visa.pdf'],
	i94: ['I-94.pdf', 'i94_record.pdf', 'most recent I94.pdf'],
	workAuth: ['EAD card.pdf', 'work-authorization.pdf', 'green card.pdf'],
}

/** A one-page PDF with a line of text (demo documents and tests). */
export const samplePdf = (line: string): Uint8Array => textPdf([line])

export async function seedDocuments(deps: AppDeps, ws: WorkspaceRef): Promise<void> {
	// The first twelve demo candidates (stable ids), those that exist.
	const ids = Array.from({ length: 12 }, (_, i) => demoCandidateId(ws, i))
	const cards = await candidateCards(deps, operatorActor(ws), ids)
	const people = ids.flatMap((id) => (cards.has(id) ? [cards.get(id)!] : []))
	const store = fileStore(deps.config)
	const rows = []
	for (const [i, person] of people.entries()) {
		const rnd = seededRandom(`documents:${ws.id}:${person.id}`)
		// Some have everything, some a part, some nothing: the checks then show every case.
		const count = i % 4 === 3 ? 0 : rnd.int(1, DOCUMENT_KINDS.length)
		for (const kind of rnd.sample(DOCUMENT_KINDS, count)) {
			const id = seededId('doc', ws.id, `${person.id}:${kind}`)
			const bytes = samplePdf(`SAMPLE ${DOCUMENT_LABELS[kind]} - ${person.name}`)
			const storageKey = `documents/${ws.id}/${person.id}/${id}.pdf`
			await store.put(storageKey, bytes, 'application/pdf')
			rows.push({
				id,
				workspaceId: ws.id,
				candidateId: person.id,
				kind,
				fileName: rnd.pick(FILE_NAMES[kind]!),
				contentType: 'application/pdf',
				sizeBytes: bytes.byteLength,
				storageKey,
				uploadedAt: new Date(Date.now() - rnd.int(2, 40) * 86_400_000),
			})
		}
	}
	if (rows.length) await deps.db.insert(candidateDocuments).values(rows).onConflictDoNothing()
}
