/**
 * The operator CLI: `npm run cli -- <command> [options] [--json]`.
 * Commands come from the modules, plus the core's `seed` (commands.ts); with `--json` the last line of the
 * output is one JSON object. Bad arguments print the usage line and exit 2; failures exit 1.
 */
import { allCommands } from './commands.ts'
import { loadConfig } from './config.ts'
import type { AppDeps } from './deps.ts'
import { AppError } from './errors.ts'
import { createLogger } from './log.ts'
import { closeDeps, createDeps, modules } from './main.ts'
import { UsageError, type CommandDef, type CommandOutput } from './module.ts'
import { buildRegistry } from './registry.ts'

export { allCommands, runCommand } from './commands.ts'

export interface ParsedCommand {
	command: CommandDef
	options: Record<string, string | boolean>
	json: boolean
}

/** Matches the longest command name at the start of argv and parses its options. */
export function parseCommand(commands: CommandDef[], argv: string[]): ParsedCommand {
	const words = argv.filter((a) => !a.startsWith('--'))
	const command = [...commands].sort((a, b) => b.name.length - a.name.length).find((c) => c.name.split(' ').every((w, i) => argv[i] === w))
	if (!command) throw new UsageError(words.length ? `unknown command "${words.slice(0, 2).join(' ')}"` : 'no command given')
	const rest = argv.slice(command.name.split(' ').length)
	const options: Record<string, string | boolean> = {}
	let json = false
	for (let i = 0; i < rest.length; i++) {
		const arg = rest[i]!
		if (arg === '--json') {
			json = true
			continue
		}
		const [flag, inline] = arg.startsWith('--') ? arg.slice(2).split(/=(.*)/s, 2) : [undefined, undefined]
		const kind = flag !== undefined ? command.options[flag] : undefined
		if (!flag || !kind) throw new UsageError(`unexpected argument "${arg}"`, { cause: command })
		if (kind === 'flag') options[flag] = true
		else {
			const value = inline ?? rest[++i]
			if (value === undefined || (inline === undefined && value.startsWith('--'))) throw new UsageError(`--${flag} needs a value`, { cause: command })
			options[flag] = value
		}
	}
	const missing = (command.required ?? []).filter((r) => options[r] === undefined)
	if (missing.length) throw new UsageError(`missing ${missing.map((m) => `--${m}`).join(', ')}`, { cause: command })
	return { command, options, json }
}

function usage(commands: CommandDef[], only?: CommandDef): string {
	const list = only ? [only] : commands
	return `usage: npm run cli -- ${list.map((c) => c.usage).join('\n       npm run cli -- ')}`
}

/** Standard output as a command's stream, waiting when the pipe is full (a large export never piles up in memory). */
const stdoutOutput: CommandOutput = {
	write: (chunk) => new Promise((resolve, reject) => process.stdout.write(chunk, (error) => (error ? reject(error) : resolve()))),
}

async function main(argv: string[]): Promise<number> {
	const config = loadConfig(process.env, modules)
	// Commands print their own output; the logger only reports problems.
	const log = createLogger(config.logLevel === 'debug' ? 'debug' : 'warn')
	let deps: AppDeps | undefined
	try {
		// Parse before opening the database so that a typo answers at once.
		const commands = allCommands({ registry: buildRegistry(modules) })
		let parsed: ParsedCommand
		try {
			parsed = parseCommand(commands, argv)
		} catch (error) {
			if (!(error instanceof UsageError)) throw error
			console.error(`error: ${error.message}`)
			console.error(usage(commands, error.cause as CommandDef | undefined))
			return 2
		}
		deps = await createDeps({ config, log })
		try {
			const { json, lines } = await parsed.command.run(deps, parsed.options, stdoutOutput)
			for (const line of lines) console.log(line)
			if (parsed.json) console.log(JSON.stringify(json))
			return 0
		} catch (error) {
			if (error instanceof UsageError) {
				console.error(`error: ${error.message}`)
				console.error(usage(commands, parsed.command))
				return 2
			}
			if (error instanceof AppError) {
				const detail = error.fields?.map((f) => `${f.field} ${f.message}`).join('; ')
				console.error(`error: ${error.message}${detail ? `: ${detail}` : ''}`)
				if (parsed.json) console.log(JSON.stringify({ error: error.message, fields: error.fields ?? [] }))
				return 1
			}
			throw error
		}
	} finally {
		if (deps) await closeDeps(deps)
	}
}

if (import.meta.main) {
	try {
		process.exit(await main(process.argv.slice(2)))
	} catch (error) {
		console.error(`error: ${(error as Error).message}`)
		process.exit(1)
	}
}
