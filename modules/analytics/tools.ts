/** The analytics tool: a thin adapter over `service.ts`. */
import { Type as t } from '@sinclair/typebox'
import { defineTool } from '../../core/module.ts'
import { nullable, params } from '../../core/mcp/params.ts'
import { lineAbout, UntrustedLine, UntrustedText } from '../../core/untrusted.ts'
import { analyticsSummary } from './service.ts'

const rate = nullable(t.Number({ description: 'Applications per view, in percent; null without views' }))
const Counts = { views: t.Integer(), applications: t.Integer(), conversionRate: rate }

export const analyticsTools = [
	defineTool({
		name: 'get_analytics_summary',
		title: 'Careers analytics summary',
		description:
			'Careers-site analytics for the last 7 or 30 days (default 30): job page views, applications and conversion, the same numbers for the period before and the change, the top jobs and top sources (utm_source or referring site, e.g. linkedin, indeed, google, direct), and a few plain-sentence insights computed from those numbers. Hiring managers see only their jobs.',
		params: params({ range: t.Optional(t.Union([t.Literal(7), t.Literal(30)], { description: 'Number of days: 7 or 30 (default 30)', default: 30 })) }),
		output: t.Object({
			range: t.Union([t.Literal(7), t.Literal(30)]),
			from: t.String({ format: 'date-time' }),
			to: t.String({ format: 'date-time' }),
			totals: t.Object(Counts),
			previous: t.Object(Counts, { description: 'The same numbers for the period just before' }),
			change: t.Object({
				views: nullable(t.Number({ description: 'Percent change against the previous period' })),
				applications: nullable(t.Number({ description: 'Percent change against the previous period' })),
				conversionRate: nullable(t.Number({ description: 'Change in percentage points' })),
			}),
			topJobs: t.Array(t.Object({ jobId: t.String(), title: UntrustedLine, ...Counts })),
			topSources: t.Array(
				t.Object({
					source: lineAbout('The visitor’s link’s utm_source or the referring site, e.g. linkedin'),
					label: lineAbout('The source’s display name'),
					...Counts,
				}),
			),
			insights: t.Array(t.Union([t.String(), UntrustedText]), {
				description: 'Plain sentences; one that quotes a job’s title or a source is labelled with who wrote that',
			}),
		}),
		readOnly: true,
		permission: 'analytics:read',
		spec: 'R range(enum:7|30 default=30)',
		testCalls: () => [{ range: 7 as const }, { range: 30 as const }],
		run: ({ deps, actor }, a) => analyticsSummary(deps, actor, (a.range ?? 30) as 7 | 30),
	}),
]
