/**
 * The files of a test worker share one process (`npm test`: `--no-isolate`), so what a file builds for
 * itself (`serveAppWith`, `testDeps` with settings) is closed when it ends (tests/setup.ts): left open,
 * its Redis clients, probes and servers went on in the next file (a later file's "no outbound request"
 * check saw one's reconnections). Two fixture files run in one process show it.
 */
import { expect, test } from 'bun:test'
import { join } from 'node:path'

const ROOT = join(import.meta.dir, '..', '..')
/**
 * As `npm test` runs files (a worker keeping one process across them), with the second worker never
 * started (it waits until the first has been busy for ten minutes): both files run in the same process.
 * bun runs a preload's `afterAll` after each file only in a `--parallel` worker; a plain `bun test a b`
 * runs it once, at the end.
 */
const WORKER = ['--parallel=2', '--no-isolate', '--parallel-delay=600000']

test('an app a file served for itself is closed when the file ends; the shared app lives on into the next file', async () => {
	const child = Bun.spawn([process.execPath, 'test', ...WORKER, '--timeout', '60000', 'tests/harness/file-end-a.test.ts', 'tests/harness/file-end-b.test.ts'], {
		cwd: ROOT,
		env: { ...process.env, BENCHLINE_FILE_END_CHECK: 'on' },
		stdout: 'pipe',
		stderr: 'pipe',
	})
	const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
	const said = `${out}\n${err}`
	if (code !== 0) throw new Error(`the two files failed (${code}):\n${said.slice(-4000)}`)
	expect(said).toMatch(/^\s*2 pass$/m)
	expect(said).toContain('checked what the file before left')
	expect(said).toMatch(/^\s*0 fail$/m)
}, 120_000)
