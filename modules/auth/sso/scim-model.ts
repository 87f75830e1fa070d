/**
 * SCIM 2.0 (RFC 7643) as Benchline shows it: the resources (a person as a `User`, a role as a
 * `Group`), and the discovery documents (`ServiceProviderConfig`, `ResourceTypes`, `Schemas`).
 * Only shapes here; the rules are in scim-users.ts and scim-groups.ts.
 */
import type { PersonRole } from '../../../core/actor.ts'
import { PERSON_ROLES } from '../../../core/actor.ts'
import { SCIM_MEDIA_TYPE } from '../../../core/http/media-type.ts'

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User'
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group'
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse'
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'
export const SEARCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest'
/** What SCIM answers (a client asking only for application/json gets that: core/http/media-type.ts). */
export const SCIM_CONTENT_TYPE = SCIM_MEDIA_TYPE

/** The groups are the roles, named as the portal names them; a group's id is the role's key. */
export const GROUP_NAMES: Record<PersonRole, string> = {
	owner: 'Owner',
	admin: 'Admin',
	recruiter: 'Recruiter',
	hiring_manager: 'Hiring manager',
	viewer: 'Viewer',
}

/** The role a group name stands for (case and spacing ignored: "hiring manager", "Hiring_Manager"), or null. */
export function roleOfGroup(nameOrId: string): PersonRole | null {
	const key = nameOrId
		.trim()
		.toLowerCase()
		.replace(/[\s-]+/g, '_')
	return PERSON_ROLES.find((r) => r === key) ?? null
}

export interface ScimPerson {
	userId: string
	email: string
	name: string
	role: string
	active: boolean
	externalId: string | null
	/** The userName the provider sent when it is no address (scim_users.user_name); null: the address is the userName. */
	userName: string | null
	/** The name's parts as the provider sent them, if it did (`nameParts`). */
	givenName: string | null
	familyName: string | null
	created: Date
	lastModified: Date
}

const location = (baseUrl: string, type: 'Users' | 'Groups', id: string) => `${baseUrl}/scim/v2/${type}/${encodeURIComponent(id)}`

/**
 * The name's given and family parts: as the provider sent them while they still make the person's
 * name, else the name split at its first space (a name changed elsewhere, or never sent in parts).
 */
export function nameParts(p: Pick<ScimPerson, 'name' | 'givenName' | 'familyName'>): { givenName: string; familyName: string } {
	const sent = { givenName: p.givenName ?? '', familyName: p.familyName ?? '' }
	if ((p.givenName !== null || p.familyName !== null) && `${sent.givenName} ${sent.familyName}`.trim() === p.name) return sent
	const [givenName, ...rest] = p.name.split(' ')
	return { givenName: givenName ?? '', familyName: rest.join(' ') }
}

/** A person as a SCIM User: `userName` is their e-mail address (or the one the provider sent instead), `groups` their role. */
export function userResource(baseUrl: string, p: ScimPerson) {
	const { givenName, familyName } = nameParts(p)
	return {
		schemas: [USER_SCHEMA],
		id: p.userId,
		...(p.externalId ? { externalId: p.externalId } : {}),
		userName: p.userName ?? p.email,
		name: { formatted: p.name, givenName, familyName },
		displayName: p.name,
		emails: [{ value: p.email, type: 'work', primary: true }],
		active: p.active,
		groups: p.active ? [{ value: p.role, display: GROUP_NAMES[p.role as PersonRole] ?? p.role, $ref: location(baseUrl, 'Groups', p.role) }] : [],
		meta: {
			resourceType: 'User',
			created: p.created.toISOString(),
			lastModified: p.lastModified.toISOString(),
			location: location(baseUrl, 'Users', p.userId),
		},
	}
}

export function groupResource(baseUrl: string, role: PersonRole, members: { userId: string; name: string }[] | null) {
	return {
		schemas: [GROUP_SCHEMA],
		id: role,
		displayName: GROUP_NAMES[role],
		...(members ? { members: members.map((m) => ({ value: m.userId, display: m.name, $ref: location(baseUrl, 'Users', m.userId) })) } : {}),
		meta: { resourceType: 'Group', location: location(baseUrl, 'Groups', role) },
	}
}

export function listResponse(resources: unknown[], total: number, startIndex: number) {
	return { schemas: [LIST_SCHEMA], totalResults: total, startIndex, itemsPerPage: resources.length, Resources: resources }
}

export const MAX_PAGE = 200

export function serviceProviderConfig(baseUrl: string) {
	return {
		// No `documentationUri` (optional, RFC 7643 §5): `/help#scim` was named, and no such page exists.
		schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
		patch: { supported: true },
		bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
		filter: { supported: true, maxResults: MAX_PAGE },
		changePassword: { supported: false },
		sort: { supported: false },
		etag: { supported: false },
		authenticationSchemes: [
			{
				type: 'oauthbearertoken',
				name: 'SCIM token',
				description: 'A bearer token an owner creates at /settings/sso (Authorization: Bearer bl_scim_…)',
				specUri: 'https://www.rfc-editor.org/info/rfc6750',
				primary: true,
			},
		],
		meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/scim/v2/ServiceProviderConfig` },
	}
}

export function resourceTypes(baseUrl: string) {
	return [
		{
			schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
			id: 'User',
			name: 'User',
			endpoint: '/Users',
			description: 'A person in the workspace (userName: their e-mail address)',
			schema: USER_SCHEMA,
			meta: { resourceType: 'ResourceType', location: `${baseUrl}/scim/v2/ResourceTypes/User` },
		},
		{
			schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
			id: 'Group',
			name: 'Group',
			endpoint: '/Groups',
			description: 'A role in the workspace: Owner, Admin, Recruiter, Hiring manager, Viewer; membership sets the role',
			schema: GROUP_SCHEMA,
			meta: { resourceType: 'ResourceType', location: `${baseUrl}/scim/v2/ResourceTypes/Group` },
		},
	]
}

const attribute = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
	name,
	type,
	multiValued: false,
	required: false,
	caseExact: false,
	mutability: 'readWrite',
	returned: 'default',
	uniqueness: 'none',
	...extra,
})

/** The `$ref` of a group's member or a user's group: the URI of that resource (RFC 7643 §2.3.7). */
const reference = (to: 'User' | 'Group', extra: Record<string, unknown>) => attribute('$ref', 'reference', { referenceTypes: [to], caseExact: true, ...extra })

export function schemas(baseUrl: string) {
	return [
		{
			schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
			id: USER_SCHEMA,
			name: 'User',
			description: 'A person in the workspace',
			attributes: [
				attribute('userName', 'string', {
					required: true,
					uniqueness: 'server',
					description: 'The person’s work e-mail address; another text is kept as sent when emails holds the work address, which is then the account’s',
				}),
				attribute('externalId', 'string', { caseExact: true }),
				attribute('displayName', 'string'),
				attribute('name', 'complex', {
					subAttributes: [attribute('formatted', 'string'), attribute('givenName', 'string'), attribute('familyName', 'string')],
				}),
				attribute('emails', 'complex', {
					multiValued: true,
					subAttributes: [attribute('value', 'string'), attribute('type', 'string'), attribute('primary', 'boolean')],
				}),
				attribute('active', 'boolean', { description: 'false: the person’s sessions, personal tokens and app connections end at once' }),
				attribute('groups', 'complex', {
					multiValued: true,
					mutability: 'readOnly',
					subAttributes: [
						attribute('value', 'string', { mutability: 'readOnly' }),
						attribute('display', 'string', { mutability: 'readOnly' }),
						reference('Group', { mutability: 'readOnly' }),
					],
				}),
			],
			meta: { resourceType: 'Schema', location: `${baseUrl}/scim/v2/Schemas/${USER_SCHEMA}` },
		},
		{
			schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
			id: GROUP_SCHEMA,
			name: 'Group',
			description: 'A role; its members have that role in the workspace',
			attributes: [
				attribute('displayName', 'string', { required: true, mutability: 'readOnly', uniqueness: 'server' }),
				attribute('members', 'complex', {
					multiValued: true,
					subAttributes: [
						attribute('value', 'string', { mutability: 'immutable' }),
						attribute('display', 'string', { mutability: 'readOnly' }),
						reference('User', { mutability: 'immutable' }),
					],
				}),
			],
			meta: { resourceType: 'Schema', location: `${baseUrl}/scim/v2/Schemas/${GROUP_SCHEMA}` },
		},
	]
}
