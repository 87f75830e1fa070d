/**
 * Send message to several people at once from a template (issues 31 and 32); the controls and the
 * route that posts here are in `bulk-send.ts`.
 *
 * Rules:
 * - More than `BULK_LIMIT` records sends nothing and says so (core/bulk.ts); so does a template the
 *   person cannot use, or no record ticked. The same id ticked twice counts once.
 * - Each record goes through `composeMessage` with the template's channel, subject and body: merge
 *   fields are filled for that record (an application's job fills the job's), the message joins
 *   their conversation and is one activity line.
 * - One message per person: a candidate ticked with one of their applications (or two of their
 *   applications) is written to once, for the first record whose message is sent; applications come
 *   first, so the message that goes is the one whose job fills the job's fields. The others are
 *   reported unchanged. A record refused (or failing) sends nothing, so the person's next record is
 *   tried: it may fill what that one could not (an open job's `{{job.url}}`), or be refused with its reason.
 * - The same message to the same person moments after it was sent (the form sent twice) is not sent
 *   again (`repeated-send.ts`): that record is reported unchanged.
 * - A record the template cannot be filled for (a field without a value), whose contact details do
 *   not allow the template's channel, or out of reach is reported refused with the reason, and the
 *   others go on; so is one that fails unexpectedly (logged, `runBulk`).
 */
import type { Actor } from '../../core/actor.ts'
import { overBulkLimit, runBulk, type BulkLine } from '../../core/bulk.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { getTemplate, type Template } from '../templates/index.ts'
import { composeMessage, recipientOf, type ComposeTarget } from './compose.ts'

export interface BulkSendInput {
	templateId: string
	applicationIds: readonly string[]
	candidateIds: readonly string[]
}

/** One record's message, written once per person (see the rules above). */
const sendOnce = (deps: AppDeps, actor: Actor, template: Template) => {
	const written = new Set<string>()
	return async (target: ComposeTarget, record: { name: string }): Promise<Omit<BulkLine, 'name'>> => {
		const recipient = await recipientOf(deps, actor, target)
		record.name = recipient.name.slice(0, 80) || record.name
		if (written.has(recipient.id)) return { result: 'unchanged', note: 'Already sent this message: one message per person.' }
		const sent = await composeMessage(deps, actor, {
			...target,
			channel: template.channel,
			subject: template.subject ?? '',
			body: template.body,
			templateId: template.id,
		})
		// Only once it went: runBulk takes the records one after another, so none is in between.
		written.add(recipient.id)
		// The same action sent again moments later (a double click, the form sent twice) sends nothing more.
		return sent.repeated ? { result: 'unchanged', note: 'Already sent this message moments ago: not sent again.' } : { result: 'done' }
	}
}

/** A refusal in words: an absent record and one out of reach read the same. */
const refusal = (error: AppError) => {
	if (error.code === 'NOT_FOUND') return 'Not found, or not yours to write to.'
	const why = error.fields?.length ? error.fields.map((f) => `${f.field} ${f.message}`).join('; ') : error.message
	return `${why}.`
}

/** The template's message to each ticked record: what was asked (for the report's heading) and each record's line. */
export async function bulkSendMessage(deps: AppDeps, actor: Actor, input: BulkSendInput): Promise<{ action: string; lines: BulkLine[] }> {
	const targets: ComposeTarget[] = [
		...[...new Set(input.applicationIds)].map((applicationId) => ({ applicationId })),
		...[...new Set(input.candidateIds)].map((candidateId) => ({ candidateId })),
	]
	const tooMany = overBulkLimit(targets.length, 'records')
	let template: Template | null = null
	try {
		template = await getTemplate(deps, actor, input.templateId)
	} catch (error) {
		// A template that is not there or not theirs is "choose a template", not a failure.
		if (!(error instanceof AppError) || error.status >= 500) throw error
	}
	if (tooMany) return { action: `Nothing sent: ${tooMany}`, lines: [] }
	if (!template) return { action: 'Nothing sent: choose a template', lines: [] }
	if (!targets.length) return { action: 'Nothing sent: tick at least one', lines: [] }
	const lines = await runBulk(deps, targets, { action: 'inbox.bulk-send', name: () => 'A candidate', step: sendOnce(deps, actor, template), refusal })
	return { action: `Send “${template.name}”`, lines }
}
