/**
 * One step of file-end.test.ts, taken by each of two files run in one process (in whichever order bun
 * picks): the file checks what the file before it left (its own app closed, the shared one answering),
 * then serves an app of its own and leaves both addresses for the next file.
 */
import { expect, test } from 'bun:test'
import { serveApp, serveAppWith } from '../helpers.ts'

type Left = { own: string; shared: string }
const store = globalThis as { fileEndCheck?: Left }

export function fileEndStep(file: string) {
	test.skipIf(!process.env.BENCHLINE_FILE_END_CHECK)(
		`(fixture of file-end.test.ts) ${file}: the file before's own app is closed; this one serves its own`,
		async () => {
			const before = store.fileEndCheck
			if (before) {
				expect((await fetch(`${before.shared}/health`)).status).toBe(200)
				await expect(fetch(`${before.own}/health`)).rejects.toThrow()
				console.log('checked what the file before left')
			}
			const own = await serveAppWith({ TRUST_PROXY: 'on' })
			expect((await fetch(`${own.url}/health`)).status).toBe(200)
			store.fileEndCheck = { own: own.url, shared: (await serveApp()).url }
		},
	)
}
