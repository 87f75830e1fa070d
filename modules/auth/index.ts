import { defineModule } from '../../core/module.ts'
import { authCommands } from './commands.ts'

export { addPerson, createWorkspace, findWorkspace, requireWorkspace, listWorkspaces, operatorActor, removePerson, type Workspace } from './people.ts'

export default defineModule({
	name: 'auth',
	description: 'Workspaces, people and roles, portal sign-in, personal tokens.',
	requires: ['activity'],
	permissions: [{ key: 'auth:manage_people', description: 'Add and remove people, see everyone’s tokens', grantedTo: ['owner', 'admin'] }],
	commands: authCommands,
})
