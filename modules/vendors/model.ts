/** Shapes shared by the vendor tools, the submission rules and the modules that use them. */
import { Type as t } from '@sinclair/typebox'
import { nullable, oneOf } from '../../core/mcp/params.ts'
import { lineAbout, UntrustedLine } from '../../core/untrusted.ts'

/**
 * Candidate verification document kinds (spec enumeration). Declared here, at the bottom of the
 * dependency order, because vendors' document rules are made of them; `documents` re-exports them.
 */
export const DOCUMENT_KINDS = ['dl', 'visa', 'i94', 'workAuth'] as const
export type DocumentKind = (typeof DOCUMENT_KINDS)[number]

export const DOCUMENT_LABELS: Record<DocumentKind, string> = { dl: 'Driver’s license', visa: 'Visa', i94: 'I-94 record', workAuth: 'Work authorization' }

export const isDocumentKind = (v: unknown): v is DocumentKind => typeof v === 'string' && (DOCUMENT_KINDS as readonly string[]).includes(v)

/** Work authorization as a rule key: `H-1B`, `h1b` and `H1B` are the same. */
export const authorizationKey = (v: string) => v.toUpperCase().replace(/[^A-Z0-9]/g, '')

export const DocumentKindSchema = oneOf(DOCUMENT_KINDS)

export const DocumentRulesSchema = t.Object({
	always: t.Array(DocumentKindSchema, { description: 'Kinds every submission to this vendor needs' }),
	byWorkAuthorization: t.Record(t.String(), t.Array(DocumentKindSchema), {
		description: 'Extra kinds needed for a candidate with this work authorization (keys such as H1B, L2, TN)',
	}),
})

export const VendorSummarySchema = t.Object({
	id: t.String(),
	name: UntrustedLine,
	apiAccess: t.Boolean({ description: 'Whether the vendor’s API keys may publish jobs' }),
	submissionMethod: nullable(oneOf(['email', 'portal'] as const, 'How the vendor takes candidate submissions')),
	openJobCount: t.Integer(),
	submissionCount: t.Integer({ description: 'Candidates submitted to this vendor' }),
	createdAt: t.String({ format: 'date-time' }),
})

export const VendorDetailSchema = t.Composite([
	VendorSummarySchema,
	t.Object({
		jobCount: t.Integer({ description: 'Jobs of this vendor in any status' }),
		contact: t.Object({ name: nullable(UntrustedLine), email: nullable(lineAbout('E-mail address')), phone: nullable(lineAbout('Phone number')) }),
		submission: t.Object({
			method: nullable(oneOf(['email', 'portal'] as const)),
			email: nullable(lineAbout('Where submissions are e-mailed')),
			portalUrl: nullable(lineAbout('The vendor’s own portal (an http or https address)')),
		}),
		documentRules: DocumentRulesSchema,
		lastSubmittedAt: nullable(t.String({ format: 'date-time' })),
	}),
])
