/**
 * The functions of the app's code with their length in lines, read with TypeScript's parser
 * (source.ts), for the rule that no function in modules/ runs over `MAX_FUNCTION_LINES`
 * (tests/contract/function-length.test.ts). A function's length is its whole text, from its first
 * token (modifiers included, doc comment left out) to its closing brace, the functions written
 * inside it included: a 120-line handler inside a short route list makes both long.
 *
 * A function is named by where it stands, so the name survives edits around it: its own name, the
 * variable or property it is assigned to, or, for a callback, the method it is passed to with that
 * call's first string (`get('/oauth/authorize')`); inside another function, the outer names first
 * (`oauthRoutes/post('/oauth/token')`).
 *
 * Run as a script, it prints the functions of modules/ over the limit, longest first:
 * `bun tests/contract/functions.ts [max]`.
 */
import {
	isArrowFunction,
	isCallExpression,
	isConstructorDeclaration,
	isFunctionDeclaration,
	isFunctionExpression,
	isGetAccessorDeclaration,
	isIdentifier,
	isMethodDeclaration,
	isNoSubstitutionTemplateLiteral,
	isPropertyAccessExpression,
	isPropertyAssignment,
	isSetAccessorDeclaration,
	isStringLiteral,
	isVariableDeclaration,
} from 'typescript/unstable/ast/is'
import { appSource, fromRoot, type AppSource, type Node, type SourceFile } from './source.ts'

/** The longest a function in modules/ may be, in lines. */
export const MAX_FUNCTION_LINES = 80

export interface FunctionLength {
	/** Path from the repository root. */
	readonly file: string
	readonly name: string
	/** First line (1-based). */
	readonly line: number
	readonly lines: number
}

const isFunction = (node: Node) =>
	isFunctionDeclaration(node) ||
	isFunctionExpression(node) ||
	isArrowFunction(node) ||
	isMethodDeclaration(node) ||
	isConstructorDeclaration(node) ||
	isGetAccessorDeclaration(node) ||
	isSetAccessorDeclaration(node)

const nameText = (node: Node | undefined): string | undefined =>
	node && (isIdentifier(node) || isStringLiteral(node) || isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined

/** The function's own name, or what it is assigned or passed to. */
function ownName(node: Node): string {
	const named = nameText((node as Node & { name?: Node }).name)
	if (named) return named
	if (isConstructorDeclaration(node)) return 'constructor'
	const parent = node.parent
	if (isVariableDeclaration(parent) || isPropertyAssignment(parent)) return nameText(parent.name) ?? '(anonymous)'
	if (isCallExpression(parent)) {
		const callee = isPropertyAccessExpression(parent.expression) ? parent.expression.name.text : (nameText(parent.expression) ?? 'call')
		const first = nameText(parent.arguments[0])
		return first === undefined ? `${callee}()` : `${callee}('${first}')`
	}
	return '(anonymous)'
}

/** Every function of a file with its length, outer ones first. */
export function functionsOf(file: SourceFile): FunctionLength[] {
	const out: FunctionLength[] = []
	const lineOf = (position: number) => file.getLineAndCharacterOfPosition(position).line + 1
	const visit = (node: Node, outer: string[]): void => {
		let names = outer
		if (isFunction(node)) {
			names = [...outer, ownName(node)]
			const line = lineOf(node.getStart(file))
			out.push({ file: fromRoot(file.fileName), name: names.join('/'), line, lines: lineOf(node.end) - line + 1 })
		}
		node.forEachChild((child) => visit(child, names))
	}
	visit(file, [])
	return out
}

/** The functions of `files` longer than `max` lines, longest first. */
export function longFunctions(files: readonly SourceFile[], max = MAX_FUNCTION_LINES): FunctionLength[] {
	return files
		.flatMap(functionsOf)
		.filter((f) => f.lines > max)
		.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line)
}

/** The app's files under modules/ (tests left out). */
export const moduleFiles = (source: AppSource) => source.files.filter((f) => fromRoot(f.fileName).startsWith('modules/'))

if (import.meta.main) {
	const max = Number(process.argv[2] ?? MAX_FUNCTION_LINES)
	const source = await appSource()
	const long = longFunctions(moduleFiles(source), max)
	await source.close()
	for (const f of long) console.log(`${String(f.lines).padStart(4)}  ${f.file}:${f.line}  ${f.name}`)
	console.log(`${long.length} function(s) in modules/ over ${max} lines`)
}
