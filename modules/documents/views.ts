/** The documents module's view for assistant apps that show MCP Apps (see `ViewDef`). */
import type { ViewDef } from '../../core/module.ts'
import { DOCUMENT_LABELS } from '../vendors/index.ts'

export const documentViews: ViewDef[] = [
	{
		name: 'vendor-submission-check',
		title: 'Vendor submission check',
		description: 'What a vendor needs to receive a candidate, what is on file and what is missing, with a button that asks for the missing documents.',
		file: new URL('./views/vendor-submission-check.html', import.meta.url),
		tools: ['check_vendor_submission'],
		calls: ['request_candidate_documents'],
		settings: { documentLabels: DOCUMENT_LABELS },
	},
]
