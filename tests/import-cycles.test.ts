/**
 * No runtime import cycle among the files of core/ and modules/: in a cycle, one file runs while
 * the other's exports are still uninitialised, and which one depends on who is imported first.
 * Imports are read with Bun's own transpiler (`Bun.Transpiler#scanImports`), the one that runs the
 * files: what it erases (`import type`, `import { type X }`, `export type`) does not load anything
 * and does not count. A dynamic `import()` runs later and does not count either.
 * (TypeScript 7's API starts a tsgo process through Node's pipes, which Bun does not provide.)
 */
import { describe, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '..')
const transpiler = new Bun.Transpiler({ loader: 'ts' })

const filesUnder = (dir: string): string[] =>
	readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
		const path = join(dir, e.name)
		if (e.isDirectory()) return e.name === 'node_modules' ? [] : filesUnder(path)
		return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path] : []
	})

/** The files `file` loads when it is loaded (static imports and re-exports that survive transpiling). */
function runtimeImports(file: string): string[] {
	return transpiler
		.scanImports(readFileSync(file, 'utf8'))
		.filter((i) => i.kind === 'import-statement')
		.flatMap((i) => {
			try {
				return [Bun.resolveSync(i.path, dirname(file))]
			} catch {
				return []
			}
		})
}

/** Files that import each other at load time, each cycle once (strongly connected components of two or more, or a file importing itself). */
function importCycles(files: string[]): string[][] {
	const inScope = new Set(files)
	const edges = new Map<string, string[]>()
	for (const file of files) {
		edges.set(file, runtimeImports(file).filter((f) => inScope.has(f)))
	}
	// Tarjan's strongly connected components.
	const index = new Map<string, number>()
	const low = new Map<string, number>()
	const stack: string[] = []
	const onStack = new Set<string>()
	const cycles: string[][] = []
	let next = 0
	const visit = (v: string) => {
		index.set(v, next)
		low.set(v, next++)
		stack.push(v)
		onStack.add(v)
		for (const w of edges.get(v) ?? []) {
			if (!index.has(w)) {
				visit(w)
				low.set(v, Math.min(low.get(v)!, low.get(w)!))
			} else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
		}
		if (low.get(v) === index.get(v)) {
			const component: string[] = []
			let w: string
			do {
				w = stack.pop()!
				onStack.delete(w)
				component.push(w)
			} while (w !== v)
			if (component.length > 1 || (edges.get(v) ?? []).includes(v)) cycles.push(component.sort())
		}
	}
	for (const file of files) if (!index.has(file)) visit(file)
	return cycles
}

describe('runtime import cycles', () => {
	test('none among the files of core/ and modules/', () => {
		const files = ['core', 'modules'].flatMap((d) => filesUnder(join(ROOT, d)))
		expect(importCycles(files).map((c) => c.map((f) => relative(ROOT, f)))).toEqual([])
	})

	test('the check sees a cycle through a re-export, and not through type-only or dynamic imports', () => {
		const dir = mkdtempSync(join(tmpdir(), 'benchline-cycles-'))
		const files: Record<string, string> = {
			'a.ts': `import { b } from './b.ts'\nimport type { C } from './c.ts'\nexport const a: C = b`,
			'b.ts': `export { a } from './a.ts'\nexport const b = 2`,
			'c.ts': `import { type A } from './d.ts'\nimport { d } from './d.ts'\nexport type C = A\nexport const c = d`,
			'd.ts': `export type { C } from './c.ts'\nexport type A = number\nexport const d = 3\nexport const later = () => import('./c.ts')`,
		}
		for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
		expect(importCycles(Object.keys(files).map((f) => join(dir, f))).map((c) => c.map((f) => relative(dir, f)))).toEqual([['a.ts', 'b.ts']])
	})
})
