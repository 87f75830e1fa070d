/**
 * The import rules of the layers (README, "Architecture"), checked with the linter: `npm run lint` runs
 * `bun scripts/check-imports.ts` before Biome, and a broken rule fails it with the import's place
 * (`file:line:column`) and the rule. Every import counts: `import type`, `export … from` and `import()`
 * included. The app's files are read (core/, db/, modules/; tests left out), with TypeScript's own
 * parser (the installed `typescript`'s API, which runs the compiler as a child process; parsing only,
 * no type checking).
 *
 * - db/ imports nothing from core/ or modules/: it is the bottom layer.
 * - The core imports no module; only the composition root (core/main.ts) imports the module list.
 * - A module reaches another only through that module's `index.ts` (its public API), and only one it
 *   lists in `requires` (read from its `index.ts`, where it is written as a list of names); or another's
 *   `table.ts` from its own `table.ts` (a foreign key names a row and calls nothing).
 * - No import cycle among the files of core/ and db/, type imports included: shared types live in leaf
 *   files (core/types/, core/module.ts for the module contract and the app's dependencies, which refer
 *   to each other).
 *
 * `bun scripts/check-imports.ts [root]` checks the repository (or another tree laid out like it: the
 * test's fixture); exit code 1 when something is wrong.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import type { Node, SourceFile } from 'typescript/unstable/ast'
import {
	isArrayLiteralExpression,
	isCallExpression,
	isExportDeclaration,
	isIdentifier,
	isImportDeclaration,
	isImportTypeNode,
	isLiteralTypeNode,
	isNamedImports,
	isPropertyAssignment,
	isStringLiteral,
} from 'typescript/unstable/ast/is'
import { SyntaxKind } from 'typescript/unstable/ast'
import { API } from 'typescript/unstable/async'

export const ROOT = resolve(import.meta.dir, '..')

export interface Import {
	/** Both as paths from the root (`to` as written for packages and `node:`). */
	readonly from: string
	readonly to: string
	/** Where the module specifier is written, from 1. */
	readonly line: number
	readonly column: number
	/** `type` when the syntax says it loads nothing (`import type`, `export type`, `import('…')` in a type). */
	readonly kind: 'static' | 'type' | 'dynamic'
	/** The statement, call or type that imports (tests/contract/imports.ts asks the type checker about it). */
	readonly node: Node
}

export interface Problem {
	readonly file: string
	readonly line: number
	readonly column: number
	readonly message: string
}

/** What the app runs: files under core/, db/ and modules/, tests left out. */
export const isAppFile = (path: string) => /^(core|db|modules)\//.test(path) && !path.endsWith('.test.ts') && !path.endsWith('.d.ts')

/** `modules/<name>/…` → `<name>`; anything else → null. */
export function moduleOf(path: string): string | null {
	const parts = path.split('/')
	return parts[0] === 'modules' && parts.length > 2 ? parts[1]! : null
}

/** Every node of a file, depth first. */
export function nodesOf(root: Node): Node[] {
	const out: Node[] = []
	const visit = (node: Node): void => {
		out.push(node)
		node.forEachChild(visit)
	}
	visit(root)
	return out
}

/**
 * The app's files under `root`, parsed, handed to `read` while the parser runs. Only parsed: a project of
 * just these files (a tsconfig.json of its own, in a temporary folder) that resolves no import and loads no
 * library, so the compiler reads nothing else (a few seconds, where the repository's project takes ten).
 */
export async function readApp<T>(root: string, read: (files: { path: string; file: SourceFile }[]) => T): Promise<T> {
	const dir = mkdtempSync(join(tmpdir(), 'benchline-check-imports-'))
	writeFileSync(
		join(dir, 'tsconfig.json'),
		JSON.stringify({
			compilerOptions: { noResolve: true, noLib: true, types: [], noEmit: true, allowImportingTsExtensions: true, module: 'ESNext', target: 'ESNext' },
			include: ['core', 'db', 'modules'].map((folder) => `${root}/${folder}/**/*.ts`),
			exclude: [`${root}/**/*.test.ts`],
		}),
	)
	// The async API: the sync one needs Node's internals, which Bun does not have.
	const api = new API({ cwd: root })
	try {
		const snapshot = await api.updateSnapshot({ openProjects: [join(dir, 'tsconfig.json')] })
		const program = snapshot.getProjects()[0]!.program
		const paths = (await program.getSourceFileNames()).map((name) => ({ name, path: relative(root, name) })).filter(({ path }) => isAppFile(path))
		const files = await Promise.all(paths.map(async ({ name, path }) => ({ path, file: (await program.getSourceFile(name))! })))
		return read(files)
	} finally {
		await api.close()
		rmSync(dir, { recursive: true, force: true })
	}
}

/** Every import of one file. */
export function importsOf(root: string, path: string, file: SourceFile): Import[] {
	const out: Import[] = []
	const add = (node: Node, specifier: Node | undefined, kind: Import['kind']) => {
		if (!specifier || !isStringLiteral(specifier)) return
		const at = file.getLineAndCharacterOfPosition(specifier.getStart(file))
		const to = specifier.text.startsWith('.') ? relative(root, resolve(root, dirname(path), specifier.text)) : specifier.text
		out.push({ from: path, to, line: at.line + 1, column: at.character + 1, kind, node })
	}
	for (const node of nodesOf(file)) {
		if (isImportDeclaration(node)) {
			const clause = node.importClause
			const bindings = clause?.namedBindings
			const onlyTypes =
				!!clause &&
				(clause.phaseModifier === SyntaxKind.TypeKeyword ||
					(!clause.name && !!bindings && isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly)))
			add(node, node.moduleSpecifier, onlyTypes ? 'type' : 'static')
		} else if (isExportDeclaration(node)) add(node, node.moduleSpecifier, node.isTypeOnly ? 'type' : 'static')
		else if (isCallExpression(node) && node.expression.kind === SyntaxKind.ImportKeyword) add(node, node.arguments[0], 'dynamic')
		else if (isImportTypeNode(node) && isLiteralTypeNode(node.argument)) add(node, node.argument.literal, 'type')
	}
	return out
}

/**
 * Each module's `requires`, read from the `requires: [...]` of its `index.ts` (a test checks that the
 * registry's lists are these). A list written other than as names in quotes is a problem.
 */
export function requiresOf(files: readonly { path: string; file: SourceFile }[]): { requires: Map<string, string[]>; problems: Problem[] } {
	const requires = new Map<string, string[]>()
	const problems: Problem[] = []
	for (const { path, file } of files) {
		const module = moduleOf(path)
		if (!module || path !== `modules/${module}/index.ts`) continue
		requires.set(module, [])
		for (const node of nodesOf(file)) {
			if (!isPropertyAssignment(node) || !isIdentifier(node.name) || node.name.text !== 'requires') continue
			const list = node.initializer
			const names = isArrayLiteralExpression(list) ? list.elements.map((e) => (isStringLiteral(e) ? e.text : null)) : [null]
			if (names.some((n) => n === null)) {
				const at = file.getLineAndCharacterOfPosition(list.getStart(file))
				problems.push({
					file: path,
					line: at.line + 1,
					column: at.character + 1,
					message: '`requires` must be a list of module names in quotes (this check reads it)',
				})
			}
			requires.set(
				module,
				names.filter((n) => n !== null),
			)
		}
	}
	return { requires, problems }
}

/** The rule for one import between layers and modules; null when it is allowed. */
export function boundaryProblem(i: Pick<Import, 'from' | 'to'>, requires: ReadonlyMap<string, readonly string[]>): string | null {
	const to = i.to
	if (i.from.startsWith('db/')) {
		if (to.startsWith('core/')) return `db/ imports nothing from core/ (it is the layer below): ${to}`
		if (to.startsWith('modules/')) return `db/ imports nothing from modules/: ${to}`
		return null
	}
	// The module list: the composition root (core/main.ts) is the one file that wires modules in.
	if (to === 'modules/index.ts') return i.from === 'core/main.ts' ? null : `only core/main.ts imports the module list (${to})`
	const target = /^modules\/([^/]+)\/(.+)$/.exec(to)
	if (!target) return null
	const [, module, path] = target
	if (i.from.startsWith('core/')) return `the core imports no module: ${to}`
	const own = moduleOf(i.from)
	if (!own || own === module) return null
	// A foreign key names the row it points at and calls nothing, so it needs no `requires`: every
	// module's rows point at a workspace (auth's table), including those of modules auth requires.
	if (path === 'table.ts' && i.from === `modules/${own}/table.ts`) return null
	if (!(requires.get(own) ?? []).includes(module!)) return `module "${own}" does not list "${module}" in its requires: ${to}`
	if (path === 'index.ts') return null
	return `another module is reached through its index.ts (its table.ts only from a table.ts, for a foreign key): ${to}`
}

/** Files that import each other, each cycle once (strongly connected components of two or more, or a file importing itself). */
export function importCycles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
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
	for (const file of edges.keys()) if (!index.has(file)) visit(file)
	return cycles
}

const inFileOrder = (a: Problem, b: Problem) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column

/** The shortest way from `from` through `to` back to `from` inside one cycle (`members`). */
function pathBack(edges: ReadonlyMap<string, readonly string[]>, members: ReadonlySet<string>, from: string, to: string): string[] {
	const previous = new Map<string, string | null>([[to, null]])
	const queue = [to]
	for (let k = 0; k < queue.length && !previous.has(from); k++)
		for (const w of edges.get(queue[k]!) ?? [])
			if (members.has(w) && !previous.has(w)) {
				previous.set(w, queue[k]!)
				queue.push(w)
			}
	const back: string[] = []
	for (let v: string | null | undefined = from; v !== null && v !== undefined; v = previous.get(v)) back.unshift(v)
	return [from, ...back]
}

/** Every broken rule among `imports` (all the app's imports), in file order. */
export function problemsOf(imports: readonly Import[], requires: ReadonlyMap<string, readonly string[]>): Problem[] {
	const problems: Problem[] = []
	for (const i of imports) {
		const message = boundaryProblem(i, requires)
		if (message) problems.push({ file: i.from, line: i.line, column: i.column, message })
	}
	// Cycles among core/ and db/, every kind of import counted: each import inside a cycle is reported.
	const lower = (path: string) => path.startsWith('core/') || path.startsWith('db/')
	const inner = imports.filter((i) => lower(i.from) && lower(i.to))
	const edges = new Map<string, string[]>()
	for (const i of inner) edges.set(i.from, [...(edges.get(i.from) ?? []), i.to])
	for (const cycle of importCycles(edges)) {
		const members = new Set(cycle)
		for (const i of inner)
			if (members.has(i.from) && members.has(i.to))
				problems.push({
					file: i.from,
					line: i.line,
					column: i.column,
					message: `import cycle (type imports count; move what both need to a leaf file): ${pathBack(edges, members, i.from, i.to).join(' → ')}`,
				})
	}
	return problems.sort(inFileOrder)
}

/** Reads the app under `root` and checks it. */
export function checkImports(root = ROOT): Promise<Problem[]> {
	return readApp(root, (files) => {
		const { requires, problems } = requiresOf(files)
		const imports = files.flatMap(({ path, file }) => importsOf(root, path, file))
		return [...problems, ...problemsOf(imports, requires)].sort(inFileOrder)
	})
}

if (import.meta.main) {
	const root = resolve(process.argv[2] ?? ROOT)
	const problems = await checkImports(root)
	for (const p of problems) console.error(`${p.file}:${p.line}:${p.column} ${p.message}`)
	if (problems.length) {
		console.error(`\n${problems.length === 1 ? '1 import breaks' : `${problems.length} imports break`} the layers' rules (README, "Architecture").`)
		process.exit(1)
	}
}
