/**
 * Who is acting: one person (through a portal session, a personal token or an OAuth app)
 * or one vendor (through its API key). Every service call takes an actor; every query is
 * scoped by `actor.workspaceId` and limited by `actor.role`.
 */

export const PERSON_ROLES = ['owner', 'admin', 'recruiter', 'hiring_manager', 'viewer'] as const
export type PersonRole = (typeof PERSON_ROLES)[number]
/** `vendor` is the role of a vendor API key: it reaches only its own vendor's jobs. */
export type Role = PersonRole | 'vendor'
export const ROLES: readonly Role[] = [...PERSON_ROLES, 'vendor']

/** How the actor proved who it is; recorded with every change in the activity log. */
export type CredentialKind = 'session' | 'personal_token' | 'oauth_app' | 'vendor_key' | 'upload_link' | 'careers_form' | 'cli' | 'reset_link' | 'scim_token'

export interface Credential {
	readonly kind: CredentialKind
	/** Id of the credential row (session, token, grant, key); '' for the CLI. */
	readonly id: string
	/** Human name at the time: token name, app name, key label, "portal session". */
	readonly name: string
}

export interface Actor {
	readonly workspaceId: string
	readonly workspaceSlug: string
	readonly role: Role
	/** The person acting (null for a vendor key). */
	readonly userId: string | null
	/** The vendor acting (only for vendor keys). */
	readonly vendorId: string | null
	/** Display name of the person or vendor. */
	readonly name: string
	readonly credential: Credential
	/** Permissions granted to this person beyond their role (e.g. `jobs:actively_hiring`). */
	readonly grants: readonly string[]
	/** True when an OAuth app was allowed read-only access: write tools are hidden and refused. */
	readonly readOnly: boolean
}

export const isAdmin = (actor: Actor) => actor.role === 'owner' || actor.role === 'admin'

/**
 * The actor of the operator CLI and start-up tasks in one workspace: acts as an owner, logged as
 * "operator CLI".
 */
export function operatorActor(ws: { id: string; slug: string }): Actor {
	return {
		workspaceId: ws.id,
		workspaceSlug: ws.slug,
		role: 'owner',
		userId: null,
		vendorId: null,
		name: 'Operator',
		credential: { kind: 'cli', id: '', name: 'operator CLI' },
		grants: [],
		readOnly: false,
	}
}
