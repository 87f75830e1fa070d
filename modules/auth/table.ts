import { sql } from 'drizzle-orm'
import { boolean, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 })

export const workspaces = pgTable('workspaces', {
	id: text('id').primaryKey(),
	slug: text('slug').notNull().unique(),
	name: text('name').notNull(),
	createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
})

/** A person. E-mail addresses are stored lower-cased; one account may belong to several workspaces. */
export const users = pgTable('users', {
	id: text('id').primaryKey(),
	email: text('email').notNull().unique(),
	name: text('name').notNull(),
	passwordHash: text('password_hash').notNull(),
	/**
	 * The password was set by someone else (the temporary password of an invitation that made the
	 * account): until the person chooses their own, every portal page sends them to do it. Cleared by
	 * any password the person sets, and by the operator's CLI (whose passwords are not temporary).
	 */
	passwordTemporary: boolean('password_temporary').notNull().default(false),
	/**
	 * The password descends from an invitation's temporary one: the inviter set it, or whoever signed
	 * in with it chose the next one (Change password asks only for the current password). Nobody has
	 * shown they read the account's mail, so the identity provider of the address's domain taking the
	 * account in (SCIM, single sign-on) ends it (access.ts). A reset link, which goes to that mail, and
	 * the operator's CLI set passwords that do not descend from an invitation. A SCIM change of the
	 * account's address sets it too: the password was proven through the old address's mail only.
	 */
	passwordFromInvitation: boolean('password_from_invitation').notNull().default(false),
	/**
	 * While `passwordFromInvitation`: the workspace on whose word alone the account holds its address
	 * (the one whose invitation made it, or whose SCIM gave it the address). Whoever set the password
	 * there may be holding the account, so only that workspace's invitations are accepted without the
	 * person first showing they read the address's mail (invitations.ts). Null: none.
	 */
	addressFromWorkspace: text('address_from_workspace').references(() => workspaces.id, { onDelete: 'set null' }),
	/**
	 * The person's time zone (IANA name): their pages show every time in it and read every date they
	 * type in it. Null until they choose one on their profile or their browser's is taken at sign-in
	 * (pages then use UTC).
	 */
	timeZone: text('time_zone'),
	createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
})

/**
 * A "Forgot password" link (`bl_pwr_…`), stored only as its SHA-256: valid 30 minutes, used once.
 * Using one (or changing the password) uses up every other link of the person.
 */
export const passwordResets = pgTable(
	'password_resets',
	{
		id: text('id').primaryKey(),
		tokenHash: text('token_hash').notNull(),
		userId: text('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
		expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
		usedAt: timestamp('used_at', { withTimezone: true, precision: 3 }),
	},
	(t) => [uniqueIndex('password_resets_hash').on(t.tokenHash), index('password_resets_user').on(t.userId, t.createdAt)],
)

/** A person's place in a workspace: their role and any permissions granted beyond it. */
export const memberships = pgTable(
	'memberships',
	{
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		userId: text('user_id')
			.notNull()
			.references(() => users.id),
		role: text('role').notNull(),
		grants: text('grants').array().notNull().default(sql`'{}'::text[]`),
		createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
		removedAt: timestamp('removed_at', { withTimezone: true, precision: 3 }),
	},
	(t) => [primaryKey({ columns: [t.workspaceId, t.userId] }), index('memberships_user').on(t.userId)],
)

/**
 * An invitation to join a workspace. Adding someone on the people page always makes one (for an
 * e-mail without an account, the account is made too, with the temporary password): only the
 * person accepting it, signed in, makes the membership, so nobody is put in a workspace without
 * their consent. `name` is what the inviter typed, shown on the people page until the person
 * accepts: never the account's own name. At most one pending invitation per workspace and e-mail.
 */
export const invitations = pgTable(
	'invitations',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		email: text('email').notNull(),
		name: text('name').notNull(),
		role: text('role').notNull(),
		grants: text('grants').array().notNull().default(sql`'{}'::text[]`),
		invitedBy: text('invited_by').references(() => users.id),
		createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
		expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
		/** pending, accepted, declined, cancelled, or expired (set when a new invitation replaces an expired one). */
		status: text('status').notNull().default('pending'),
		decidedAt: timestamp('decided_at', { withTimezone: true, precision: 3 }),
	},
	(t) => [uniqueIndex('invitations_pending').on(t.workspaceId, t.email).where(sql`status = 'pending'`), index('invitations_email').on(t.email, t.status)],
)

/**
 * The step between the password and a session for a person with several workspaces (or only
 * invitations): the password was right, the workspace is not chosen yet. Its token (stored as
 * SHA-256) lives in a short cookie; choosing uses it up and opens a session bound to one workspace.
 */
export const signInChoices = pgTable(
	'sign_in_choices',
	{
		id: text('id').primaryKey(),
		userId: text('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
	},
	(t) => [index('sign_in_choices_user').on(t.userId)],
)

/**
 * Portal sessions (Lucia's pattern): the id is the SHA-256 of the cookie token. What the person's
 * security page shows of each (browser, address, last used) is noted off the request's path, at most
 * once a minute (`noteUse`): the `User-Agent` as sent (cut) and the client address of the last use.
 */
export const sessions = pgTable(
	'sessions',
	{
		id: text('id').primaryKey(),
		userId: text('user_id')
			.notNull()
			.references(() => users.id),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
		createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
		lastUsedAt: timestamp('last_used_at', { withTimezone: true, precision: 3 }),
		userAgent: text('user_agent'),
		address: text('address'),
		/**
		 * How the person proved who they are: `password`, or `sso` (the workspace's identity provider,
		 * which vouches for them in that workspace only: such a session opens no other workspace).
		 */
		signedInBy: text('signed_in_by').notNull().default('password'),
	},
	(t) => [index('sessions_user').on(t.userId)],
)

/** Personal tokens (`bl_pat_…`), stored only as their SHA-256. */
export const personalTokens = pgTable(
	'personal_tokens',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		userId: text('user_id')
			.notNull()
			.references(() => users.id),
		name: text('name').notNull(),
		tokenHash: text('token_hash').notNull(),
		lastFour: text('last_four').notNull(),
		createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
		lastUsedAt: timestamp('last_used_at', { withTimezone: true, precision: 3 }),
		revokedAt: timestamp('revoked_at', { withTimezone: true, precision: 3 }),
	},
	(t) => [uniqueIndex('personal_tokens_hash').on(t.tokenHash), index('personal_tokens_workspace').on(t.workspaceId, t.createdAt)],
)

/** Failed sign-in attempts, for slowing down guessing per account and per address. */
export const signInFailures = pgTable(
	'sign_in_failures',
	{
		id: text('id').primaryKey(),
		email: text('email').notNull(),
		address: text('address').notNull(),
		at: timestamp('at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
	},
	(t) => [index('sign_in_failures_email').on(t.email, t.at), index('sign_in_failures_address').on(t.address, t.at)],
)

/** Apps registered through dynamic client registration (public clients only). */
export const oauthClients = pgTable('oauth_clients', {
	id: text('id').primaryKey(),
	name: text('name').notNull(),
	redirectUris: text('redirect_uris').array().notNull(),
	/**
	 * The grants the app registered or its metadata document lists (of those Benchline has):
	 * without `refresh_token` it gets no refresh token and may not refresh (clients.ts).
	 */
	grantTypes: text('grant_types').array().notNull().default(['authorization_code', 'refresh_token']),
	/** Other registration metadata as sent (software_id, client_uri, …): kept, never fetched. */
	metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
	createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
})

/**
 * A person's permission for an app: created by each "Allow", listed as a connected app,
 * revoked by Disconnect (its tokens stop at once). Also the family of its refresh tokens.
 */
export const oauthGrants = pgTable(
	'oauth_grants',
	{
		id: text('id').primaryKey(),
		clientId: text('client_id')
			.notNull()
			.references(() => oauthClients.id),
		userId: text('user_id')
			.notNull()
			.references(() => users.id),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		scope: text('scope').notNull(),
		readOnly: boolean('read_only').notNull().default(false),
		resource: text('resource').notNull(),
		/**
		 * The redirect address the grant's code was issued for: a client known by its metadata document
		 * loses the grant when its document stops listing it. Null for grants older than the column
		 * whose code was already cleaned up.
		 */
		redirectUri: text('redirect_uri'),
		createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
		lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
		revokedAt: timestamp('revoked_at', { withTimezone: true }),
		/** Why it was revoked: disconnected, code_replay, refresh_replay, revoked, person_left, client_document. */
		revokedReason: text('revoked_reason'),
	},
	(t) => [index('oauth_grants_user').on(t.workspaceId, t.userId), index('oauth_grants_client').on(t.clientId)],
)

/**
 * A consent page on screen: its one-time form token (stored as SHA-256), bound to the portal
 * session that saw the page and to the exact authorization request on it. Allow or Cancel deletes
 * the row, so a replayed or forged consent post finds nothing and mints no code. Kept in the
 * database, not in memory: the page and the post may reach different instances.
 */
export const oauthConsentRequests = pgTable(
	'oauth_consent_requests',
	{
		id: text('id').primaryKey(),
		sessionId: text('session_id')
			.notNull()
			.references(() => sessions.id, { onDelete: 'cascade' }),
		clientId: text('client_id')
			.notNull()
			.references(() => oauthClients.id, { onDelete: 'cascade' }),
		/** The authorization request's query string, as the form carries it back. */
		request: text('request').notNull(),
		expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
	},
	(t) => [index('oauth_consent_requests_session').on(t.sessionId), index('oauth_consent_requests_client').on(t.clientId)],
)

/** Authorization codes (stored as SHA-256): single use, 60 seconds, bound to client, redirect, challenge and resource. */
export const oauthCodes = pgTable('oauth_codes', {
	id: text('id').primaryKey(),
	clientId: text('client_id')
		.notNull()
		.references(() => oauthClients.id),
	userId: text('user_id')
		.notNull()
		.references(() => users.id),
	workspaceId: text('workspace_id')
		.notNull()
		.references(() => workspaces.id),
	redirectUri: text('redirect_uri').notNull(),
	/** Whether the authorization request named `redirect_uri` (then the token request must send it too). */
	redirectUriSent: boolean('redirect_uri_sent').notNull().default(true),
	codeChallenge: text('code_challenge').notNull(),
	scope: text('scope').notNull(),
	readOnly: boolean('read_only').notNull(),
	resource: text('resource').notNull(),
	expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
	usedAt: timestamp('used_at', { withTimezone: true }),
	/** The grant created when the code was exchanged (revoked if the code is replayed). */
	grantId: text('grant_id'),
})

/** Access and refresh tokens (stored as SHA-256). */
export const oauthTokens = pgTable(
	'oauth_tokens',
	{
		id: text('id').primaryKey(),
		grantId: text('grant_id')
			.notNull()
			.references(() => oauthGrants.id),
		/** access or refresh. */
		kind: text('kind').notNull(),
		/** An access token issued for less than its grant (a refresh asking a narrower scope); null: the grant's scope. */
		scope: text('scope'),
		expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
		revokedAt: timestamp('revoked_at', { withTimezone: true }),
		/** For a rotated refresh token: when it was replaced, and its successors sealed with a key only the old token derives. */
		replacedAt: timestamp('replaced_at', { withTimezone: true }),
		successor: text('successor'),
	},
	(t) => [index('oauth_tokens_grant').on(t.grantId)],
)

/**
 * A workspace's single sign-on (OpenID Connect): the identity provider's issuer, the client Benchline
 * is registered as there (its secret sealed with a key derived from the server secret, bound to the
 * workspace: never stored or shown in plain text), the role a person signing in for the first time
 * gets, and whether only owners keep a password.
 */
export const ssoConfigs = pgTable('sso_configs', {
	workspaceId: text('workspace_id')
		.primaryKey()
		.references(() => workspaces.id),
	issuer: text('issuer').notNull(),
	clientId: text('client_id').notNull(),
	clientSecretSealed: text('client_secret_sealed').notNull(),
	newPersonRole: text('new_person_role').notNull().default('recruiter'),
	requireSso: boolean('require_sso').notNull().default(false),
	updatedAt: at('updated_at').notNull().defaultNow(),
	updatedBy: text('updated_by').references(() => users.id),
})

/**
 * The e-mail domains a workspace's single sign-on covers: only domains it proved it controls (the DNS
 * TXT record of its claim, `sso_domain_claims`, or an operator's `sso verify-domain`), one workspace
 * per domain (the primary key), so an address is never sent to, or attached by, another workspace's
 * provider. `verified_by` says how: `dns` or `operator`.
 */
export const ssoDomains = pgTable(
	'sso_domains',
	{
		domain: text('domain').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		verifiedAt: at('verified_at').notNull().defaultNow(),
		verifiedBy: text('verified_by').notNull().default('dns'),
	},
	(t) => [index('sso_domains_workspace').on(t.workspaceId)],
)

/**
 * The e-mail domains an owner listed for the workspace's single sign-on, verified or not, each with
 * its own random token: the TXT record `_benchline-challenge.<domain>` must say
 * `benchline-domain-verification=<token>` for the domain to be verified (then it is in `sso_domains`
 * too). A claim alone covers no one and blocks no one: several workspaces may claim one domain.
 */
export const ssoDomainClaims = pgTable(
	'sso_domain_claims',
	{
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		domain: text('domain').notNull(),
		token: text('token').notNull(),
		createdAt: at('created_at').notNull().defaultNow(),
	},
	(t) => [primaryKey({ columns: [t.workspaceId, t.domain] }), index('sso_domain_claims_domain').on(t.domain)],
)

/**
 * Which account at the identity provider (its issuer and `sub`) a person's first sign-in with the
 * workspace's single sign-on linked them to: a later sign-in for the same address with another `sub`
 * at the same issuer (an address the provider gave to someone else) is refused; and one provider
 * account is one person in a workspace (`sso_links_subject`): signing in with another person's
 * address (changed at the provider) opens no one's account but its own.
 */
export const ssoLinks = pgTable(
	'sso_links',
	{
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		userId: text('user_id')
			.notNull()
			.references(() => users.id),
		issuer: text('issuer').notNull(),
		subject: text('subject').notNull(),
		linkedAt: at('linked_at').notNull().defaultNow(),
	},
	(t) => [primaryKey({ columns: [t.workspaceId, t.userId] }), uniqueIndex('sso_links_subject').on(t.workspaceId, t.issuer, t.subject)],
)

/**
 * A sign-in sent to the identity provider and not yet back: the `state` (stored as its SHA-256,
 * used once: the callback deletes the row), the `nonce` the ID token must carry and the PKCE
 * verifier. Ten minutes, then swept.
 */
export const ssoSignIns = pgTable(
	'sso_sign_ins',
	{
		stateHash: text('state_hash').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		nonce: text('nonce').notNull(),
		codeVerifier: text('code_verifier').notNull(),
		next: text('next').notNull(),
		expiresAt: at('expires_at').notNull(),
	},
	(t) => [index('sso_sign_ins_expires').on(t.expiresAt)],
)

/** SCIM tokens (`bl_scim_…`) an owner made for the workspace's identity provider, stored only as SHA-256. */
export const scimTokens = pgTable(
	'scim_tokens',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		name: text('name').notNull(),
		tokenHash: text('token_hash').notNull(),
		lastFour: text('last_four').notNull(),
		createdBy: text('created_by').references(() => users.id),
		createdAt: at('created_at').notNull().defaultNow(),
		lastUsedAt: at('last_used_at'),
		revokedAt: at('revoked_at'),
		/** Why it was revoked (`ScimTokenRevocation`): by an owner, or because its creator left the workspace or is no longer an owner. */
		revokedReason: text('revoked_reason'),
	},
	(t) => [uniqueIndex('scim_tokens_hash').on(t.tokenHash), index('scim_tokens_workspace').on(t.workspaceId)],
)

/**
 * People the identity provider manages through SCIM in a workspace, with its `externalId` for them.
 * Whether they are active is their membership (removed: inactive, every way in ended); SCIM still
 * answers for a person it deactivated, so the provider can activate them again; deleting them
 * removes this row (their account and history stay).
 */
export const scimUsers = pgTable(
	'scim_users',
	{
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		userId: text('user_id')
			.notNull()
			.references(() => users.id),
		externalId: text('external_id'),
		/**
		 * The name's parts as the provider last sent them: the account keeps one name, and splitting it
		 * at its first space made "Mary Ann" "Mary" and lost "Ann" when only the family name changed.
		 */
		givenName: text('given_name'),
		familyName: text('family_name'),
		/**
		 * The `userName` as the provider sent it when it is not an e-mail address (Entra's mapping to an
		 * employee id, its validator's `Test_User_…`): the account's address is then the work address of
		 * `emails`, and the provider finds the person by this. Null: the userName is the address.
		 */
		userName: text('user_name'),
		createdAt: at('created_at').notNull().defaultNow(),
		updatedAt: at('updated_at').notNull().defaultNow(),
	},
	(t) => [primaryKey({ columns: [t.workspaceId, t.userId] })],
)
