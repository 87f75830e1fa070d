/**
 * The applications a legal hold keeps after an erasure, as the anonymous applicant-flow records
 * (their id is the application's): for the reports that must still count them (the EEO report).
 * Columns as in `applications`: `id`, `workspace_id`, `job_id`, `stage_key`.
 */
import { sql } from 'drizzle-orm'

export const heldApplications = sql`select id, workspace_id, job_id, stage as stage_key from applicant_flow`
