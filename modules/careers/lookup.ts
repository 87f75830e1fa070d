/** The careers site's rule for a public job address: Draft jobs and unknown addresses do not exist. */
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { findWorkspace, type Workspace } from '../auth/index.ts'
import { findJobBySlug, type PublicJob } from '../jobs/index.ts'

const SLUG = /^[a-z0-9-]{1,80}$/

export async function workspaceOr404(deps: AppDeps, slug: string): Promise<Workspace> {
	const ws = SLUG.test(slug) ? await findWorkspace(deps.db, slug) : null
	if (!ws) throw new AppError('NOT_FOUND', 'There is no careers site at this address.')
	return ws
}

/** The job at `/careers/<workspace>/jobs/<slug>` (Open or Closed; the caller shows a closed job as gone). */
export async function publicJobAt(deps: AppDeps, workspaceSlug: string, slug: string): Promise<{ ws: Workspace; job: PublicJob }> {
	const ws = await workspaceOr404(deps, workspaceSlug)
	const job = SLUG.test(slug) ? await findJobBySlug(deps, ws.id, slug) : null
	if (!job || job.status === 'Draft') throw new AppError('NOT_FOUND', 'There is no job at this address.')
	return { ws, job }
}
