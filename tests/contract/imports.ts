/**
 * How tests/import-cycles.test.ts reads a file's imports to find load-time cycles: the imports the
 * lint's reader finds (scripts/check-imports.ts: TypeScript's parser, which sees every import,
 * `import type` included, that Bun's transpiler erases before anyone can look), each marked with how
 * it loads, read through the project's source (source.ts) and its type checker:
 * - `runtime`: loaded with the file (an import or re-export Bun keeps);
 * - `type`: erased when the file runs (`import type`, `import { type A }` with only type names,
 *   `export type`, `import('…')` in a type position), so it loads nothing;
 * - `dynamic`: an `import()` call, loaded later, when it runs.
 * Whether an import is erased is read from its syntax, as Bun decides it, plus one thing only the
 * type checker knows: an import whose every name is a type (an interface, a type alias), not
 * marked `type`, is erased too.
 */
import { isImportDeclaration, isNamedImports, isImportSpecifier } from 'typescript/unstable/ast/is'
import { SymbolFlags } from 'typescript/unstable/async'
import { importsOf as importsWritten } from '../../scripts/check-imports.ts'
import { fromRoot, ROOT, SyntaxKind, type AppSource, type Node, type SourceFile } from './source.ts'

export interface Import {
	/** Both as paths from the repository root (`to` as written for packages and `node:`). */
	readonly from: string
	readonly to: string
	readonly line: number
	readonly kind: 'runtime' | 'type' | 'dynamic'
}

/** Every import of `file`, with how it loads: the lint's reader (scripts/check-imports.ts), then the checker for imports of names only. */
export async function importsOf(source: Pick<AppSource, 'checker'>, file: SourceFile): Promise<Import[]> {
	const out: Import[] = []
	for (const i of importsWritten(ROOT, fromRoot(file.fileName), file)) {
		const kind = i.kind !== 'static' ? i.kind : isImportDeclaration(i.node) && (await erased(source, i.node)) ? 'type' : 'runtime'
		out.push({ from: i.from, to: i.to, line: i.line, kind })
	}
	return out
}

/** True when running the file skips this import: marked `type`, or every name it brings is only a type. */
async function erased(source: Pick<AppSource, 'checker'>, node: Node & { importClause?: Node }): Promise<boolean> {
	const clause = node.importClause as (Node & { phaseModifier?: SyntaxKind; name?: Node; namedBindings?: Node }) | undefined
	// `import './x.ts'` loads the file for what it does.
	if (!clause) return false
	if (clause.phaseModifier === SyntaxKind.TypeKeyword) return true
	const names: Node[] = []
	if (clause.name) names.push(clause.name)
	const bindings = clause.namedBindings
	if (bindings && isNamedImports(bindings)) {
		for (const element of bindings.elements) if (isImportSpecifier(element) && !element.isTypeOnly) names.push(element.name)
	} else if (bindings) return false // `* as ns`: kept whenever the namespace is used
	const symbols = await source.checker.getSymbolAtLocation(names)
	for (const symbol of symbols) {
		const target = symbol && symbol.flags & SymbolFlags.Alias ? await source.checker.getAliasedSymbol(symbol) : symbol
		if (!target || target.flags & SymbolFlags.Value) return false
	}
	return true
}
