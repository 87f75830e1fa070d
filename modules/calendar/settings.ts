/** The calendar module's settings (core/config.ts parses them with the rest at start-up). */
import { defineSettings } from '../../core/config.ts'

export interface CalendarSettings {
	/** Let calendar feed addresses point at private or loopback hosts (`CALENDAR_FEEDS_ALLOW_PRIVATE`; off: refused, against SSRF). */
	readonly calendarFeedsAllowPrivate: boolean
	/**
	 * Seconds one read of a calendar feed may take, redirects and body included (`CALENDAR_FEED_TIMEOUT`,
	 * 1–255; default 10, and always below `HTTP_IDLE_TIMEOUT`: the settings page reads the feed while the person waits).
	 */
	readonly calendarFeedTimeout: number
}

export const calendarSettings = defineSettings<CalendarSettings>({
	variables: ['CALENDAR_FEEDS_ALLOW_PRIVATE', 'CALENDAR_FEED_TIMEOUT'],
	parse(env, core) {
		const calendarFeedTimeout = env.integer('CALENDAR_FEED_TIMEOUT', Math.max(1, Math.min(10, core.httpIdleTimeout - 1)), 1, 255)
		// Checked whether set or derived: a derived one must keep the rule too (core/config.ts bounds HTTP_IDLE_TIMEOUT so that it can).
		if (calendarFeedTimeout >= core.httpIdleTimeout)
			env.problem(
				`CALENDAR_FEED_TIMEOUT must be less than HTTP_IDLE_TIMEOUT (${core.httpIdleTimeout}), or the settings page's connection is closed before the feed is read`,
			)
		return { calendarFeedsAllowPrivate: env.onOff('CALENDAR_FEEDS_ALLOW_PRIVATE', false), calendarFeedTimeout }
	},
})
