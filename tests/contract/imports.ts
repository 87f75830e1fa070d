/**
 * How tests/import-cycles.test.ts reads a file's imports to find load-time cycles (the layers'
 * rules, every kind of import counted, are checked by `npm run lint`: scripts/check-imports.ts):
 * TypeScript's parser and checker, through the project's source (source.ts). It sees every import, `import type` included, which Bun's
 * transpiler erases before anyone can look; each import says how it loads, so each test keeps
 * what it needs:
 * - `runtime`: loaded with the file (an import or re-export Bun keeps);
 * - `type`: erased when the file runs (`import type`, `import { type A }` with only type names,
 *   `export type`, `import('…')` in a type position), so it loads nothing;
 * - `dynamic`: an `import()` call, loaded later, when it runs.
 * Whether an import is erased is read from its syntax, as Bun decides it, plus one thing only the
 * type checker knows: an import whose every name is a type (an interface, a type alias), not
 * marked `type`, is erased too.
 */
import {
	isCallExpression,
	isExportDeclaration,
	isImportDeclaration,
	isImportSpecifier,
	isImportTypeNode,
	isLiteralTypeNode,
	isNamedImports,
	isStringLiteral,
} from 'typescript/unstable/ast/is'
import { SymbolFlags } from 'typescript/unstable/async'
import { fromRoot, nodesOf, resolveImport, SyntaxKind, type AppSource, type Node, type SourceFile } from './source.ts'

export interface Import {
	/** Both as paths from the repository root (`to` as written for packages and `node:`). */
	readonly from: string
	readonly to: string
	readonly line: number
	readonly kind: 'runtime' | 'type' | 'dynamic'
}

/** Every import of `file`, with how it loads. */
export async function importsOf(source: Pick<AppSource, 'checker'>, file: SourceFile): Promise<Import[]> {
	const out: Import[] = []
	const add = (specifier: Node | undefined, kind: Import['kind']) => {
		if (specifier && isStringLiteral(specifier))
			out.push({
				from: fromRoot(file.fileName),
				to: resolveImport(file.fileName, specifier.text),
				// Where the specifier is written (`node.pos` is before the comments and line breaks leading to the node).
				line: file.getLineAndCharacterOfPosition(specifier.getStart(file)).line + 1,
				kind,
			})
	}
	for (const node of nodesOf(file)) {
		if (isImportDeclaration(node)) add(node.moduleSpecifier, (await erased(source, node)) ? 'type' : 'runtime')
		else if (isExportDeclaration(node)) add(node.moduleSpecifier, node.isTypeOnly ? 'type' : 'runtime')
		else if (isCallExpression(node) && node.expression.kind === SyntaxKind.ImportKeyword) add(node.arguments[0], 'dynamic')
		else if (isImportTypeNode(node) && isLiteralTypeNode(node.argument)) add(node.argument.literal, 'type')
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
