/**
 * JSON-line logger on stderr. Secrets never reach a log line: anything shaped like one of our
 * credentials, a bearer header or a session cookie is masked before writing.
 */
import type { LogLevel } from './config.ts'

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 }
const REDACTIONS: [RegExp, string][] = [
	[/bl_(?:vk|pat|at|rt|code|ul)_[0-9A-Za-z]{8,}/g, 'bl_[redacted]'],
	[/\b(bearer\s+)[^\s",]+/gi, '$1[redacted]'],
	[/\b(session|csrf)=[^;\s"]+/gi, '$1=[redacted]'],
	[/\b(code_verifier|refresh_token|access_token|token|code|password)=[^&\s"]+/gi, '$1=[redacted]'],
	[/"(password|token|apiKey|secret|code_verifier|refresh_token|access_token)":"[^"]*"/gi, '"$1":"[redacted]"'],
]

/** Masks anything that looks like a secret. Applied to every log line. */
export function redact(text: string): string {
	let out = text
	for (const [pattern, replacement] of REDACTIONS) out = out.replace(pattern, replacement)
	return out
}

export interface Logger {
	debug(message: string, fields?: Record<string, unknown>): void
	info(message: string, fields?: Record<string, unknown>): void
	warn(message: string, fields?: Record<string, unknown>): void
	error(message: string, fields?: Record<string, unknown>): void
}

export function createLogger(level: LogLevel, write: (line: string) => void = (line) => process.stderr.write(line + '\n')): Logger {
	const at = (lvl: Exclude<LogLevel, 'silent'>) => (message: string, fields?: Record<string, unknown>) => {
		if (ORDER[lvl] < ORDER[level]) return
		const entry: Record<string, unknown> = { t: new Date().toISOString(), level: lvl, msg: message, ...fields }
		const err = fields?.error
		if (err instanceof Error) entry.error = { message: err.message, stack: err.stack, code: (err as { code?: unknown }).code }
		write(redact(JSON.stringify(entry)))
	}
	return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
}
