/**
 * The project's own source as TypeScript sees it, for tests that check rules about the code itself
 * (which module imports which, which permission keys the code asks about). TypeScript's own parser
 * and type checker read it (the API of the installed `typescript`, which runs the compiler as a
 * child process): no regular expressions over source text.
 */
import { dirname, relative, resolve } from 'node:path'
import { API, TypeFlags, type Checker, type Type } from 'typescript/unstable/async'
import { SyntaxKind, type Node, type SourceFile } from 'typescript/unstable/ast'

export { SyntaxKind, TypeFlags, type Checker, type Node, type SourceFile, type Type }
export const ROOT = resolve(import.meta.dir, '../..')

/** `modules/<name>/…` → `<name>`; anything else → null. */
export function moduleOf(file: string): string | null {
	const parts = relative(ROOT, file).split('/')
	return parts[0] === 'modules' && parts.length > 2 ? parts[1]! : null
}

export const fromRoot = (file: string) => relative(ROOT, file)

/** What the app runs: files under core/ and modules/, tests left out. */
const isAppFile = (file: string) => /^(core|modules)\//.test(fromRoot(file)) && !file.endsWith('.test.ts') && !file.endsWith('.d.ts')

export interface AppSource {
	readonly files: readonly SourceFile[]
	readonly checker: Checker
	close(): Promise<void>
}

/**
 * The project of `root`'s tsconfig.json (the repository's by default), type-checked, and its files
 * that `keep` selects (the app's: core/ and modules/, tests left out). Close it when done (it ends
 * the compiler process).
 */
export async function appSource(root = ROOT, keep: (file: string) => boolean = isAppFile): Promise<AppSource> {
	const api = new API({ cwd: root })
	const snapshot = await api.updateSnapshot({ openProjects: [resolve(root, 'tsconfig.json')] })
	const project = snapshot.getProjects()[0]!
	const files: SourceFile[] = []
	for (const name of await project.program.getSourceFileNames()) if (keep(name)) files.push((await project.program.getSourceFile(name))!)
	return { files, checker: project.checker, close: () => api.close() }
}

/** Every node of a file, depth first (the import check's walk). */
export { nodesOf } from '../../scripts/check-imports.ts'

/** Where a relative import of `file` points (as a path from the repository root); packages and `node:` stay as written. */
export const resolveImport = (file: string, specifier: string) => (specifier.startsWith('.') ? fromRoot(resolve(dirname(file), specifier)) : specifier)
