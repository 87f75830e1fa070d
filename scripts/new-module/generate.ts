/**
 * `npm run new-module -- <name>`: writes a working module into `modules/<name>/` from the files in
 * `template/` and lists it in `modules/index.ts`. The template is a real module named
 * `sample-module` (type-checked with the rest of the code); each spelling of that name is replaced
 * by the same spelling of the new one, and its imports, written from `scripts/new-module/template/`,
 * are re-aimed from `modules/<name>/`. Nothing is written unless every check passes.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

const TEMPLATE_DIR = resolve(import.meta.dir, 'template')
const TEMPLATE_NAME = 'sample-module'
/** Lowercase words joined by dashes; short enough for the index names PostgreSQL keeps (63 bytes). */
const NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/
const MAX_LENGTH = 40

/**
 * Names that would clash with something that is not a module folder: a JavaScript word the import
 * in modules/index.ts cannot be named, the list itself, or a top-level folder of the repository.
 */
const RESERVED: Record<string, string> = Object.fromEntries([
	...'await break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof let new null return static super switch this throw true try typeof var void while with yield'
		.split(' ')
		.map((w) => [w, 'a JavaScript keyword cannot name the import in modules/index.ts']),
	['modules', 'modules/index.ts exports the list under that name'],
	...['core', 'db', 'tests', 'bench', 'scripts', 'docs', 'patches', 'data', 'index', 'node-modules'].map((w) => [
		w,
		'it is a folder or file of the repository, which would confuse readers',
	]),
])

/** The spellings of a module name that code uses, e.g. for `notes-demo`. */
export function spellings(name: string) {
	const words = name.split('-')
	const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1)
	return {
		/** notes-demo: folder, permission prefix, page address. */
		dashed: name,
		/** notes_demo: table, tool names, activity actions. */
		snake: words.join('_'),
		/** notesDemo: variables. */
		camel: words[0] + words.slice(1).map(cap).join(''),
		/** NotesDemo: types and function names. */
		pascal: words.map(cap).join(''),
		/** Notes demo: headings, labels. */
		label: cap(words.join(' ')),
		/** notes demo: inside sentences. */
		words: words.join(' '),
	}
}

/** Everything wrong with `name` for a new module in the repository at `root` (empty when it may be used). */
export function nameProblems(root: string, name: string): string[] {
	if (!NAME.test(name)) return [`"${name}" is not lowercase words joined by dashes (e.g. notes or client-visits)`]
	if (name.length > MAX_LENGTH) return [`"${name}" is longer than ${MAX_LENGTH} characters`]
	if (existsSync(join(root, 'modules', name))) return [`modules/${name} already exists`]
	const problems: string[] = []
	if (RESERVED[name]) problems.push(`"${name}" is reserved: ${RESERVED[name]}`)
	const s = spellings(name)
	const sources = sourceFiles(root)
	const address = new RegExp(`['\`]/${name}(?:['\`/?]|$)`)
	const path = sources.find((f) => address.test(f.text))
	if (path) problems.push(`the address /${name} is already used by ${path.file}`)
	const tool = sources.find((f) => f.text.includes(`name: 'list_${s.snake}'`))
	if (tool) problems.push(`the tool list_${s.snake} is already declared in ${tool.file}`)
	const tables = sources
		.filter((f) => f.file.endsWith('table.ts'))
		.flatMap((f) => [...f.text.matchAll(/(?:pgTable|index|uniqueIndex)\(\s*'([^']+)'/g)].map((m) => ({ file: f.file, name: m[1]! })))
	const clash = tables.find((t) => t.name === s.snake || t.name === `${s.snake}_list`)
	if (clash) problems.push(`the database name ${clash.name} is already used in ${clash.file}`)
	return problems
}

/** The TypeScript files of core/, db/ and modules/, tests last (a test names the addresses it calls, the code that serves them comes first). */
function sourceFiles(root: string): { file: string; text: string }[] {
	const found: { file: string; text: string }[] = []
	const walk = (dir: string) => {
		for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
			const rel = `${dir}/${entry.name}`
			if (entry.isDirectory()) walk(rel)
			else if (entry.name.endsWith('.ts')) found.push({ file: rel, text: readFileSync(join(root, rel), 'utf8') })
		}
	}
	for (const dir of ['core', 'modules', 'db']) if (existsSync(join(root, dir))) walk(dir)
	const isTest = (f: { file: string }) => f.file.endsWith('.test.ts')
	return [...found.filter((f) => !isTest(f)), ...found.filter(isTest)]
}

/** A template file's text for the module `name`: its name spelt the new way, its imports aimed from modules/<name>/. */
export function fromTemplate(text: string, name: string): string {
	const from = spellings(TEMPLATE_NAME)
	const to = spellings(name)
	const keys = Object.keys(from) as (keyof typeof from)[]
	const pattern = new RegExp(keys.map((k) => from[k]).join('|'), 'g')
	const byText = new Map(keys.map((k) => [from[k], to[k]]))
	return text
		.replace(pattern, (m) => byText.get(m)!)
		.replaceAll(`'../../../modules/`, `'../`)
		.replaceAll(`'../../../`, `'../../`)
}

/** The template's file names in the module: the test gets the module's name (bun runs `*.test.ts`, so in the template it must not end so). */
const fileName = (templateFile: string, name: string) => (templateFile === 'test.ts' ? `${name}.test.ts` : templateFile)

/** modules/index.ts with the new module imported and appended to the list. */
export function listedIn(indexText: string, name: string): string {
	const { camel } = spellings(name)
	const list = /(export const modules = \[)([\s\S]*?)(,?)(\s*\] as const)/
	const imports = [...indexText.matchAll(/^import .*$/gm)]
	const lastImport = imports.at(-1)
	if (!list.test(indexText) || !lastImport)
		throw new Error('modules/index.ts has no `import … from` lines and `export const modules = [ … ] as const` to add the module to')
	const at = lastImport.index! + lastImport[0].length
	const withImport = `${indexText.slice(0, at)}\nimport ${camel} from './${name}/index.ts'${indexText.slice(at)}`
	// A list written one module per line gets one more line; a list on one line gets `, name`.
	return withImport.replace(list, (_, open: string, items: string, comma: string, close: string) =>
		items.includes('\n') ? `${open}${items},\n\t${camel}${comma}${close}` : `${open}${items}, ${camel}${close}`,
	)
}

/** Writes the module; returns the files written and changed, relative to `root`. */
export function generateModule(root: string, name: string): string[] {
	const problems = nameProblems(root, name)
	if (problems.length) throw new NewModuleError(problems)
	const indexPath = join(root, 'modules/index.ts')
	const index = listedIn(readFileSync(indexPath, 'utf8'), name)
	const dir = join(root, 'modules', name)
	mkdirSync(dir)
	const written: string[] = []
	for (const file of readdirSync(TEMPLATE_DIR).sort()) {
		const target = fileName(file, name)
		writeFileSync(join(dir, target), fromTemplate(readFileSync(join(TEMPLATE_DIR, file), 'utf8'), name))
		written.push(`modules/${name}/${target}`)
	}
	// The new name is longer or shorter than the template's: lines are wrapped again as the linter wants them.
	const biome = join(root, 'node_modules/.bin/biome')
	if (existsSync(biome)) spawnSync(biome, ['format', '--write', `modules/${name}`], { cwd: root, stdio: 'ignore' })
	writeFileSync(indexPath, index)
	written.push('modules/index.ts')
	return written
}

export class NewModuleError extends Error {
	constructor(readonly problems: string[]) {
		super(problems.join('\n'))
	}
}

if (import.meta.main) {
	const [name, ...extra] = process.argv.slice(2)
	if (!name || extra.length) {
		console.error('usage: npm run new-module -- <name>   (lowercase words joined by dashes, e.g. client-visits)')
		process.exit(2)
	}
	try {
		const written = generateModule(process.cwd(), name)
		console.log(
			`Wrote ${written.join(', ')}.\nNext:\n  npm run db:generate -- --name ${spellings(name).snake}   # the migration of its table\n  bun test modules/${name}`,
		)
	} catch (error) {
		if (!(error instanceof NewModuleError)) throw error
		console.error(`new-module: ${name} cannot be used:\n${error.problems.map((p) => `  - ${p}`).join('\n')}`)
		process.exit(2)
	}
}
