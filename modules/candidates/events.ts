/** The events about candidates and applications (read by webhooks and notifications). */
import { Type as T } from '@sinclair/typebox'
import { defineEvent } from '../events/index.ts'

/** A pipeline stage key (e.g. `screening`): a key of the workspace's own list, never free text. */
const stageKey = T.String({ 'x-key': true })

export const candidateCreated = defineEvent({
	type: 'candidate.created',
	description: 'A new candidate was added to the workspace (today: their first application on the careers site)',
	data: T.Object({ candidateId: T.String() }),
})

export const applicationCreated = defineEvent({
	type: 'application.created',
	description: 'A candidate applied for a job',
	data: T.Object({
		applicationId: T.String(),
		candidateId: T.String(),
		jobId: T.String(),
		/** The pipeline stage it starts in (a stage key: the workspace's own list, not free text). */
		stage: stageKey,
	}),
})

export const applicationStageChanged = defineEvent({
	type: 'application.stage_changed',
	description: 'An application moved from one pipeline stage to another',
	data: T.Object({ applicationId: T.String(), candidateId: T.String(), jobId: T.String(), from: stageKey, to: stageKey }),
})

export const candidateErased = defineEvent({
	type: 'candidate.erased',
	description: 'A candidate’s data was erased (their request, or the workspace’s retention rule): forget every copy of it',
	data: T.Object({ candidateId: T.String(), applicationIds: T.Array(T.String()) }),
})

export const CANDIDATE_EVENTS = [candidateCreated, applicationCreated, applicationStageChanged, candidateErased] as const
