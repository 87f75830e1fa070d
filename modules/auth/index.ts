import { contribute, defineModule, type RecordNames } from '../../core/module.ts'
import { textOf } from '../../core/untrusted.ts'
import { recordNamesFrom } from '../activity/index.ts'
import { workspaceDirectoryPort } from '../outbox/index.ts'
import { userNames } from './people.ts'
import { authCommands } from './commands.ts'
import { authRoutes } from './routes.ts'
import { startHousekeeping } from './housekeeping.ts'
import { resolvePageSession } from './sessions.ts'
import { verifyPersonalToken } from './tokens.ts'
import { verifyAccessToken } from './oauth/tokens.ts'
import { MANAGE_SSO, verifyScimToken } from './sso/scim-tokens.ts'
import { workspaceDirectory } from './workspaces.ts'
import { membershipPort } from './port.ts'
import * as tables from './table.ts'

export {
	addPerson,
	changeRole,
	createWorkspace,
	findWorkspace,
	requireWorkspace,
	listWorkspaces,
	listPeople,
	lockedMemberRole,
	operatorActor,
	personRef,
	removePerson,
	setGrants,
	userNames,
	workspacesById,
	workspaceSlugOf,
	type Workspace,
} from './people.ts'
export { acceptInvitation, cancelInvitation, declineInvitation, invitationsFor, invitePerson, listInvitations } from './invitations.ts'
export { createPersonalToken, personActor, revokePersonalToken } from './tokens.ts'
export { endAccessInWorkspace, signOutEverywhere, type EndedAccess } from './access.ts'
export { membershipPort, type MembershipChange, type MembershipListener } from './port.ts'
export { changePassword, setPasswordByOperator } from './passwords.ts'
export { requestPasswordReset, resetPassword } from './password-reset.ts'
export { profileOf, timeZonesOf, type Profile } from './profile.ts'

export default defineModule({
	name: 'auth',
	description:
		'Workspaces, people and roles, portal sign-in, single sign-on (OpenID Connect) and SCIM provisioning, personal tokens, and the OAuth 2.1 authorization server for assistant apps.',
	tables,
	migrations: new URL('./migrations/', import.meta.url),
	// The outbox carries the Forgot password mail.
	requires: ['activity', 'outbox'],
	checks: ['auth:manage_people', MANAGE_SSO],
	permissions: [
		{ key: 'auth:manage_people', description: 'Add and remove people, see everyone’s tokens', grantedTo: ['owner', 'admin'] },
		{ key: MANAGE_SSO, description: 'Set up single sign-on and SCIM provisioning', grantedTo: ['owner'] },
	],
	commands: authCommands,
	routes: authRoutes,
	paths: ['/.well-known', '/oauth', '/sign-in', '/sign-out', '/help', '/portal', '/settings', '/people', '/invitations', '/scim'],
	start: startHousekeeping,
	sessionResolver: resolvePageSession,
	ports: [membershipPort],
	contributes: [contribute(workspaceDirectoryPort, workspaceDirectory)],
	credentials: [
		{ prefix: 'bl_pat_', door: 'mcp', verify: verifyPersonalToken },
		{ prefix: 'bl_at_', door: 'mcp', verify: verifyAccessToken },
		{ prefix: 'bl_scim_', door: 'scim', verify: verifyScimToken },
	],
	nav: [
		{ href: '/portal', label: 'Home', section: 'work', order: 0 },
		{ href: '/settings/profile', label: 'Profile', order: 0 },
		{ href: '/settings/api', label: 'API access' },
		{ href: '/settings/password', label: 'Password' },
		{ href: '/settings/security', label: 'Security' },
		{ href: '/people', label: 'People', permission: 'auth:manage_people' },
		{ href: '/settings/sso', label: 'Single sign-on', permission: MANAGE_SSO },
	],
	activityLabels: {
		'person.added': 'added',
		'person.removed': 'removed',
		'person.grants_set': 'set the extra permissions of',
		'token.created': 'created the personal token',
		'token.revoked': 'revoked the personal token',
		'app.disconnected': 'disconnected the app',
		'person.password_changed': 'changed the password of',
		'person.password_reset': 'chose a new password with a reset link for',
		'person.password_set': 'set a new password for',
		'person.signed_out_everywhere': 'signed out everywhere',
		'person.session_ended': 'signed out a session of',
		'person.sessions_ended_elsewhere': 'signed out every other session of',
		'person.disconnected_everywhere': 'disconnected every app and personal token of',
		'person.time_zone_set': 'chose the time zone of',
		'scim_token.created': 'created the SCIM token',
		'scim_token.revoked': 'revoked the SCIM token',
		'person.provisioned': 'provisioned',
		'person.deactivated': 'deactivated',
		'person.reactivated': 'activated again',
		'person.deprovisioned': 'deprovisioned',
		'person.details_changed': 'changed the details of',
		'sso.configured': 'configured single sign-on',
		'sso.domain_verified': 'verified a single sign-on e-mail domain',
		'sso.provider_account_forgotten': 'forgot the identity provider account linked to',
	},
	recordNames: [
		{
			type: 'user',
			// The words alone (no reader): activity sentences name people in plain text.
			names: async (deps, _workspaceId, ids) => new Map([...(await userNames(deps.db, ids, {}))].map(([id, name]) => [id, { name: textOf(name) }])),
		} satisfies RecordNames,
		recordNamesFrom('personal_token', 'personal_tokens', 'r.name'),
		recordNamesFrom('scim_token', 'scim_tokens', 'r.name'),
	],
})
