/**
 * Why an endpoint is off: one of a closed set, stored with the switch-off by whatever switched it off
 * (`disabledCause`; the table's check refuses an endpoint off without one) and given to the vendor by
 * the Job Publish API as `disabledReason`, so a vendor can tell what it may do about it. Who decided
 * (`disabledBy`) follows from the cause, written here once.
 */

export const DISABLED_CAUSES = ['switched_off_by_firm', 'api_key_revoked', 'answered_410_gone', 'deliveries_failing', 'paused_by_vendor'] as const
export type DisabledCause = (typeof DISABLED_CAUSES)[number]
export type DisabledBy = 'workspace' | 'benchline' | 'vendor'

interface CauseInfo {
	/**
	 * The firm's decision (`workspace`: the vendor may neither add the address again, nor delete it, nor
	 * switch it on), Benchline's, or the vendor's own pause (`vendor`): the vendor switches on what
	 * Benchline or it switched off.
	 */
	by: DisabledBy
	/** The words of the firm's pages (and the owners' e-mail) when the switch-off kept none of its own. */
	forFirm: string
	/** What it means and what the vendor can do, in the API's documentation. */
	forVendor: string
}

export const CAUSES: Readonly<Record<DisabledCause, CauseInfo>> = {
	switched_off_by_firm: {
		by: 'workspace',
		forFirm: 'switched off by your workspace',
		forVendor:
			'the firm switched it off (its Webhooks page), and it stays off until the firm switches it on again: ask the firm (adding the same address again, or deleting it, is 409)',
	},
	api_key_revoked: {
		by: 'workspace',
		forFirm: 'the vendor’s API key that added it or last moved it was revoked',
		forVendor:
			'the firm revoked the API key that added it or last moved it, and it stays off until the firm switches it on again: ask the firm (adding the same address again, or deleting it, is 409)',
	},
	answered_410_gone: {
		by: 'benchline',
		forFirm: 'The endpoint answered 410 Gone: it asked to receive nothing more',
		forVendor:
			'the endpoint answered 410 Gone, asking to receive nothing more: switch it on again (PATCH with `"enabled": true`) once the receiver takes events',
	},
	deliveries_failing: {
		by: 'benchline',
		forFirm: 'Every delivery has failed for 5 days',
		forVendor: 'every delivery to it failed for 5 days: fix the receiver, then switch it on again (PATCH with `"enabled": true`)',
	},
	paused_by_vendor: {
		by: 'vendor',
		forFirm: 'paused by the vendor',
		forVendor: 'you paused it (PATCH with `"enabled": false`): events are not queued for it until you switch it on again',
	},
}

/** The columns of a switch-off for `cause`; `reason`: words of its own for the firm's pages (a revoked key's last four characters). */
export const switchedOff = (cause: DisabledCause, reason: string | null = null) => ({
	enabled: false,
	disabledBy: CAUSES[cause].by,
	disabledCause: cause,
	disabledReason: reason,
})

/** The columns of a switch-on: nothing of the switch-off stays. */
export const switchedOn = { enabled: true, disabledBy: null, disabledCause: null, disabledReason: null } as const

/**
 * A vendor's endpoint that is off, but not by the firm (the vendor paused it, or Benchline switched it
 * off): the vendor may switch it on again through the API, and the firm may make the switch-off its own
 * (`setEndpointEnabled(false)`), which the vendor cannot undo.
 */
export const firmMayTakeOver = (e: { enabled: boolean; vendorId: string | null; disabledCause: DisabledCause | null }) =>
	!e.enabled && e.vendorId !== null && e.disabledCause !== null && CAUSES[e.disabledCause].by !== 'workspace'

/** Why it is off, in the firm's pages' words: its own, or its cause's. */
export const offWords = (e: { disabledReason: string | null; disabledCause: DisabledCause | null }) =>
	e.disabledReason ?? (e.disabledCause ? CAUSES[e.disabledCause].forFirm : null)
