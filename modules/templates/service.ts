/**
 * Message templates, the firm's footer and people's signatures.
 *
 * Rules:
 * - People with `templates:use` (owners, admins, recruiters) see the shared templates and their own,
 *   make their own and change or delete only those; owners and admins (`templates:share`) also make,
 *   change and delete the shared ones, and set the firm's footer.
 * - A template has a name (1–100 characters, unique among the shared ones and among each person's
 *   own, any case), a channel (e-mail or text message), a kind (transactional, or marketing for a
 *   job alert: e-mail only, since a text carries no unsubscribe link), a subject for e-mail (1–200)
 *   and a body (1–10,000 characters; a text at most 1,600). Merge fields must be known (fields.ts).
 * - The footer is added by the outbox to everything sent to a candidate; without one set, the
 *   firm's name and careers site address (e-mail) or its name (text).
 * - Every change is in the activity log.
 */
import { and, asc, eq, isNull, or, sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, invalid, type FieldError } from '../../core/errors.ts'
import { cleanLine, cleanText, typedLine } from '../../core/untrusted.ts'
import type { Db } from '../../db/client.ts'
import { recordActivity } from '../activity/index.ts'
import { workspacesById } from '../auth/index.ts'
import { fieldProblems } from './fields.ts'
import { messageFooters, messageSignatures, messageTemplates } from './table.ts'

export const USE = 'templates:use'
export const SHARE = 'templates:share'
export const CHANNELS = ['email', 'text'] as const
export const KINDS = ['transactional', 'marketing'] as const
export type TemplateChannel = (typeof CHANNELS)[number]
export type TemplateKind = (typeof KINDS)[number]
export const MAX_BODY = 10_000
export const MAX_TEXT_BODY = 1600
export const MAX_FOOTER = 1000
export const MAX_TEXT_FOOTER = 160
export const MAX_SIGNATURE = 1000

export interface Template {
	id: string
	name: string
	channel: TemplateChannel
	kind: TemplateKind
	subject: string | null
	body: string
	shared: boolean
	/** The person may change and delete it. */
	editable: boolean
	updatedAt: Date
}

export interface TemplateInput {
	name: string
	channel: string
	kind: string
	subject: string
	body: string
	shared: boolean
}

const person = (actor: Actor) => {
	if (!actor.userId) throw new AppError('FORBIDDEN', 'Templates belong to people')
	return actor.userId
}
const notFound = () => new AppError('NOT_FOUND', 'No template with this id')
const mayShare = (deps: AppDeps, actor: Actor) => deps.permissions.can(actor, SHARE)
const length = (s: string) => [...s].length

const columns = {
	id: messageTemplates.id,
	name: messageTemplates.name,
	channel: messageTemplates.channel,
	kind: messageTemplates.kind,
	subject: messageTemplates.subject,
	body: messageTemplates.body,
	ownerUserId: messageTemplates.ownerUserId,
	updatedAt: messageTemplates.updatedAt,
}
type Row = { [K in keyof typeof columns]: (typeof columns)[K]['_']['data'] | ((typeof columns)[K]['_']['notNull'] extends true ? never : null) }

const view = (deps: AppDeps, actor: Actor, r: Row): Template => ({
	id: r.id,
	name: r.name,
	channel: r.channel as TemplateChannel,
	kind: r.kind as TemplateKind,
	subject: r.subject,
	body: r.body,
	shared: r.ownerUserId === null,
	editable: r.ownerUserId === null ? mayShare(deps, actor) : r.ownerUserId === actor.userId,
	updatedAt: r.updatedAt,
})

/** Templates the person may use: shared ones first, then their own, each by name. Optionally one channel. */
export async function listTemplates(deps: AppDeps, actor: Actor, o: { channel?: TemplateChannel } = {}): Promise<Template[]> {
	const userId = person(actor)
	const rows = await deps.db
		.select(columns)
		.from(messageTemplates)
		.where(
			and(
				eq(messageTemplates.workspaceId, actor.workspaceId),
				or(isNull(messageTemplates.ownerUserId), eq(messageTemplates.ownerUserId, userId)),
				o.channel ? eq(messageTemplates.channel, o.channel) : undefined,
			),
		)
		.orderBy(sql`${messageTemplates.ownerUserId} is not null`, asc(sql`lower(${messageTemplates.name})`), asc(messageTemplates.seq))
	return rows.map((r) => view(deps, actor, r))
}

/** One template the person may use (shared or their own); another person's is answered like an absent one. */
export async function getTemplate(deps: AppDeps, actor: Actor, id: string): Promise<Template> {
	const userId = person(actor)
	const [row] = await deps.db
		.select(columns)
		.from(messageTemplates)
		.where(
			and(
				eq(messageTemplates.workspaceId, actor.workspaceId),
				eq(messageTemplates.id, id),
				or(isNull(messageTemplates.ownerUserId), eq(messageTemplates.ownerUserId, userId)),
			),
		)
	if (!row) throw notFound()
	return view(deps, actor, row)
}

/** The checked values of a template; throws VALIDATION naming each field's problem. */
function checked(input: TemplateInput) {
	const { line: name, problem: nameProblem } = typedLine(input.name, 100)
	const body = cleanText(input.body).replace(/\r\n?/g, '\n').trim()
	const subject = cleanLine(input.subject, 1000)
	const problems: FieldError[] = []
	if (nameProblem) problems.push({ field: 'name', message: nameProblem })
	const channel = (CHANNELS as readonly string[]).includes(input.channel) ? (input.channel as TemplateChannel) : null
	if (!channel) problems.push({ field: 'channel', message: 'must be e-mail or text message' })
	const kind = (KINDS as readonly string[]).includes(input.kind) ? (input.kind as TemplateKind) : null
	if (!kind) problems.push({ field: 'kind', message: 'must be transactional or marketing' })
	else if (kind === 'marketing' && channel === 'text')
		problems.push({ field: 'kind', message: 'can be marketing (a job alert) only for e-mail: a text message carries no unsubscribe link' })
	if (channel === 'email') {
		if (length(subject) < 1 || length(subject) > 200) problems.push({ field: 'subject', message: 'must be 1 to 200 characters' })
		else for (const p of fieldProblems(subject)) problems.push({ field: 'subject', message: p })
	}
	const max = channel === 'text' ? MAX_TEXT_BODY : MAX_BODY
	if (length(body) < 1 || length(body) > max) problems.push({ field: 'body', message: `must be 1 to ${max.toLocaleString('en-US')} characters` })
	else for (const p of fieldProblems(body)) problems.push({ field: 'body', message: p })
	if (problems.length) throw invalid(problems, 'The template has problems')
	return { name, channel: channel!, kind: kind!, subject: channel === 'email' ? subject : null, body }
}

const nameTaken = () => invalid([{ field: 'name', message: 'is already the name of another template here' }], 'The name is taken')
/** PostgreSQL's unique violation, as the driver throws it or wrapped by drizzle (its `cause`). */
function isUniqueViolation(error: unknown): boolean {
	const x = error as { code?: string; cause?: unknown } | undefined
	return x?.code === '23505' || (x?.cause !== undefined && isUniqueViolation(x.cause))
}

/** Makes a template: the person's own, or shared (owners and admins). */
export async function createTemplate(deps: AppDeps, actor: Actor, input: TemplateInput): Promise<Template> {
	const userId = person(actor)
	if (input.shared && !mayShare(deps, actor)) throw new AppError('FORBIDDEN', 'Only owners and admins make shared templates')
	const values = checked(input)
	const id = newId('tpl')
	try {
		await deps.db.transaction(async (tx) => {
			await tx
				.insert(messageTemplates)
				.values({ id, workspaceId: actor.workspaceId, ownerUserId: input.shared ? null : userId, createdByUserId: userId, ...values })
			await recordActivity(tx, actor, { action: 'template.created', targetType: 'message_template', targetId: id, detail: { shared: input.shared } })
		})
	} catch (error) {
		if (isUniqueViolation(error)) throw nameTaken()
		throw error
	}
	return getTemplate(deps, actor, id)
}

/** Changes a template the person may change (their own; a shared one as owner or admin). Whether it is shared stays. */
export async function updateTemplate(deps: AppDeps, actor: Actor, id: string, input: Omit<TemplateInput, 'shared'>): Promise<Template> {
	const current = await getTemplate(deps, actor, id)
	if (!current.editable) throw new AppError('FORBIDDEN', 'Only owners and admins change shared templates')
	const values = checked({ ...input, shared: current.shared })
	try {
		await deps.db.transaction(async (tx) => {
			await tx
				.update(messageTemplates)
				.set({ ...values, updatedAt: deps.now() })
				.where(and(eq(messageTemplates.workspaceId, actor.workspaceId), eq(messageTemplates.id, id)))
			await recordActivity(tx, actor, { action: 'template.updated', targetType: 'message_template', targetId: id })
		})
	} catch (error) {
		if (isUniqueViolation(error)) throw nameTaken()
		throw error
	}
	return getTemplate(deps, actor, id)
}

export async function deleteTemplate(deps: AppDeps, actor: Actor, id: string): Promise<Template> {
	const current = await getTemplate(deps, actor, id)
	if (!current.editable) throw new AppError('FORBIDDEN', 'Only owners and admins delete shared templates')
	await deps.db.transaction(async (tx) => {
		await tx.delete(messageTemplates).where(and(eq(messageTemplates.workspaceId, actor.workspaceId), eq(messageTemplates.id, id)))
		await recordActivity(tx, actor, { action: 'template.deleted', targetType: 'message_template', targetId: id, detail: { name: current.name } })
	})
	return current
}

export interface Footers {
	email: string
	text: string
	/** False while the firm has not set its own (the defaults are shown). */
	set: boolean
}

/** The firm's footers, or the defaults built from its name and careers site. Read on the caller's transaction. */
export async function footersOf(deps: Pick<AppDeps, 'config'>, db: Db, workspaceId: string): Promise<Footers> {
	const [row] = await db
		.select({ email: messageFooters.email, text: messageFooters.text })
		.from(messageFooters)
		.where(eq(messageFooters.workspaceId, workspaceId))
	if (row) return { ...row, set: true }
	const ws = (await workspacesById(db, [workspaceId])).get(workspaceId)
	if (!ws) return { email: '', text: '', set: false }
	return { email: `${ws.name}\n${deps.config.baseUrl}/careers/${ws.slug}`, text: `– ${ws.name}`, set: false }
}

export async function setFooters(deps: AppDeps, actor: Actor, input: { email: string; text: string }): Promise<Footers> {
	if (!mayShare(deps, actor)) throw new AppError('FORBIDDEN', 'Only owners and admins set the firm’s footer')
	const email = cleanText(input.email).replace(/\r\n?/g, '\n').trim()
	const text = cleanLine(input.text, 1000)
	const problems: FieldError[] = []
	if (length(email) < 1 || length(email) > MAX_FOOTER)
		problems.push({ field: 'email', message: `must be 1 to ${MAX_FOOTER.toLocaleString('en-US')} characters` })
	if (length(text) < 1 || length(text) > MAX_TEXT_FOOTER) problems.push({ field: 'text', message: `must be 1 to ${MAX_TEXT_FOOTER} characters, on one line` })
	if (problems.length) throw invalid(problems, 'The footer has problems')
	await deps.db.transaction(async (tx) => {
		await tx
			.insert(messageFooters)
			.values({ workspaceId: actor.workspaceId, email, text })
			.onConflictDoUpdate({ target: messageFooters.workspaceId, set: { email, text, updatedAt: deps.now() } })
		await recordActivity(tx, actor, { action: 'footer.updated', targetType: 'workspace', targetId: actor.workspaceId })
	})
	return { email, text, set: true }
}

/** A person's signature in the workspace ('' when none). */
export async function signatureOf(db: Db, workspaceId: string, userId: string): Promise<string> {
	const [row] = await db
		.select({ signature: messageSignatures.signature })
		.from(messageSignatures)
		.where(and(eq(messageSignatures.workspaceId, workspaceId), eq(messageSignatures.userId, userId)))
	return row?.signature ?? ''
}

export async function setSignature(deps: AppDeps, actor: Actor, input: string): Promise<string> {
	const userId = person(actor)
	const signature = cleanText(input).replace(/\r\n?/g, '\n').trim()
	if (length(signature) > MAX_SIGNATURE) throw invalid([{ field: 'signature', message: `must be at most ${MAX_SIGNATURE.toLocaleString('en-US')} characters` }])
	if (!signature) {
		await deps.db.delete(messageSignatures).where(and(eq(messageSignatures.workspaceId, actor.workspaceId), eq(messageSignatures.userId, userId)))
		return ''
	}
	await deps.db
		.insert(messageSignatures)
		.values({ workspaceId: actor.workspaceId, userId, signature })
		.onConflictDoUpdate({ target: [messageSignatures.workspaceId, messageSignatures.userId], set: { signature, updatedAt: deps.now() } })
	return signature
}
