/**
 * The résumé check: each must-have of a job against the text of a résumé.
 *
 * Rules:
 * - Both sides are normalised the same way (`resume-words.ts`): case, accents, plurals, known
 *   spellings of a technology ("K8s" = "Kubernetes", "SpringBoot" = "Spring Boot", ".NET" = "dotnet").
 * - A skill is met when one résumé line (or two adjacent lines) holds every word of it; version
 *   numbers ("Java 17", "Oracle 19c") are not required, but a missing version is said in the note.
 * - "N+ years of experience" is met by a stated total ("8 years of experience") or by the dates of
 *   the work history added up (overlaps counted once); "N+ years Java" needs a line that names the
 *   skill and at least N years.
 * - Each item is `met` or `not_found`, with the résumé line that shows it (or came closest) and a
 *   note; the score is the share of must-haves met, 0 to 100.
 */
import { createHash } from 'node:crypto'
import { sql, type SQL } from 'drizzle-orm'
import { cutText } from '../../core/untrusted.ts'
import { baseNormalise, FILLER, isVersion, tokenLines, tokens } from './resume-words.ts'

/** Bumped whenever the method changes, so stored checks are re-run (2: evidence is cut after credentials are blanked). */
export const RESUME_CHECK_VERSION = 2

export interface CheckItem {
	requirement: string
	status: 'met' | 'not_found'
	/** The résumé line that shows it or came closest (candidate-written text). */
	evidence: string | null
	note: string | null
}

export interface ResumeCheck {
	version: number
	/** The must-haves the check was made against (a re-check runs when the job's differ). */
	mustHaves: string[]
	/** MD5 of the résumé text the check read (a re-check runs when the résumé changes). */
	resumeHash: string
	items: CheckItem[]
	met: number
	total: number
	/** Share of must-haves met, 0–100; null when the job has no must-haves. */
	score: number | null
	checkedAt: string
}

/** A résumé line and its canonical tokens (kept small: bench ranking caches many prepared résumés). */
interface Line {
	text: string
	tokens: string[]
}

export interface PreparedResume {
	lines: Line[]
	/** Largest total of years stated next to "experience" and the line that states it. */
	claimed: { years: number; line: string | null }
	/** Years covered by the dated work history (overlaps counted once). */
	fromDates: { years: number; line: string | null }
}

/** MD5 hex of the résumé text, as PostgreSQL's `md5(text)` computes it. */
/** `resumeHash` in SQL, of the candidates row aliased `alias` (the same MD5 of the text, empty when none). */
export const resumeHashSql = (alias: string): SQL => sql.raw(`md5(coalesce(${alias}.resume_text, ''))`)

/** The text an application is checked against: the résumé it came with, else its candidate's (`applications.resume_text`). */
export const applicationResumeTextSql = (application: string, candidate: string): SQL =>
	sql.raw(`coalesce(${application}.resume_text, ${candidate}.resume_text)`)

/** `resumeHash` of the text an application is checked against. */
export const applicationResumeHashSql = (application: string, candidate: string): SQL =>
	sql`md5(coalesce(${applicationResumeTextSql(application, candidate)}, ''))`

export const resumeHash = (text: string | null) =>
	createHash('md5')
		.update(text ?? '', 'utf8')
		.digest('hex')

const YEARS = /(\d{1,2})\s*\+?\s*(?:-\s*\d{1,2}\s*\+?\s*)?(?:years?|yrs?)\b/g
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']
const MONTH = '(?:(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?\\s*|(\\d{1,2})\\s*/\\s*)?'
const RANGE = new RegExp(`${MONTH}((?:19|20)\\d\\d)\\s*(?:-|to|until|through)\\s*(?:${MONTH}((?:19|20)\\d\\d)|(present|current|now|date|today))`, 'g')

function monthIndex(name: string | undefined, numeric: string | undefined, fallback: number): number {
	if (name) return MONTHS.indexOf(name.slice(0, 3))
	if (numeric && Number(numeric) >= 1 && Number(numeric) <= 12) return Number(numeric) - 1
	return fallback
}

function yearsStated(norm: string): number[] {
	return [...norm.matchAll(YEARS)].map((m) => Number(m[1]))
}

export function prepareResume(text: string | null, now: Date): PreparedResume {
	const texts = (text ?? '')
		.split(/\r?\n|\s[•▪●]\s/)
		.map((raw) => raw.replace(/\s+/g, ' ').trim())
		.filter(Boolean)
	const tokenised = tokenLines(texts)
	const lines: Line[] = tokenised.map((x, i) => ({ text: texts[i]!, tokens: x.tokens }))
	const claimed = { years: 0, line: null as string | null }
	const spans: [number, number][] = []
	let datesLine: string | null = null
	const nowMonth = now.getUTCFullYear() * 12 + now.getUTCMonth()
	for (const [i, line] of lines.entries()) {
		const norm = tokenised[i]!.norm
		if (/experien|career|professional|industry|background/.test(norm))
			for (const n of yearsStated(norm)) if (n > claimed.years && n <= 50) Object.assign(claimed, { years: n, line: line.text })
		for (const m of norm.matchAll(RANGE)) {
			const start = Number(m[3]) * 12 + monthIndex(m[1], m[2], 0)
			const end = m[7] ? nowMonth : Number(m[6]) * 12 + monthIndex(m[4], m[5], 0)
			if (end >= start && end <= nowMonth + 1) {
				spans.push([start, end])
				datesLine ??= line.text
			}
		}
	}
	return { lines, claimed, fromDates: { years: mergedMonths(spans) / 12, line: datesLine } }
}

function mergedMonths(spans: [number, number][]): number {
	let total = 0
	let current: [number, number] | null = null
	for (const [s, e] of spans.sort((a, b) => a[0] - b[0])) {
		if (current && s <= current[1]) current[1] = Math.max(current[1], e)
		else {
			if (current) total += current[1] - current[0]
			current = [s, e]
		}
	}
	return current ? total + current[1] - current[0] : total
}

interface Requirement {
	text: string
	years: number | null
	required: string[]
	optional: string[]
}

const parsed = new Map<string, Requirement>()

/** A requirement's words, versions and years (memoised: jobs share requirements, and parsing runs every synonym pattern). */
export function parseRequirement(text: string): Requirement {
	let r = parsed.get(text)
	if (!r) {
		if (parsed.size >= 10_000) parsed.clear()
		parsed.set(text, (r = parseRequirementNow(text)))
	}
	return r
}

function parseRequirementNow(text: string): Requirement {
	const norm = baseNormalise(text)
	const m = /(\d{1,2})\s*\+?\s*(?:-\s*\d{1,2}\s*\+?\s*)?(?:years?|yrs?)\b/.exec(norm)
	const rest = m ? `${norm.slice(0, m.index)} ${norm.slice(m.index + m[0].length)}` : norm
	const words = tokens(rest).filter((w) => !FILLER.has(w))
	return { text, years: m ? Number(m[1]) : null, required: words.filter((w) => !isVersion(w)), optional: words.filter(isVersion) }
}

const contains = (haystack: string[], needle: string[]) => {
	outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
		for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer
		return true
	}
	return false
}

/** Lines that hold every required word, best first (the exact phrase, then all words in one line, then two adjacent lines). */
function linesWith(resume: PreparedResume, words: string[]): string[] {
	const exact: string[] = []
	const loose: string[] = []
	const { lines } = resume
	for (const line of lines) {
		if (!words.every((w) => line.tokens.includes(w))) continue
		;(contains(line.tokens, words) ? exact : loose).push(line.text)
	}
	if (exact.length || loose.length) return [...exact, ...loose]
	for (let i = 0; i + 1 < lines.length; i++)
		if (words.every((w) => lines[i]!.tokens.includes(w) || lines[i + 1]!.tokens.includes(w))) return [`${lines[i]!.text} / ${lines[i + 1]!.text}`]
	return []
}

const plural = (n: number) => (n === 1 ? 'year' : 'years')
const round1 = (n: number) => Math.floor(n * 10) / 10

function checkOne(resume: PreparedResume, requirement: string): CheckItem {
	const r = parseRequirement(requirement)
	const item = (status: CheckItem['status'], evidence: string | null, note: string | null): CheckItem => ({
		requirement,
		status,
		evidence: evidence ? cutText(evidence, 300) : null,
		note,
	})
	if (r.years !== null && r.required.length === 0) {
		const { claimed, fromDates } = resume
		if (claimed.years >= r.years) return item('met', claimed.line, `states ${claimed.years} ${plural(claimed.years)}; ${r.years}+ needed`)
		if (fromDates.years >= r.years)
			return item('met', fromDates.line, `work history dates add up to about ${round1(fromDates.years)} years; ${r.years}+ needed`)
		const best = Math.max(claimed.years, fromDates.years)
		if (best > 0)
			return item('not_found', claimed.years >= fromDates.years ? claimed.line : fromDates.line, `about ${round1(best)} years found; ${r.years}+ needed`)
		return item('not_found', null, `no total experience stated and no dated work history; ${r.years}+ years needed`)
	}
	if (r.required.length === 0) return item('not_found', null, 'the requirement names no skill that can be checked')
	const found = linesWith(resume, r.required)
	if (!found.length) return item('not_found', null, 'not mentioned in the résumé')
	if (r.years !== null) {
		let best: { years: number; line: string } | null = null
		for (const line of found) for (const n of yearsStated(baseNormalise(line))) if (!best || n > best.years) best = { years: n, line }
		if (best && best.years >= r.years) return item('met', best.line, `states ${best.years} ${plural(best.years)}; ${r.years}+ needed`)
		if (best) return item('not_found', best.line, `states ${best.years} ${plural(best.years)}; ${r.years}+ needed`)
		return item('not_found', found[0]!, `mentioned, but without the number of years; ${r.years}+ needed`)
	}
	if (r.optional.length) {
		const withVersion = found.find((line) => r.optional.every((v) => tokens(line).includes(v)))
		if (withVersion) return item('met', withVersion, null)
		return item('met', found[0]!, `version ${r.optional.join(' ')} not stated`)
	}
	return item('met', found[0]!, null)
}

/** Each requirement against a prepared résumé. */
export function checkItems(resume: PreparedResume, requirements: readonly string[]): CheckItem[] {
	return requirements.map((r) => checkOne(resume, r))
}

/** The full check of a résumé text against a job's must-haves. */
export function checkResume(text: string | null, mustHaves: readonly string[], now: Date): ResumeCheck {
	const items = checkItems(prepareResume(text, now), mustHaves)
	const met = items.filter((i) => i.status === 'met').length
	return {
		version: RESUME_CHECK_VERSION,
		mustHaves: [...mustHaves],
		resumeHash: resumeHash(text),
		items,
		met,
		total: items.length,
		score: items.length ? Math.round((100 * met) / items.length) : null,
		checkedAt: now.toISOString(),
	}
}

/** True when a stored check no longer matches the job's must-haves, the résumé or the method. */
export function isStale(check: unknown, mustHaves: readonly string[], text: string | null): boolean {
	const c = check as Partial<ResumeCheck> | null
	if (!c || c.version !== RESUME_CHECK_VERSION || !Array.isArray(c.mustHaves)) return true
	if (c.mustHaves.length !== mustHaves.length || c.mustHaves.some((m, i) => m !== mustHaves[i])) return true
	return c.resumeHash !== resumeHash(text)
}
