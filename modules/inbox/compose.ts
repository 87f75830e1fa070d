/**
 * New message: a conversation started from the portal (a candidate's page, an application, a
 * vendor's page, the inbox), by e-mail or text message, optionally from a template.
 *
 * Rules:
 * - People who read the inbox (owners, admins, recruiters) write to a candidate they can see or to
 *   a vendor of the workspace; the channels offered are those the contact details allow (an e-mail
 *   address; a phone number a message can go to). Without a messaging provider a text is recorded
 *   as not sent, with the reason, as other texts are.
 * - Merge fields are filled in from the record at the moment of sending (the candidate, the job of
 *   the application the message is about, the vendor, the sender): a field without a value, or an
 *   unknown one, refuses the message and names the field. Nothing is sent half-filled.
 * - The subject is one line (a mail header): its merge fields are filled with each value on one line
 *   (a two-line signature, a job title sent with a line break), and the filled subject is checked
 *   again (1 to 200 characters), refused on its field, never a failure of the outbox.
 * - A message from a marketing template (a job alert) goes by e-mail to a candidate only, with the
 *   unsubscribe headers (the outbox), and is not sent to someone who unsubscribed.
 * - The same message again moments later (a double click on Send, a bulk send run twice) is the one
 *   already sent: nothing is sent again (`repeated-send.ts`).
 * - It goes out through the outbox like a reply (the firm's footer added there) and is in the
 *   counterpart's conversation at once; the activity log records who wrote to whom (not the text).
 */
import { sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { Db } from '../../db/client.ts'
import { AppError, invalid, type FieldError } from '../../core/errors.ts'
import { cleanLine, cleanText, textOf } from '../../core/untrusted.ts'
import { recordActivity } from '../activity/index.ts'
import { candidatePartiesById, reachableApplication, requireCandidate } from '../candidates/index.ts'
import { enqueueMail, enqueueMessage, messagingConfigured, NO_PROVIDER, toE164 } from '../outbox/index.ts'
import { fieldProblems, fillIn, fillInLine, getTemplate, mergeValues, type Template } from '../templates/index.ts'
import { getVendor } from '../vendors/index.ts'
import { inboxStates } from './table.ts'
import { repeatedSend } from './repeated-send.ts'
import { appendMessage, normalizeAddress, threadClock, threadFor, type Counterpart } from './threads.ts'

export const MAX_EMAIL_BODY = 20_000
/** Room is left for the firm's text footer (at most 160) under the 1,600 a provider takes. */
export const MAX_TEXT_BODY = 1400
export type ComposeChannel = 'email' | 'text'

/** Whom a new message is for and about: a candidate (optionally one of their applications), or a vendor. */
export interface ComposeTarget {
	candidateId?: string
	applicationId?: string
	vendorId?: string
}

/** The person written to, with the channels their contact details allow. */
export interface Recipient {
	kind: 'candidate' | 'vendor'
	id: string
	name: string
	email: string | null
	/** The phone number as E.164, when a message can go to it. */
	phone: string | null
	/** The application the message is about (its job fills the job's merge fields). */
	applicationId: string | null
}

const person = (actor: Actor) => {
	if (!actor.userId) throw new AppError('FORBIDDEN', 'Messages are written by people')
	return actor.userId
}

/** The recipient of a new message, within the person's reach (out of reach or absent: NOT_FOUND). */
export async function recipientOf(deps: AppDeps, actor: Actor, target: ComposeTarget): Promise<Recipient> {
	person(actor)
	if (target.vendorId && !target.candidateId && !target.applicationId) {
		const vendor = await getVendor(deps, actor, target.vendorId)
		const phone = vendor.contact.phone ? toE164(vendor.contact.phone) : null
		return { kind: 'vendor', id: vendor.id, name: vendor.name, email: vendor.contact.email, phone, applicationId: null }
	}
	let candidateId = target.candidateId
	let applicationId: string | null = null
	if (target.applicationId) {
		const application = await reachableApplication(deps, actor, { applicationId: target.applicationId })
		if (!application || (candidateId && application.candidateId !== candidateId)) throw new AppError('NOT_FOUND', 'No application with this id')
		candidateId = application.candidateId
		applicationId = application.id
	}
	if (!candidateId) throw new AppError('NOT_FOUND', 'Choose whom to write to: a candidate or a vendor')
	await requireCandidate(deps, actor, candidateId)
	const party = (await candidatePartiesById(deps, actor.workspaceId, [candidateId])).get(candidateId)!
	return { kind: 'candidate', id: party.id, name: party.name, email: party.email || null, phone: party.phone ? toE164(party.phone) : null, applicationId }
}

export const channelsOf = (r: Recipient): ComposeChannel[] => [...(r.email ? (['email'] as const) : []), ...(r.phone ? (['text'] as const) : [])]

export interface ComposeInput extends ComposeTarget {
	channel: string
	subject: string
	body: string
	/** The template it was started from (decides whether it is a marketing message). */
	templateId?: string
}

/** What a template gives a new message: its channel, and its subject and body filled in for the record (missing fields named). */
export async function startFromTemplate(deps: AppDeps, actor: Actor, recipient: Recipient, template: Template) {
	// The form's text is filled in again when sent: no value may make a field there (`inert`).
	const values = await mergeValues(deps, actor, recipientRecord(recipient))
	const subject = template.subject === null ? null : fillInLine(template.subject, values, { inert: true })
	const body = fillIn(template.body, values, { inert: true })
	return { channel: template.channel, subject: subject?.text ?? '', body: body.text, missing: [...new Set([...(subject?.missing ?? []), ...body.missing])] }
}

const recipientRecord = (r: Recipient) =>
	r.kind === 'vendor' ? { vendorId: r.id } : { candidateId: r.id, ...(r.applicationId ? { applicationId: r.applicationId } : {}) }
const length = (s: string) => [...s].length

/** A new message checked: its channel, and its subject and body filled in for the recipient. */
interface Draft {
	channel: ComposeChannel
	subject: string
	body: string
	marketing: boolean
	templateId: string | null
}

/** Validate: the channel the contact details and the template allow, the lengths, and every merge field filled (each problem by field). */
async function checkDraft(deps: AppDeps, actor: Actor, recipient: Recipient, input: ComposeInput, template: Template | null): Promise<Draft> {
	const channels = channelsOf(recipient)
	const problems: FieldError[] = []
	const channel = input.channel === 'email' || input.channel === 'text' ? input.channel : null
	if (!channel || !channels.includes(channel))
		problems.push({
			field: 'channel',
			message: channels.length
				? `must be ${channels.map((c) => (c === 'email' ? 'e-mail' : 'text message')).join(' or ')}: the ${recipient.kind}’s contact details allow no other`
				: `cannot be chosen: the ${recipient.kind} has no e-mail address or phone number on file`,
		})
	const marketing = template?.kind === 'marketing'
	if (template && channel && template.channel !== channel)
		problems.push({ field: 'channel', message: 'must be the channel of the template it was started from' })
	if (marketing && recipient.kind !== 'candidate')
		problems.push({ field: 'body', message: 'comes from a job alert template: job alerts go to candidates only' })
	const values = await mergeValues(deps, actor, recipientRecord(recipient))
	const subjectText = cleanLine(input.subject, 1000)
	const bodyText = cleanText(input.body).replace(/\r\n?/g, '\n').trim()
	if (channel === 'email') {
		if (length(subjectText) < 1 || length(subjectText) > 200) problems.push({ field: 'subject', message: 'must be 1 to 200 characters' })
		else for (const p of fieldProblems(subjectText)) problems.push({ field: 'subject', message: p })
	}
	const max = channel === 'text' ? MAX_TEXT_BODY : MAX_EMAIL_BODY
	if (length(bodyText) < 1 || length(bodyText) > max) problems.push({ field: 'body', message: `must be 1 to ${max.toLocaleString('en-US')} characters` })
	else for (const p of fieldProblems(bodyText)) problems.push({ field: 'body', message: p })
	// The subject is a mail header: filled with each value on one line, then checked again as sent.
	const subject = fillInLine(channel === 'email' ? subjectText : '', values)
	const body = fillIn(bodyText, values)
	for (const [field, missing] of [
		['subject', subject.missing],
		['body', body.missing],
	] as const)
		if (missing.length) problems.push({ field, message: missingFields(recipient, missing) })
	if (channel === 'email' && !problems.some((p) => p.field === 'subject')) {
		const filled = length(subject.text)
		if (/[\r\n]/.test(subject.text) || filled < 1 || filled > 200)
			problems.push({ field: 'subject', message: `must be 1 to 200 characters on one line once its merge fields are filled in (it would be ${filled})` })
	}
	if (problems.length) throw invalid(problems, 'The message was not sent')
	return { channel: channel!, subject: subject.text, body: body.text, marketing, templateId: template?.id ?? null }
}

const missingFields = (recipient: Recipient, missing: readonly string[]) =>
	`has merge fields without a value for this ${recipient.kind}: ${missing.map((f) => `{{${f}}}`).join(', ')}${missing.some((f) => f.startsWith('job.')) ? ' (choose the application the message is about)' : ''}${missing.includes('recruiter.signature') ? ' (set your signature on your profile page)' : ''}`

/** Notify: the e-mail or text message through the outbox. */
async function enqueueDraft(tx: Db, deps: AppDeps, actor: Actor, recipient: Recipient, draft: Draft, to: string, related: { type: string; id: string }) {
	const common = { workspaceId: actor.workspaceId, to, text: draft.body, related, recipient: { type: recipient.kind, id: recipient.id } }
	const sent: { id: string; status: string; messageId?: string } =
		draft.channel === 'email'
			? await enqueueMail(tx, { ...common, subject: draft.subject, marketing: draft.marketing }, deps)
			: await enqueueMessage(tx, { ...common, notSent: messagingConfigured(deps) ? undefined : NO_PROVIDER }, deps)
	return sent
}

/** Write: the counterpart's conversation with the message in it (read by its writer), and the activity line (not the text). */
async function sendDraft(tx: Db, deps: AppDeps, actor: Actor, userId: string, recipient: Recipient, draft: Draft): Promise<Sent> {
	const { channel } = draft
	const related = recipient.applicationId ? { type: 'application', id: recipient.applicationId } : { type: recipient.kind, id: recipient.id }
	const to = channel === 'email' ? recipient.email! : recipient.phone!
	const counterpart: Counterpart = {
		key: `${recipient.kind}:${recipient.id}`,
		type: recipient.kind,
		candidateId: recipient.kind === 'candidate' ? recipient.id : null,
		vendorId: recipient.kind === 'vendor' ? recipient.id : null,
		name: recipient.name,
		address: normalizeAddress(to),
	}
	const at = await threadClock(deps, tx)
	const subject = channel === 'email' ? draft.subject : null
	const repeated = await repeatedSend(deps, tx, {
		workspaceId: actor.workspaceId,
		counterpartKey: counterpart.key,
		userId,
		channel: channel === 'email' ? 'email' : 'message',
		to,
		subject,
		text: draft.body,
		at,
	})
	if (repeated) return { threadId: repeated.threadId, outboxId: repeated.outboxId, status: 'repeated', repeated: true }
	const sent = await enqueueDraft(tx, deps, actor, recipient, draft, to, related)
	const threadId = await threadFor(tx, actor.workspaceId, counterpart, channel === 'email' ? draft.subject : 'Text messages', at)
	// The copy in the thread is what was written; the footer the outbox added is in the sent row.
	await appendMessage(tx, {
		workspaceId: actor.workspaceId,
		threadId,
		direction: 'out',
		channel: channel === 'email' ? 'email' : 'message',
		from: deps.config.mailFrom,
		to,
		subject,
		text: draft.body,
		messageId: sent.messageId ?? null,
		outboxId: sent.id,
		related,
		sentByUserId: userId,
		at,
	})
	await tx
		.insert(inboxStates)
		.values({ threadId, userId, readAt: at })
		.onConflictDoUpdate({
			target: [inboxStates.threadId, inboxStates.userId],
			set: { readAt: sql`greatest(${inboxStates.readAt}, ${at.toISOString()}::timestamptz)` },
		})
	await recordActivity(tx, actor, {
		action: 'inbox.message_sent',
		targetType: recipient.kind,
		targetId: recipient.id,
		detail: { threadId, outboxId: sent.id, channel, templateId: draft.templateId, marketing: draft.marketing },
	})
	return { threadId, outboxId: sent.id, status: sent.status, repeated: false }
}

/** What sending did: the conversation, and whether this was the same message again moments later (`repeated`: nothing sent, `repeated-send.ts`). */
export interface Sent {
	threadId: string
	outboxId: string
	/** The outbox's status of the message sent, or `repeated`. */
	status: string
	repeated: boolean
}

/** Sends a new message; returns the conversation it is in. */
export async function composeMessage(deps: AppDeps, actor: Actor, input: ComposeInput): Promise<Sent> {
	const userId = person(actor)
	const recipient = await recipientOf(deps, actor, input)
	const template = input.templateId ? await getTemplate(deps, actor, input.templateId) : null
	const draft = await checkDraft(deps, actor, recipient, input, template)
	return deps.db.transaction((tx) => sendDraft(tx, deps, actor, userId, recipient, draft))
}

/** The recipient's name for a page (a candidate's or vendor's own words: shown escaped, never to a model from here). */
export const recipientLabel = (r: Recipient) => `${textOf(r.name)} (${r.kind})`
