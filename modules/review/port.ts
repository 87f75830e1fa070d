/**
 * The review-source port: other modules contribute reasons a candidate needs a person's attention
 * (`contribute(reviewSources, …)`, requiring this module); `get_review_queue` merges them, oldest first.
 */
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { definePort, type SourcePosition } from '../../core/module.ts'

/** One entry of the review queue: a candidate needing a person's attention, and why. */
export interface ReviewItem {
	/** The source's `type`, e.g. `interview_completed`. */
	readonly type: string
	/** Id of the record behind the entry (unique within the type), e.g. the interview id. */
	readonly id: string
	/** Since when it waits; the queue is oldest first. */
	readonly at: Date
	readonly candidateId: string
	readonly jobId: string | null
	readonly applicationId: string | null
	/**
	 * One plain sentence saying why, e.g. "Completed the AI video interview (score 82)." It is ours:
	 * it never quotes what others wrote (the candidate and the job are shown beside it, labelled).
	 */
	readonly reason: string
}

/** Contributes review-queue entries: those for `actor`, after `after`, ascending by `(at, id)`, at most `limit`. */
export interface ReviewSource {
	readonly type: string
	items(deps: AppDeps, actor: Actor, options: { after?: SourcePosition; limit: number }): Promise<ReviewItem[]>
}

export const reviewSources = definePort<ReviewSource>(
	'review:source',
	'Reasons a candidate needs a person’s attention, merged by get_review_queue (oldest first)',
)
