/** The staffing lookup tool: a thin adapter over `service.ts`. */
import { Type as t } from '@sinclair/typebox'
import { defineTool } from '../../core/module.ts'
import { cursor, freeText, limit, oneOf, page, params } from '../../core/mcp/params.ts'
import { untrustedLine, UntrustedLine } from '../../core/untrusted.ts'
import { listLookups, LOOKUP_KINDS } from './service.ts'

// The names are typed by people of the workspace (the lookups page, the CLI): labelled for a model.
const LookupValue = t.Object({ id: t.String(), kind: oneOf(LOOKUP_KINDS), name: UntrustedLine, createdAt: t.String({ format: 'date-time' }) })

export const lookupTools = [
	defineTool({
		name: 'list_staffing_lookups',
		title: 'List staffing lookups',
		description:
			'The workspace’s own list of vendors, implementation partners or clients (the values people pick from when describing a requirement), A to Z. Filter by text the name contains. Paged: pass nextCursor back as cursor.',
		params: params({
			kind: oneOf(LOOKUP_KINDS, 'Which list: vendor, implementation_partner or client'),
			query: t.Optional(freeText({ maxLength: 240, description: 'Text the name contains' })),
			limit: t.Optional(limit()),
			cursor: t.Optional(cursor()),
		}),
		output: page('values', LookupValue),
		readOnly: true,
		permission: 'lookups:read',
		spec: 'R kind*(enum:vendor|implementation_partner|client), query(string maxLength=240), limit(integer minimum=1 maximum=100 default=25), cursor(string minLength=1 maxLength=64)',
		testCalls: (r) =>
			LOOKUP_KINDS.flatMap((kind) => [
				{ kind, limit: 100 },
				{ kind, query: r.word },
			]),
		run: async ({ deps, actor }, a) => {
			const page = await listLookups(deps, actor, { kind: a.kind as never, query: a.query, limit: a.limit ?? 25, cursor: a.cursor })
			return { values: page.values.map((v) => ({ ...v, name: untrustedLine(v.name, 'colleague', 120) })), nextCursor: page.nextCursor }
		},
	}),
]
