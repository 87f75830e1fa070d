/** The audit module's settings (core/config.ts parses them with the rest at start-up). */
import { defineSettings } from '../../core/config.ts'

export interface AuditSettings {
	/** Days the trail is kept (`AUDIT_RETENTION_DAYS`, 1–3650; default 400: past OFCCP's two years for firms that export yearly). */
	readonly retentionDays: number
}

export const auditSettings = defineSettings<AuditSettings>({
	variables: ['AUDIT_RETENTION_DAYS'],
	parse: (env) => ({ retentionDays: env.integer('AUDIT_RETENTION_DAYS', 400, 1, 3650) }),
})
