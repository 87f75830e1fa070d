/** The vendor tools: thin adapters over `directory.ts`. */
import { Type as t } from '@sinclair/typebox'
import { defineTool } from '../../core/module.ts'
import { cursor, id, limit, page, params } from '../../core/mcp/params.ts'
import { getVendor, labelledDetail, labelledSummary, listVendors } from './directory.ts'
import { VendorDetailSchema, VendorSummarySchema } from './model.ts'

export const vendorTools = [
	defineTool({
		name: 'list_vendors',
		title: 'List vendors',
		description:
			'The workspace’s vendors (staffing partners whose jobs you fill), A to Z, with how each takes submissions and counts of open jobs and of candidates submitted. Paged: pass nextCursor back as cursor. Use get_vendor for contact details and document rules.',
		params: params({ limit: t.Optional(limit()), cursor: t.Optional(cursor()) }),
		output: page('vendors', VendorSummarySchema),
		readOnly: true,
		permission: 'vendors:read',
		spec: 'R limit(integer minimum=1 maximum=100 default=25), cursor(string minLength=1 maxLength=64)',
		testCalls: () => [{ limit: 100 }],
		run: async ({ deps, actor }, a) => {
			const page = await listVendors(deps, actor, { limit: a.limit ?? 25, cursor: a.cursor })
			return { vendors: page.vendors.map(labelledSummary), nextCursor: page.nextCursor }
		},
	}),
	defineTool({
		name: 'get_vendor',
		title: 'Get a vendor',
		description:
			'One vendor: contact person, submission method (e-mail address or portal), the documents a submission needs (always, and by the candidate’s work authorization), and counts of jobs, open jobs and submissions. Use an id from list_vendors.',
		params: params({ vendorId: id('vendor') }),
		output: t.Object({ vendor: VendorDetailSchema }),
		readOnly: true,
		permission: 'vendors:read',
		spec: 'R vendorId*(string minLength=1 maxLength=160)',
		testCalls: (r) => r.seen('vendor').map((vendorId) => ({ vendorId })),
		run: async ({ deps, actor }, a) => ({ vendor: labelledDetail(await getVendor(deps, actor, a.vendorId)) }),
	}),
]
