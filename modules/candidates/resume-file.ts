/**
 * Résumé files: the type is decided by the content (magic bytes and, for DOCX, the zip's own
 * directory), never by the file name or the browser's content type; the text is extracted by the
 * résumé reader (`resume-reader.ts`: `unpdf`/PDF.js and `mammoth`) in a child process of its own,
 * bounded in memory and time, a few at once; files are stored under random names in the file store.
 */
import { fileURLToPath } from 'node:url'
import { type ChildOutcome, runChild, SlotsBusy, TaskSlots } from '../../core/child-task.ts'
import { randomToken } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { fileStore } from '../../core/files.ts'
import type { PoolDef } from '../../core/metrics.ts'
import { cleanText, cutText } from '../../core/untrusted.ts'
import { zipDirectory } from './zip.ts'

export type ResumeType = 'pdf' | 'docx'
export const MAX_RESUME_BYTES = 10 * 1024 * 1024
export const RESUME_MIME: Record<ResumeType, string> = {
	pdf: 'application/pdf',
	docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
}
const MAX_TEXT_CHARS = 100_000

/**
 * A reader whose memory passes this is killed. Measured (Bun 1.4.5): a reader starts at about 60 MB,
 * reads a one-page PDF or Word file at 60–75 MB, and needs about 100 MB more per MiB of Word XML (a
 * long CV has 100–300 KB of it), so 384 MB reads any real résumé and refuses the rest.
 */
export const RESUME_READER_MAX_RSS = 384 * 1024 * 1024
/** Readers running at once (the machine they were measured on has 2 cores); more files wait. */
export const RESUME_READERS = 2
/** Files waiting for a reader at most; more are refused at once (503). Each holds its ≤ 10 MB upload meanwhile. */
export const RESUME_READERS_QUEUE = 8
/** The reader's JSON answer at most: 200,000 characters, each at most 6 bytes escaped (`\u0000`). */
const READER_ANSWER_BYTES = 2 * 1024 * 1024
const readers = new TaskSlots(RESUME_READERS, RESUME_READERS_QUEUE)
/** The readers on `/metrics` (`benchline_pool_workers{pool="resume_readers"}`). */
export const resumeReaders: PoolDef = {
	name: 'resume_readers',
	description: 'Child processes reading uploaded résumés',
	measure: () => ({ busy: readers.busy, queued: readers.queued }),
}
const READER = fileURLToPath(new URL('./resume-reader.ts', import.meta.url))

const startsWith = (bytes: Uint8Array, ascii: string) => ascii.split('').every((ch, i) => bytes[i] === ch.charCodeAt(0))

/** 'pdf', 'docx', or null for anything else (a renamed image, an old .doc, a zip that is no Word file). */
export function detectResumeType(bytes: Uint8Array): ResumeType | null {
	if (startsWith(bytes, '%PDF-')) return 'pdf'
	if (startsWith(bytes, 'PK\u0003\u0004')) {
		const entries = zipDirectory(bytes)
		if (entries?.some((e) => e.name === 'word/document.xml') && entries.some((e) => e.name === '[Content_Types].xml')) return 'docx'
	}
	return null
}

/** The file cannot be read; `detail`, when set, says why in words for the applicant (a damaged Word file). */
export class UnreadableResume extends Error {
	constructor(readonly detail?: string) {
		super(detail ?? 'the file could not be read')
	}
}

/** The file is over one of the reading limits; the message names it ("takes longer than 10 seconds to read"). */
export class ResumeOverLimit extends Error {}

/** Every reader is busy and the queue is full (or no reader came free in time): retry in a moment. */
export class ResumeReadersBusy extends Error {}

type ReaderAnswer = { text: string } | { refused: 'limit' | 'damaged' | 'unreadable'; reason: string }

function parseAnswer(output: string): ReaderAnswer | null {
	try {
		const answer = JSON.parse(output) as Partial<{ text: unknown; refused: unknown; reason: unknown }>
		if (typeof answer.text === 'string') return { text: answer.text }
		if ((answer.refused === 'limit' || answer.refused === 'damaged' || answer.refused === 'unreadable') && typeof answer.reason === 'string')
			return { refused: answer.refused, reason: answer.reason }
	} catch {}
	return null
}

/** Trailing spaces and tabs off every line, runs of blank lines to one, in one linear pass (no backtracking regex on a hostile text). */
function tidyLines(text: string): string {
	return text
		.split('\n')
		.map((line) => {
			let end = line.length
			while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--
			return line.slice(0, end)
		})
		.join('\n')
		.replace(/\n{3,}/g, '\n\n')
		.trim()
}

/**
 * The résumé's text, cleaned of control characters and capped. Throws `ResumeOverLimit` when reading
 * it passes a limit (unpacked size, the reader's memory or time), `UnreadableResume` when it cannot be
 * read, and `ResumeReadersBusy` when too many files are being read already.
 */
export async function extractResumeText(deps: Pick<AppDeps, 'config' | 'log'>, bytes: Uint8Array, type: ResumeType): Promise<string> {
	const seconds = deps.config.fileParseTimeout
	const limits = { timeoutMs: seconds * 1000, maxRssBytes: RESUME_READER_MAX_RSS, maxOutputBytes: READER_ANSWER_BYTES }
	let outcome: ChildOutcome
	try {
		outcome = await readers.run(seconds * 1000, () => runChild(READER, [type], bytes, limits))
	} catch (error) {
		if (error instanceof SlotsBusy) {
			deps.log.warn('résumé readers busy: a file was turned away', { reason: error.message })
			throw new ResumeReadersBusy(error.message)
		}
		throw error
	}
	if (outcome.kind === 'timeout') throw new ResumeOverLimit(`it takes longer than ${seconds} second${seconds === 1 ? '' : 's'} to read`)
	if (outcome.kind === 'memory') throw new ResumeOverLimit(`it needs more than ${RESUME_READER_MAX_RSS / 1024 / 1024} MB of memory to read`)
	const answer = outcome.kind === 'done' ? parseAnswer(outcome.output) : null
	if (!answer) {
		deps.log.warn('the résumé reader failed', { type, detail: outcome.kind === 'failed' ? outcome.logged : "an answer that is not the reader's JSON" })
		throw new UnreadableResume()
	}
	if ('refused' in answer) {
		if (answer.refused === 'limit') throw new ResumeOverLimit(answer.reason)
		deps.log.info('a résumé could not be read', { type, reason: answer.reason })
		throw new UnreadableResume(answer.refused === 'damaged' ? answer.reason : undefined)
	}
	// Credentials are blanked before the text is cut, so a cut never keeps part of one (issue 16, item 8).
	return cutText(tidyLines(cleanText(answer.text.slice(0, 2 * MAX_TEXT_CHARS))), MAX_TEXT_CHARS)
}

/** Stores the file under a random name; returns its key in the file store. */
export async function storeResume(deps: Pick<AppDeps, 'config'>, workspaceId: string, bytes: Uint8Array, type: ResumeType): Promise<string> {
	const key = `resumes/${workspaceId}/${randomToken(16)}.${type}`
	await fileStore(deps.config).put(key, bytes, RESUME_MIME[type])
	return key
}

export async function deleteResume(deps: Pick<AppDeps, 'config'>, key: string): Promise<void> {
	await fileStore(deps.config)
		.delete(key)
		.catch(() => {})
}
