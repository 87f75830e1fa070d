/**
 * No runtime import cycle among the files of core/ and modules/: in a cycle, one file runs while
 * the other's exports are still uninitialised, and which one depends on who is imported first.
 * Imports are read by the tests' one import reader (tests/contract/imports.ts, TypeScript's parser
 * and checker): only `runtime` imports count. What Bun erases when it runs the file (`import type`,
 * `import { type X }`, `export type`, an import of nothing but types) loads nothing, and a dynamic
 * `import()` runs later: neither counts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { importCycles } from '../scripts/check-imports.ts'
import { importsOf, type Import } from './contract/imports.ts'
import { appSource, fromRoot, ROOT, type AppSource } from './contract/source.ts'

/** The runtime imports of the source's files, as edges between paths from the repository root. */
async function runtimeEdges(source: AppSource): Promise<Map<string, string[]>> {
	const edges = new Map<string, string[]>()
	for (const file of source.files) {
		const imports: Import[] = await importsOf(source, file)
		edges.set(
			fromRoot(file.fileName),
			imports.filter((i) => i.kind === 'runtime').map((i) => i.to),
		)
	}
	return edges
}

describe('runtime import cycles', () => {
	let source: AppSource | undefined
	let fixture: AppSource | undefined
	let dir = ''
	afterAll(async () => {
		await source?.close()
		await fixture?.close()
	})
	beforeAll(async () => {
		source = await appSource()
		dir = mkdtempSync(join(tmpdir(), 'benchline-cycles-'))
		const files: Record<string, string> = {
			'a.ts': `import { b } from './b.ts'\nimport type { C } from './c.ts'\nexport const a: C = b`,
			'b.ts': `export { a } from './a.ts'\nexport const b = 2`,
			'c.ts': `import { type A } from './d.ts'\nimport { d } from './d.ts'\nimport { E } from './e.ts'\nexport type C = A | E\nexport const c = d`,
			'd.ts': `export type { C } from './c.ts'\nexport type A = number\nexport const d = 3\nexport const later = () => import('./c.ts')`,
			'e.ts': `import { c } from './c.ts'\nexport interface E { c: typeof c }`,
			'tsconfig.json': JSON.stringify({
				compilerOptions: { module: 'ESNext', moduleResolution: 'bundler', allowImportingTsExtensions: true, noEmit: true, strict: true },
				include: ['*.ts'],
			}),
		}
		for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
		fixture = await appSource(dir, (f) => f.startsWith(dir))
	}, 120_000)

	test('none among the files of core/ and modules/', async () => {
		const edges = await runtimeEdges(source!)
		expect(edges.size).toBeGreaterThan(300)
		expect(importCycles(edges)).toEqual([])
	})

	test('the check sees a cycle through a re-export, and not through type-only, types-only or dynamic imports', async () => {
		const edges = await runtimeEdges(fixture!)
		const inDir = (f: string) => relative(dir, join(ROOT, f))
		// e.ts imports c.ts for a value; c.ts imports only the interface E from e.ts, which Bun erases.
		expect(importCycles(edges).map((c) => c.map(inDir))).toEqual([['a.ts', 'b.ts']])
	})
})
