/** Kept résumés (an apply form shown again with an error) are deleted past their hour, all of them, by the sweep. */
import { afterEach, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { fileStore } from '../../core/files.ts'
import { clock, newWorkspace, testDeps } from '../../tests/helpers.ts'
import { forgetExpiredKeptResumes, keepResume, keptResume } from './kept-resume.ts'

afterEach(() => clock.reset())

const pdf = () => new TextEncoder().encode('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')

test('the sweep deletes every kept résumé past its hour, rows and files, and keeps those still within it', async () => {
	const deps = await testDeps()
	const ws = await newWorkspace(deps)
	const old: string[] = []
	// More than one batch of the lazy clean-up (20), all left by forms never sent again.
	for (let i = 0; i < 45; i++) old.push((await keepResume(deps, ws.id, { bytes: pdf(), fileName: `old-${i}.pdf` }))!)
	const keys = async () =>
		(await deps.database.rows<{ fileKey: string }>(sql`select file_key as "fileKey" from kept_resumes where workspace_id = ${ws.id}`)).map((r) => r.fileKey)
	const oldKeys = await keys()
	expect(oldKeys).toHaveLength(45)
	clock.advance(61 * 60_000)
	const fresh = (await keepResume(deps, ws.id, { bytes: pdf(), fileName: 'fresh.pdf' }))!
	// Keeping one cleans up a batch only.
	expect((await keys()).length).toBeGreaterThan(1)

	await forgetExpiredKeptResumes(deps)
	const left = await keys()
	expect(left).toHaveLength(1)
	expect((await keptResume(deps, ws.id, fresh))?.fileName).toBe('fresh.pdf')
	for (const key of oldKeys) expect(await fileStore(deps.config).get(key)).toBeNull()
	expect(await keptResume(deps, ws.id, old[0]!)).toBeNull()
})
