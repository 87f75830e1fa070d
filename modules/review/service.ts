/**
 * The review queue: candidates needing the person's attention, with the reason, oldest first.
 * Modules contribute the reasons (the `reviewSources` port, port.ts): new applications on the person's jobs (this
 * module), completed AI interviews (interviews), replies waiting (inbox), documents received
 * (documents, when it contributes). An entry leaves the queue when its cause is dealt with (the
 * application moves on, the result or the reply is read). Candidates out of the person's reach
 * never appear, whatever a source returns.
 */
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { fetchSize, oneOf, pageOf, readCursor, TEXT, TIME } from '../../core/paging.ts'
import { untrustedLine } from '../../core/untrusted.ts'
import { contributionsTo } from '../../core/registry.ts'
import { compareMerged, sourcePosition, type MergedPosition } from '../../core/source-merge.ts'
import { candidateCards, waitingApplications } from '../candidates/index.ts'
import { jobLabels, reachableJobIds, teamJobIds } from '../jobs/index.ts'
import { reviewSources, type ReviewItem, type ReviewSource } from './port.ts'

/** Applications still in the first stage on jobs of the person's hiring teams. */
export const newApplicationsSource: ReviewSource = {
	type: 'new_application',
	async items(deps, actor, options) {
		if (!actor.userId) return []
		const reach = await reachableJobIds(deps, actor)
		const jobIds = (await teamJobIds(deps, actor.workspaceId, actor.userId)).filter((id) => reach === 'all' || reach.includes(id))
		const apps = await waitingApplications(deps, actor.workspaceId, { jobIds, after: options.after, limit: options.limit })
		return apps.map((a) => ({
			type: 'new_application',
			id: a.id,
			at: a.createdAt,
			candidateId: a.candidateId,
			jobId: a.jobId,
			applicationId: a.id,
			reason: 'Applied for one of your jobs and is still in the first stage: screen the application.',
		}))
	},
}

const position = (i: ReviewItem): MergedPosition => ({ at: i.at, type: i.type, id: i.id })

export async function reviewQueue(deps: AppDeps, actor: Actor, input: { limit: number; cursor?: string }) {
	if (!actor.userId) throw new AppError('FORBIDDEN', 'The review queue belongs to a person')
	const scope = `get_review_queue:${actor.userId}`
	const sources = contributionsTo(deps.registry, reviewSources)
	// The cursor names the type by its place among the source types (keeps it within 64 characters).
	const types = [...new Set(sources.map((s) => s.type))].sort()
	const codecs = [TIME, oneOf(types), TEXT] as const
	const cursor = input.cursor ? readCursor(deps.secret, scope, input.cursor, codecs) : undefined
	const after: MergedPosition | undefined = cursor && { at: cursor[0], type: cursor[1], id: cursor[2] }
	const lists = await Promise.all(
		sources.map((s) =>
			s.items(deps, actor, { after: sourcePosition(after, s.type), limit: fetchSize(input.limit) }).catch((error) => {
				// One failing source must not hide everything else the person has to review.
				deps.log.error('review source failed', { type: s.type, error })
				return [] as ReviewItem[]
			}),
		),
	)
	const merged = lists.flat().sort((a, b) => compareMerged(position(a), position(b)))
	const { page, nextCursor } = pageOf(deps.secret, scope, merged, input.limit, (last) => [codecs[0].write(last.at), codecs[1].write(last.type), last.id])
	const [cards, titles] = await Promise.all([
		candidateCards(deps, actor, [...new Set(page.map((i) => i.candidateId))]),
		jobLabels(deps, actor, [...new Set(page.map((i) => i.jobId).filter((x): x is string => Boolean(x)))]),
	])
	return {
		items: page
			.filter((i) => cards.has(i.candidateId))
			.map((i) => {
				const c = cards.get(i.candidateId)!
				return {
					type: i.type,
					recordId: i.id,
					since: i.at.toISOString(),
					reason: i.reason,
					candidate: { id: c.id, name: c.name, headline: c.headline },
					job: i.jobId ? { id: i.jobId, title: titles.get(i.jobId) ?? untrustedLine('', 'colleague') } : null,
					applicationId: i.applicationId,
				}
			}),
		nextCursor,
	}
}
