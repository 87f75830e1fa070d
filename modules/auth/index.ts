import { defineModule } from '../../core/module.ts'
import { authCommands } from './commands.ts'
import { authRoutes } from './routes.ts'
import { startHousekeeping } from './housekeeping.ts'
import { resolvePageSession } from './sessions.ts'
import { verifyPersonalToken } from './tokens.ts'
import { verifyAccessToken } from './oauth/tokens.ts'

export { addPerson, createWorkspace, findWorkspace, requireWorkspace, listWorkspaces, listPeople, operatorActor, personRef, removePerson, userNames, type Workspace } from './people.ts'
export { createPersonalToken, personActor, revokePersonalToken } from './tokens.ts'

export default defineModule({
	name: 'auth',
	description: 'Workspaces, people and roles, portal sign-in, personal tokens, and the OAuth 2.1 authorization server for assistant apps.',
	requires: ['activity'],
	permissions: [{ key: 'auth:manage_people', description: 'Add and remove people, see everyone’s tokens', grantedTo: ['owner', 'admin'] }],
	commands: authCommands,
	routes: authRoutes,
	start: startHousekeeping,
	sessionResolver: resolvePageSession,
	credentials: [
		{ prefix: 'bl_pat_', door: 'mcp', verify: verifyPersonalToken },
		{ prefix: 'bl_at_', door: 'mcp', verify: verifyAccessToken },
	],
	nav: [
		{ href: '/portal', label: 'Home' },
		{ href: '/settings/api', label: 'API access' },
		{ href: '/people', label: 'People', permission: 'auth:manage_people' },
	],
})
