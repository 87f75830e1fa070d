/**
 * Scorecards: the business rules live here; routes, pages and the application details are adapters.
 *
 * Rules:
 * - Interviewers write scorecards (`scorecards:write`: owners, admins, recruiters and hiring
 *   managers); each only on applications they can reach, so a hiring manager only on the
 *   applications of jobs on whose hiring team they are. An application out of reach is answered
 *   like an absent one.
 * - A scorecard rates each of the job's attributes 1 (poor) to 5 (excellent), gives an overall
 *   recommendation (Strong no, No, Yes, Strong yes) and may have notes (up to 4,000 characters).
 *   One per person per application: saving again changes it, and only its author can.
 * - A job's attributes are its must-haves until someone who may write scorecards for the job sets
 *   its own list (1 to 15 attributes of 1 to 100 characters, no two alike); clearing the list goes
 *   back to the must-haves. A saved scorecard keeps the attributes it rated.
 * - Everyone who can see an application sees its scorecards, and completed AI video interviews
 *   appear as scorecards of their own to those who may see interviews. A scorecard's notes lose
 *   e-mail addresses and phone numbers for people who may not see contact details (`colleagueWords`).
 * - Every change is in the activity log, in the same transaction.
 */
import { and, eq, sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, invalid, type FieldError } from '../../core/errors.ts'
import { cleanLine, cleanText, personAuthor, untrusted, untrustedLine, type TextAuthor } from '../../core/untrusted.ts'
import { recordActivity } from '../activity/index.ts'
import { personRef, userNames } from '../auth/index.ts'
import { colleagueWords, reachableApplication, RECOMMENDATIONS, type ApplicationKey, type ApplicationScorecard } from '../candidates/index.ts'
import { aiScorecardsOf } from '../interviews/index.ts'
import { jobRequirements, reachableJobIds } from '../jobs/index.ts'
import { scorecardAttributes, scorecards } from './table.ts'

export const WRITE = 'scorecards:write'
export type Recommendation = (typeof RECOMMENDATIONS)[number]
export const RECOMMENDATION_LABELS: Record<Recommendation, string> = { strong_no: 'Strong no', no: 'No', yes: 'Yes', strong_yes: 'Strong yes' }
export const RATING_LABELS = ['Poor', 'Weak', 'Adequate', 'Strong', 'Excellent'] as const
export const MAX_ATTRIBUTES = 15
export const MAX_ATTRIBUTE = 100
export const MAX_NOTES = 4000

const applicationNotFound = () => new AppError('NOT_FOUND', 'No application with this id')
const jobNotFound = () => new AppError('NOT_FOUND', 'No job with this id')

export interface JobAttributes {
	jobId: string
	jobTitle: string
	attributes: string[]
	/** Set for the job (false: the job's must-haves). */
	custom: boolean
	/** Who wrote them: a vendor job's must-haves are the vendor's words; other attributes a person's (`attributesAuthor`). */
	by: AttributesWriter
}

/** Who wrote a job's scorecard attributes: its vendor, or a person of the workspace (who set them, or made the job; null: not recorded). */
export interface AttributesWriter {
	vendor: boolean
	userId: string | null
}

/** Who wrote attributes, as `reader` sees it: the vendor, or a person (`personAuthor`: the reader themselves, or a colleague). */
const attributesAuthor = (by: AttributesWriter, reader: Actor): TextAuthor => (by.vendor ? 'vendor' : personAuthor(by.userId, reader))

/**
 * A job's must-haves as scorecard attributes: cut as typed ones are, and no two alike, as `setAttributes`
 * requires of a typed list. Ratings are kept by the attribute's name in any case, so "Java" and "JAVA", or
 * two long must-haves the same once cut, would be one rating shown twice: the first is kept.
 */
function mustHaveAttributes(mustHave: readonly string[]): string[] {
	const seen = new Set<string>()
	return mustHave
		.map((m) => cleanLine(m, MAX_ATTRIBUTE))
		.filter((line) => {
			const key = line.toLowerCase()
			if (!line || seen.has(key)) return false
			seen.add(key)
			return true
		})
}

/** The attributes of a job the actor can reach (its own list, else its must-haves). */
export async function attributesOf(deps: AppDeps, actor: Actor, jobId: string): Promise<JobAttributes> {
	const reach = await reachableJobIds(deps, actor)
	const job = (await jobRequirements(deps, actor.workspaceId, [jobId])).get(jobId)
	if (!job || (reach !== 'all' && !reach.includes(jobId))) throw jobNotFound()
	const [own] = await deps.db
		.select({ attributes: scorecardAttributes.attributes, updatedByUserId: scorecardAttributes.updatedByUserId })
		.from(scorecardAttributes)
		.where(and(eq(scorecardAttributes.jobId, jobId), eq(scorecardAttributes.workspaceId, actor.workspaceId)))
	if (own) return { jobId, jobTitle: job.title, attributes: own.attributes, custom: true, by: { vendor: false, userId: own.updatedByUserId } }
	const by = { vendor: job.vendorId !== null, userId: job.vendorId ? null : job.createdByUserId }
	return { jobId, jobTitle: job.title, attributes: mustHaveAttributes(job.mustHave), custom: false, by }
}

/** Sets a job's attributes (one per entry; blank entries ignored); none at all goes back to the must-haves. */
export async function setAttributes(deps: AppDeps, actor: Actor, jobId: string, entries: string[]): Promise<JobAttributes> {
	if (!deps.permissions.can(actor, WRITE)) throw new AppError('FORBIDDEN', 'Your role cannot change scorecards')
	await attributesOf(deps, actor, jobId)
	const lines = entries.map((e) => cleanLine(e, Number.MAX_SAFE_INTEGER)).filter(Boolean)
	const problems: FieldError[] = []
	if (lines.length > MAX_ATTRIBUTES) problems.push({ field: 'attributes', message: `has ${lines.length} attributes; at most ${MAX_ATTRIBUTES}` })
	const long = lines.find((l) => [...l].length > MAX_ATTRIBUTE)
	if (long) problems.push({ field: 'attributes', message: `“${long.slice(0, 40)}…” is longer than ${MAX_ATTRIBUTE} characters` })
	const twice = lines.find((l, i) => lines.findIndex((o) => o.toLowerCase() === l.toLowerCase()) < i)
	if (twice) problems.push({ field: 'attributes', message: `lists “${twice}” twice` })
	if (problems.length) throw invalid(problems)
	await deps.db.transaction(async (tx) => {
		if (lines.length)
			await tx
				.insert(scorecardAttributes)
				.values({ jobId, workspaceId: actor.workspaceId, attributes: lines, updatedByUserId: actor.userId, updatedAt: deps.now() })
				.onConflictDoUpdate({ target: scorecardAttributes.jobId, set: { attributes: lines, updatedByUserId: actor.userId, updatedAt: deps.now() } })
		else await tx.delete(scorecardAttributes).where(and(eq(scorecardAttributes.jobId, jobId), eq(scorecardAttributes.workspaceId, actor.workspaceId)))
		await recordActivity(tx, actor, { action: 'scorecard.attributes_set', targetType: 'job', targetId: jobId, detail: { attributes: lines.length } })
	})
	return attributesOf(deps, actor, jobId)
}

export interface OwnScorecard {
	id: string
	ratings: Map<string, number>
	recommendation: Recommendation
	notes: string | null
}

export interface ScorecardForm {
	application: ApplicationKey
	attributes: JobAttributes
	/** The actor's scorecard of this application, when they wrote one. */
	mine: OwnScorecard | null
}

async function reachable(deps: AppDeps, actor: Actor, applicationId: string): Promise<ApplicationKey> {
	const app = await reachableApplication(deps, actor, { applicationId })
	if (!app) throw applicationNotFound()
	return app
}

async function ownScorecard(deps: AppDeps, actor: Actor, applicationId: string): Promise<OwnScorecard | null> {
	if (!actor.userId) return null
	const [row] = await deps.db
		.select()
		.from(scorecards)
		.where(and(eq(scorecards.applicationId, applicationId), eq(scorecards.authorUserId, actor.userId), eq(scorecards.workspaceId, actor.workspaceId)))
	if (!row) return null
	return {
		id: row.id,
		ratings: new Map(row.ratings.map((r) => [r.attribute.toLowerCase(), r.rating])),
		recommendation: row.recommendation as Recommendation,
		notes: row.notes,
	}
}

/** What the Add scorecard form needs: the application, the job's attributes and the actor's own scorecard. */
export async function scorecardForm(deps: AppDeps, actor: Actor, applicationId: string): Promise<ScorecardForm> {
	if (!deps.permissions.can(actor, WRITE)) throw new AppError('FORBIDDEN', 'Your role cannot write scorecards')
	const application = await reachable(deps, actor, applicationId)
	const [attributes, mine] = await Promise.all([attributesOf(deps, actor, application.jobId), ownScorecard(deps, actor, application.id)])
	return { application, attributes, mine }
}

export interface ScorecardInput {
	/** The attributes as the form showed them: refused when the job's attributes changed since. */
	attributes: string[]
	/** One per attribute, in the same order: "1" to "5". */
	ratings: string[]
	recommendation: string
	notes: string
}

/** Saves the actor's scorecard of the application: adds it, or changes the one they wrote. */
export async function saveScorecard(deps: AppDeps, actor: Actor, applicationId: string, input: ScorecardInput): Promise<{ id: string; added: boolean }> {
	const form = await scorecardForm(deps, actor, applicationId)
	if (!actor.userId) throw new AppError('FORBIDDEN', 'A scorecard is written by a person')
	const attributes = form.attributes.attributes
	const same = attributes.length === input.attributes.length && attributes.every((a, i) => a === input.attributes[i])
	if (!same)
		throw invalid(
			[{ field: 'recommendation', message: 'The job’s scorecard attributes changed while you were writing: the form now shows them, rate them again' }],
			'The job’s scorecard attributes changed',
		)
	const problems: FieldError[] = []
	const ratings = attributes.map((attribute, i) => {
		const value = Number((input.ratings[i] ?? '').trim())
		if (!Number.isInteger(value) || value < 1 || value > 5) problems.push({ field: `rating-${i}`, message: `Rate “${attribute}” from 1 to 5` })
		return { attribute, rating: value }
	})
	const recommendation = input.recommendation as Recommendation
	if (!RECOMMENDATIONS.includes(recommendation)) problems.push({ field: 'recommendation', message: 'Choose an overall recommendation' })
	const notes = cleanText(input.notes)
	if ([...notes].length > MAX_NOTES) problems.push({ field: 'notes', message: `Notes are at most ${MAX_NOTES.toLocaleString('en-US')} characters` })
	if (problems.length) throw invalid(problems)
	const { by } = form.attributes
	const values = {
		ratings,
		attributesBy: by.vendor ? 'vendor' : 'colleague',
		attributesByUserId: by.userId,
		recommendation,
		notes: notes || null,
		updatedAt: deps.now(),
	}
	return deps.db.transaction(async (tx) => {
		const id = form.mine?.id ?? newId('scd')
		const [row] = await tx
			.insert(scorecards)
			.values({ id, workspaceId: actor.workspaceId, applicationId: form.application.id, authorUserId: actor.userId!, ...values, createdAt: deps.now() })
			// Two tabs saving at once: the second changes the first's row (one per person per application).
			.onConflictDoUpdate({ target: [scorecards.applicationId, scorecards.authorUserId], set: values })
			.returning({ id: scorecards.id })
		const added = row!.id === id && !form.mine
		await recordActivity(tx, actor, {
			action: added ? 'scorecard.added' : 'scorecard.updated',
			targetType: 'application',
			targetId: form.application.id,
			detail: { recommendation },
		})
		return { id: row!.id, added }
	})
}

/**
 * The scorecards of applications the actor can reach (the `applicationDetails` port: only called
 * with such ids): people's oldest first, then the completed AI video interviews, oldest first.
 */
export async function scorecardsOf(deps: AppDeps, actor: Actor, applicationIds: string[]): Promise<Map<string, { scorecards: ApplicationScorecard[] }>> {
	const out = new Map<string, { scorecards: ApplicationScorecard[] }>()
	if (!applicationIds.length) return out
	for (const id of applicationIds) out.set(id, { scorecards: [] })
	const [rows, ai] = await Promise.all([
		deps.database.rows<{
			id: string
			applicationId: string
			authorUserId: string
			ratings: { attribute: string; rating: number }[]
			attributesBy: 'vendor' | 'colleague'
			attributesByUserId: string | null
			recommendation: Recommendation
			notes: string | null
			createdAt: Date | string
			updatedAt: Date | string
		}>(
			sql`select s.id, s.application_id as "applicationId", s.author_user_id as "authorUserId", s.ratings, s.attributes_by as "attributesBy", s.attributes_by_user_id as "attributesByUserId", s.recommendation, s.notes, s.created_at as "createdAt", s.updated_at as "updatedAt"
from ${scorecards} s where s.workspace_id = ${actor.workspaceId} and s.application_id = any(${sql.param(applicationIds)}::text[]) order by s.created_at, s.seq`,
		),
		aiScorecardsOf(deps, actor, applicationIds),
	])
	const names = await userNames(
		deps.db,
		rows.map((r) => r.authorUserId),
		actor,
	)
	const words = colleagueWords(deps, actor)
	for (const r of rows) {
		const attributesBy = attributesAuthor({ vendor: r.attributesBy === 'vendor', userId: r.attributesByUserId }, actor)
		out.get(r.applicationId)?.scorecards.push({
			id: r.id,
			source: 'person',
			by: personRef(names, r.authorUserId),
			interviewId: null,
			ratings: r.ratings.map((x) => ({ attribute: untrustedLine(x.attribute, attributesBy, MAX_ATTRIBUTE), rating: x.rating })),
			recommendation: r.recommendation,
			overallScore: null,
			// An interviewer's words: labelled for an assistant, and without contact details for those who may not see them, like every note.
			notes: r.notes ? untrusted(words(r.notes, r.authorUserId), personAuthor(r.authorUserId, actor), MAX_NOTES) : null,
			createdAt: new Date(r.createdAt).toISOString(),
			updatedAt: new Date(r.updatedAt).toISOString(),
		})
	}
	for (const i of [...ai].reverse())
		out.get(i.applicationId)?.scorecards.push({
			id: i.interviewId,
			source: 'ai_interview',
			by: null,
			interviewId: i.interviewId,
			ratings: i.ratings,
			recommendation: i.verdict === 'recommended' ? 'yes' : i.verdict === 'not_recommended' ? 'no' : null,
			overallScore: i.overallScore,
			notes: null,
			createdAt: i.completedAt.toISOString(),
			updatedAt: i.completedAt.toISOString(),
		})
	return out
}

export interface ScorecardSummary {
	count: number
	/** How many scorecards give each recommendation, strongest yes first (those without one left out). */
	recommendations: { recommendation: Recommendation; label: string; count: number }[]
	/** Each attribute rated, with its average (one decimal) and how many ratings it has, in first-rated order. */
	attributes: { attribute: string; average: number; ratings: number }[]
}

const text = (v: unknown) => (typeof v === 'string' ? v : ((v as { text?: string })?.text ?? ''))

/** The summary the application page shows over its scorecards (attributes matched ignoring case). */
export function summarize(cards: readonly ApplicationScorecard[]): ScorecardSummary {
	const recommendations = [...RECOMMENDATIONS]
		.reverse()
		.map((r) => ({ recommendation: r, label: RECOMMENDATION_LABELS[r], count: cards.filter((c) => c.recommendation === r).length }))
		.filter((r) => r.count > 0)
	const byAttribute = new Map<string, { attribute: string; sum: number; ratings: number }>()
	for (const c of cards)
		for (const r of c.ratings) {
			if (r.rating === null) continue
			const name = text(r.attribute)
			const key = name.toLowerCase()
			const entry = byAttribute.get(key) ?? { attribute: name, sum: 0, ratings: 0 }
			entry.sum += r.rating
			entry.ratings += 1
			byAttribute.set(key, entry)
		}
	return {
		count: cards.length,
		recommendations,
		attributes: [...byAttribute.values()].map((a) => ({ attribute: a.attribute, average: Math.round((a.sum / a.ratings) * 10) / 10, ratings: a.ratings })),
	}
}
