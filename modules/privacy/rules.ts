/**
 * A workspace's privacy rules: whether it is a federal contractor (erasure then keeps an anonymous
 * applicant-flow record for the hold period, 1 or 2 years under OFCCP) and after how many months
 * without activity a candidate is erased (off by default).
 */
import { sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { type FieldError, invalid } from '../../core/errors.ts'
import type { Db } from '../../db/client.ts'
import { recordActivity } from '../activity/index.ts'
import { privacySettings } from './table.ts'

export interface PrivacyRules {
	federalContractor: boolean
	/** 1 or 2 (41 CFR 60-1.12: two years for 150 employees and a $150,000 contract, else one). */
	holdYears: number
	/** Erase candidates with no activity for this many months; null: never. */
	inactiveMonths: number | null
}

export const DEFAULT_RULES: PrivacyRules = { federalContractor: false, holdYears: 2, inactiveMonths: null }
/** The shortest inactivity the retention rule accepts: a candidate in a slow process is not erased under it. */
export const MIN_INACTIVE_MONTHS = 6
export const MAX_INACTIVE_MONTHS = 120

export async function privacyRules(deps: AppDeps, workspaceId: string, db: Db = deps.db): Promise<PrivacyRules> {
	const [row] = await deps.database.rows<PrivacyRules>(
		sql`select federal_contractor as "federalContractor", hold_years as "holdYears", inactive_months as "inactiveMonths" from privacy_settings where workspace_id = ${workspaceId}`,
		db,
	)
	return row ?? DEFAULT_RULES
}

/** The form's values as typed (the page shows them again when refused). */
export interface RulesInput {
	federalContractor: boolean
	holdYears: string
	/** Empty: off. */
	inactiveMonths: string
}

export function readRules(input: RulesInput): { rules: PrivacyRules; errors: FieldError[] } {
	const errors: FieldError[] = []
	const holdYears = Number(input.holdYears)
	if (holdYears !== 1 && holdYears !== 2) errors.push({ field: 'holdYears', message: 'Choose 1 or 2 years' })
	const months = input.inactiveMonths.trim()
	let inactiveMonths: number | null = null
	if (months !== '') {
		inactiveMonths = Number(months)
		if (!/^\d+$/.test(months) || inactiveMonths < MIN_INACTIVE_MONTHS || inactiveMonths > MAX_INACTIVE_MONTHS)
			errors.push({
				field: 'inactiveMonths',
				message: `Enter a whole number of months from ${MIN_INACTIVE_MONTHS} to ${MAX_INACTIVE_MONTHS}, or leave it empty to keep candidates`,
			})
	}
	return {
		rules: { federalContractor: input.federalContractor, holdYears: errors.some((e) => e.field === 'holdYears') ? 2 : holdYears, inactiveMonths },
		errors,
	}
}

export async function setPrivacyRules(deps: AppDeps, actor: Actor, input: RulesInput): Promise<PrivacyRules> {
	const { rules, errors } = readRules(input)
	if (errors.length) throw invalid(errors)
	await deps.db.transaction(async (tx) => {
		await tx
			.insert(privacySettings)
			.values({ workspaceId: actor.workspaceId, ...rules, updatedAt: deps.now() })
			.onConflictDoUpdate({ target: privacySettings.workspaceId, set: { ...rules, updatedAt: deps.now() } })
		await recordActivity(tx, actor, { action: 'privacy.rules_set', targetType: 'workspace', targetId: actor.workspaceId, detail: { ...rules } })
	})
	return rules
}

/**
 * The audit trail a federal contractor must keep for its hold period (41 CFR 60-1.12: records of
 * searches of the candidate database among them): per workspace, the oldest time still kept.
 */
export async function auditHoldSince(deps: AppDeps, now: Date): Promise<ReadonlyMap<string, Date>> {
	const rows = await deps.database.rows<{ workspaceId: string; holdYears: number }>(
		sql`select workspace_id as "workspaceId", hold_years as "holdYears" from privacy_settings where federal_contractor`,
	)
	return new Map(
		rows.map((r) => {
			const since = new Date(now)
			since.setUTCFullYear(since.getUTCFullYear() - r.holdYears)
			return [r.workspaceId, since]
		}),
	)
}
