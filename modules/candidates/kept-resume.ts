/**
 * Keeping an applicant's résumé while the apply form comes back for other fields: the person fixes
 * their phone number without finding the file again (on a phone that is the worst part). The form
 * carries a random token; only its SHA-256 is stored, bound to the workspace, for one hour. The
 * file is only ever used again by the same form post that carries the token, and it is read (for
 * its text) only when the application is sent, exactly as a freshly chosen file would be.
 */
import { and, eq, gt, lte } from 'drizzle-orm'
import { hashSecret, randomToken } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { fileStore } from '../../core/files.ts'
import { cleanFileName } from '../../core/file-name.ts'
import { detectResumeType, RESUME_MIME } from './resume-file.ts'
import { keptResumes } from './table.ts'
import { runEvery } from '../../core/every.ts'

const KEEP_MS = 60 * 60_000

export interface KeptResume {
	bytes: Uint8Array
	fileName: string
}

/** Keeps a résumé of a recognised type; returns the token the form carries, or null for other files. */
export async function keepResume(deps: AppDeps, workspaceId: string, resume: KeptResume): Promise<string | null> {
	const type = detectResumeType(resume.bytes)
	if (!type) return null
	await forgetExpired(deps)
	const token = randomToken()
	const fileKey = `kept-resumes/${workspaceId}/${randomToken(16)}.${type}`
	await fileStore(deps.config).put(fileKey, resume.bytes, RESUME_MIME[type])
	await deps.db.insert(keptResumes).values({
		id: hashSecret(token),
		workspaceId,
		fileKey,
		fileName: cleanFileName(resume.fileName, `resume.${type}`, 160),
		expiresAt: new Date(deps.now().getTime() + KEEP_MS),
	})
	return token
}

/** The kept résumé behind a token, if it is this workspace's and not expired. */
export async function keptResume(deps: AppDeps, workspaceId: string, token: string): Promise<KeptResume | null> {
	if (!/^[a-z2-7]{32}$/.test(token)) return null
	const [row] = await deps.db
		.select({ fileKey: keptResumes.fileKey, fileName: keptResumes.fileName })
		.from(keptResumes)
		.where(and(eq(keptResumes.id, hashSecret(token)), eq(keptResumes.workspaceId, workspaceId), gt(keptResumes.expiresAt, deps.now())))
	if (!row) return null
	const bytes = await fileStore(deps.config).get(row.fileKey)
	return bytes ? { bytes, fileName: row.fileName } : null
}

/** Forgets a kept résumé once its application is sent (the application stores its own copy). */
export async function forgetKeptResume(deps: AppDeps, token: string): Promise<void> {
	const gone = await deps.db
		.delete(keptResumes)
		.where(eq(keptResumes.id, hashSecret(token)))
		.returning({ fileKey: keptResumes.fileKey })
	for (const g of gone)
		await fileStore(deps.config)
			.delete(g.fileKey)
			.catch(() => {})
}

/** Drops kept résumés past their hour (a few at a time, whenever a new one is kept); returns how many. */
async function forgetExpired(deps: AppDeps, batch = 20): Promise<number> {
	const expired = await deps.db.select({ id: keptResumes.id }).from(keptResumes).where(lte(keptResumes.expiresAt, deps.now())).limit(batch)
	for (const e of expired) {
		const gone = await deps.db.delete(keptResumes).where(eq(keptResumes.id, e.id)).returning({ fileKey: keptResumes.fileKey })
		for (const g of gone)
			await fileStore(deps.config)
				.delete(g.fileKey)
				.catch(() => {})
	}
	return expired.length
}

/**
 * Every expired kept résumé, in batches. A form left with an error and never sent again keeps
 * someone's file: it must not wait for the next applicant to be deleted (a quiet careers site
 * would keep it for weeks), so the candidates module runs this every few minutes.
 */
export async function forgetExpiredKeptResumes(deps: AppDeps): Promise<number> {
	let total = 0
	for (let n = await forgetExpired(deps, 200); n > 0; n = await forgetExpired(deps, 200)) total += n
	return total
}

/** How often expired kept résumés are looked for: a file is kept at most this long past its hour. */
const KEPT_RESUME_SWEEP_MS = 10 * 60_000

/** Sweeps expired kept résumés every `KEPT_RESUME_SWEEP_MS` (the candidates module's start); returns the stop function. */
export function startKeptResumeSweep(deps: AppDeps): () => Promise<void> {
	return runEvery(deps.log, { everyMs: KEPT_RESUME_SWEEP_MS, failure: 'expired kept résumés could not be deleted' }, () => forgetExpiredKeptResumes(deps))
}
