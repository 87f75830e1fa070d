/**
 * The operator CLI: `npm run cli -- <command> [options] [--json]`.
 * Commands come from the modules, plus the core's `seed` (commands.ts); with `--json` (anywhere in the
 * arguments) the last line of the output is one JSON object, `{"error","fields"}` when the command failed,
 * whatever failed. Bad arguments print the usage line and exit 2; failures exit 1; `help` exits 0.
 */
import { allCommands } from './commands.ts'
import { DatabaseLockedError, SessionBoundsError } from '../db/client.ts'
import { SchemaError } from '../db/migrate.ts'
import { ConfigError, loadConfig, StartupError } from './config.ts'
import type { AppDeps } from './deps.ts'
import { AppError } from './errors.ts'
import { createLogger, describeError, escapeControls, redact, type Logger } from './log.ts'
import { closeDeps, createDeps, modules } from './main.ts'
import { UsageError, type CommandDef, type CommandOutput } from './module.ts'
import { buildRegistry, RegistryError } from './registry.ts'

export { allCommands, runCommand } from './commands.ts'

export interface ParsedCommand {
	command: CommandDef
	options: Record<string, string | boolean>
	json: boolean
}

/** The command whose name starts argv (the longest that matches; `--json` may come anywhere, first too). */
function commandOf(commands: CommandDef[], argv: string[]): CommandDef | undefined {
	const words = argv.filter((a) => a !== '--json')
	return [...commands].sort((a, b) => b.name.length - a.name.length).find((c) => c.name.split(' ').every((w, i) => words[i] === w))
}

/**
 * Matches the longest command name at the start of argv and parses its options. An option given twice
 * is refused (which of the two was meant?), unless it is a list option: its values are then joined
 * with commas, as if typed in one.
 */
export function parseCommand(commands: CommandDef[], argv: string[]): ParsedCommand {
	const json = argv.includes('--json')
	const args = argv.filter((a) => a !== '--json')
	const command = commandOf(commands, args)
	const words = args.filter((a) => !a.startsWith('--'))
	if (!command) throw new UsageError(words.length ? `unknown command "${words.slice(0, 2).join(' ')}"` : 'no command given')
	const rest = args.slice(command.name.split(' ').length)
	const options: Record<string, string | boolean> = {}
	for (let i = 0; i < rest.length; i++) {
		const arg = rest[i]!
		const [flag, inline] = arg.startsWith('--') ? arg.slice(2).split(/=(.*)/s, 2) : [undefined, undefined]
		const kind = flag !== undefined ? command.options[flag] : undefined
		if (!flag || !kind) throw new UsageError(`unexpected argument "${arg}"`, { cause: command })
		if (options[flag] !== undefined && kind !== 'list') throw new UsageError(`--${flag} is given more than once`, { cause: command })
		if (kind === 'flag') options[flag] = true
		else {
			const value = inline ?? rest[++i]
			if (value === undefined || (inline === undefined && value.startsWith('--'))) throw new UsageError(`--${flag} needs a value`, { cause: command })
			options[flag] = options[flag] === undefined ? value : `${options[flag]},${value}`
		}
	}
	const missing = (command.required ?? []).filter((r) => options[r] === undefined)
	if (missing.length) throw new UsageError(`missing ${missing.map((m) => `--${m}`).join(', ')}`, { cause: command })
	checkOptions(command, options)
	return { command, options, json }
}

/** The command's own checks of its options (`CommandDef.check`); what they refuse is answered with its usage line. */
function checkOptions(command: CommandDef, options: Record<string, string | boolean>) {
	try {
		command.check?.(options)
	} catch (error) {
		throw error instanceof UsageError && !error.cause ? new UsageError(error.message, { cause: command }) : error
	}
}

/** `help`, `--help` or `-h`: the usage lines (a command's own when one is named) on standard output, exit 0. */
const asksForHelp = (argv: string[]) => argv[0] === 'help' || argv.includes('--help') || argv.includes('-h')

function usage(commands: CommandDef[], only?: CommandDef): string {
	const list = only ? [only] : commands
	return `usage: npm run cli -- ${list.map((c) => c.usage).join('\n       npm run cli -- ')}`
}

/**
 * Text for the operator's terminal: stored text (a workspace's or a token's name) may hold newlines,
 * ESC sequences or direction overrides, which a terminal would act on; each is shown as its escape.
 * A message of several lines of our own (the configuration's problems) keeps its line breaks.
 */
const forTerminal = (text: string, { multiline = false } = {}) => (multiline ? text.split('\n').map(escapeControls).join('\n') : escapeControls(text))

/** Standard output as a command's stream, waiting when the pipe is full (a large export never piles up in memory). */
function stdoutStream() {
	let atLineStart = true
	const write = (chunk: string) =>
		new Promise<void>((resolve, reject) => {
			if (chunk) atLineStart = chunk.endsWith('\n')
			process.stdout.write(chunk, (error) => (error ? reject(error) : resolve()))
		})
	return {
		output: { write } satisfies CommandOutput,
		/** The `--json` object on a line of its own, after whatever was streamed (an export cut short has no final newline). */
		jsonLine: async (value: unknown) => write(`${atLineStart ? '' : '\n'}${escapeControls(JSON.stringify(value))}\n`),
	}
}

/** Failures whose message is written for the operator (of several lines, some of them). */
const OPERATOR_ERRORS = [ConfigError, StartupError, DatabaseLockedError, SessionBoundsError, SchemaError, RegistryError]

interface Failure {
	code: number
	/** The `error` of the JSON line. */
	message: string
	fields: { field: string; message: string }[]
	/** What the operator reads after `error: ` (the message, with the fields' reasons it does not give). */
	shown?: string
	multiline?: boolean
}

/**
 * What a failure says and its exit code: bad arguments 2, anything else 1. An unexpected error is
 * described as the server's log describes it (core/log.ts): a failed query by its SQLSTATE, never its
 * statement nor the values bound to it, and secrets masked.
 */
export function describeFailure(error: unknown, log: Logger): Failure {
	if (error instanceof UsageError) return { code: 2, message: error.message, fields: [] }
	if (error instanceof AppError) {
		const fields = error.fields ?? []
		// A field's reason is added only when the message does not say it already.
		const detail = fields.map((f) => `${f.field} ${f.message}`).filter((d) => !error.message.includes(d))
		return { code: 1, message: error.message, fields: [...fields], shown: detail.length ? `${error.message}: ${detail.join('; ')}` : error.message }
	}
	if (OPERATOR_ERRORS.some((kind) => error instanceof kind)) return { code: 1, message: (error as Error).message, fields: [], multiline: true }
	log.debug('command failed', { error })
	if (!(error instanceof Error)) return { code: 1, message: redact(String(error)), fields: [] }
	const described = describeError(error)
	const cause = described.cause as { code?: unknown } | undefined
	const code = described.code ?? cause?.code
	return { code: 1, message: redact(`${described.message}${code ? ` (${code})` : ''}`), fields: [] }
}

async function main(argv: string[]): Promise<number> {
	// Decided from argv alone, before anything can fail: every failure then ends with the JSON line too.
	const json = argv.includes('--json')
	const stdout = stdoutStream()
	// Commands print their own output; the logger only reports problems.
	let log = createLogger('warn')
	let commands: CommandDef[] = []
	let command: CommandDef | undefined
	let deps: AppDeps | undefined
	try {
		commands = allCommands({ registry: buildRegistry(modules) })
		if (asksForHelp(argv)) {
			console.log(usage(commands, commandOf(commands, argv)))
			return 0
		}
		// Parsed before the configuration is read and the database opened, so that a typo answers at once.
		const parsed = parseCommand(commands, argv)
		command = parsed.command
		const config = loadConfig(process.env, modules)
		log = createLogger(config.logLevel === 'debug' ? 'debug' : 'warn')
		deps = await createDeps({ config, log })
		const { json: result, lines } = await parsed.command.run(deps, parsed.options, stdout.output)
		for (const line of lines) console.log(forTerminal(line))
		if (json) await stdout.jsonLine(result)
		return 0
	} catch (error) {
		const failure = describeFailure(error, log)
		console.error(`error: ${forTerminal(failure.shown ?? failure.message, failure)}`)
		if (error instanceof UsageError) console.error(usage(commands, (error.cause as CommandDef | undefined) ?? command))
		if (json) await stdout.jsonLine({ error: failure.message, fields: failure.fields })
		return failure.code
	} finally {
		// What the command did stands: a failure to close afterwards changes neither its output nor its exit code.
		if (deps) await closeDeps(deps).catch((error: unknown) => log.debug('closing failed', { error }))
	}
}

if (import.meta.main) process.exit(await main(process.argv.slice(2)))
