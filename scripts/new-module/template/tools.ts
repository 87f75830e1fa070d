/**
 * The MCP tools of sample module: thin adapters over `service.ts`. A tool is listed only to people
 * whose role holds its `permission`; `readOnly` is required so assistant apps know it changes nothing.
 * `run` returns what `output` describes (tsc checks it, and outside production each result is checked too).
 */
import { Type as t } from '@sinclair/typebox'
import { defineTool } from '../../../core/module.ts'
import { cursor, limit, page, params } from '../../../core/mcp/params.ts'
import { UntrustedLine, untrustedLine } from '../../../core/untrusted.ts'
import { listSampleModule } from './service.ts'

// The shape a model reads. A title was typed by a colleague: it goes out labelled as untrusted text.
const Entry = t.Object({ id: t.String(), title: UntrustedLine, createdAt: t.String({ format: 'date-time' }) })

export const sampleModuleTools = [
	defineTool({
		name: 'list_sample_module',
		title: 'List sample module',
		// Written for a model: when to use the tool and what it returns.
		description:
			'The entries of sample module in your workspace, newest first, each with its title and when it was added. Paged: pass nextCursor back as cursor.',
		params: params({ limit: t.Optional(limit()), cursor: t.Optional(cursor()) }),
		output: page('entries', Entry),
		readOnly: true,
		permission: 'sample-module:read',
		// Its contract, read by the registry-wide tests: the parameters in one line (tests/mcp/spec-contract.test.ts
		// holds the schema to it; change both together), and how tests/mcp/tool-results.test.ts calls it.
		spec: 'R limit(integer minimum=1 maximum=100 default=25), cursor(string minLength=1 maxLength=64)',
		testCalls: () => [{ limit: 100 }, {}],
		run: async ({ deps, actor }, a) => {
			const found = await listSampleModule(deps, actor, { limit: a.limit ?? 25, cursor: a.cursor })
			return {
				entries: found.entries.map((e) => ({ id: e.id, title: untrustedLine(e.title, 'colleague'), createdAt: e.createdAt.toISOString() })),
				nextCursor: found.nextCursor,
			}
		},
	}),
]
