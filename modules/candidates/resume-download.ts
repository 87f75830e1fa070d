/**
 * The stored résumé file, for the candidate page (shown inline when it is a PDF, downloadable).
 *
 * Rules:
 * - Only people who may see the candidate's contact details get the file (owners, admins,
 *   recruiters: `candidates:contact`): a résumé file carries the e-mail address and phone number,
 *   which cannot be blanked inside a PDF or Word file the way `get_candidate` blanks them in the
 *   text. Hiring managers read the text with contact details hidden; the file is a 404 for them.
 * - Its address is not guessable from the candidate's id (`fileReference`), and stops working when
 *   the résumé is replaced. A résumé sent with an application (the candidate was on file with
 *   another one) is served at an address of the same form.
 * - Anyone else, a candidate out of reach, a wrong reference, a missing file: 404, alike.
 */
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { fileStore } from '../../core/files.ts'
import { fileReference, isFileReference, type StoredFile } from '../../core/http/file-response.ts'
import { applicationResumeFilesOf, resumeFileOf } from './public.ts'
import { seesContact } from './reach.ts'

const noFile = () => new AppError('NOT_FOUND', 'No résumé file here')

/** The address of the candidate's résumé file, or null when there is none or the person may not have it. */
export async function resumeAddress(deps: AppDeps, actor: Actor, candidateId: string): Promise<string | null> {
	if (!seesContact(deps, actor)) return null
	const file = await resumeFileOf(deps, actor, candidateId)
	return file ? `/candidates/${encodeURIComponent(candidateId)}/resume/${fileReference(deps.secret, file.key)}` : null
}

/** The address of the résumé an application came with, or null when it came with none of its own or the person may not have it. */
export async function applicationResumeAddress(
	deps: AppDeps,
	actor: Actor,
	candidateId: string,
	applicationId: string,
): Promise<{ href: string; fileName: string } | null> {
	if (!seesContact(deps, actor)) return null
	const file = (await applicationResumeFilesOf(deps, actor, candidateId)).find((f) => f.applicationId === applicationId)
	return file ? { href: `/candidates/${encodeURIComponent(candidateId)}/resume/${fileReference(deps.secret, file.key)}`, fileName: file.fileName } : null
}

/** The résumé file behind an address made by `resumeAddress` or `applicationResumeAddress`; 404 in every other case. */
export async function resumeDownload(deps: AppDeps, actor: Actor, candidateId: string, reference: string): Promise<StoredFile> {
	if (!seesContact(deps, actor)) throw noFile()
	const onFile = await resumeFileOf(deps, actor, candidateId)
	const file =
		onFile && isFileReference(deps.secret, onFile.key, reference)
			? onFile
			: (await applicationResumeFilesOf(deps, actor, candidateId)).find((f) => isFileReference(deps.secret, f.key, reference))
	if (!file) throw noFile()
	const bytes = await fileStore(deps.config).get(file.key)
	if (!bytes) throw noFile()
	return { bytes, contentType: file.contentType, fileName: file.fileName }
}
