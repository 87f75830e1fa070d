import type { CommandDef } from '../../core/module.ts'
import { setPasswordByOperator } from './passwords.ts'
import { addPerson, createWorkspace, listPeople, listWorkspaces, operatorActor, removePerson, requireWorkspace, setGrants } from './people.ts'
import { allClaims, verifyDomainByOperator } from './sso/domain-verification.ts'
import { createPersonalToken, personActor } from './tokens.ts'

/** `--grant` given once or more, each a permission or several with commas: the permissions named. */
const grantList = (option: string | boolean | undefined): string[] =>
	typeof option === 'string'
		? option
				.split(',')
				.map((g) => g.trim())
				.filter(Boolean)
		: []

export const authCommands: CommandDef[] = [
	{
		name: 'workspace create',
		usage: 'workspace create --slug S --name N [--json]',
		options: { slug: 'string', name: 'string' },
		required: ['slug', 'name'],
		async run(deps, o) {
			const ws = await createWorkspace(deps, { slug: String(o.slug), name: String(o.name) })
			return { json: { workspaceId: ws.id }, lines: [`Created workspace "${ws.name}" (${ws.slug}): ${ws.id}`] }
		},
	},
	{
		name: 'workspace list',
		usage: 'workspace list [--json]',
		options: {},
		async run(deps) {
			const list = await listWorkspaces(deps.db)
			return {
				json: { workspaces: list.map((w) => ({ workspaceId: w.id, slug: w.slug, name: w.name })) },
				lines: list.length ? list.map((w) => `${w.slug}  ${w.name}  (${w.id})`) : ['No workspace yet: create one with `workspace create --slug S --name N`.'],
			}
		},
	},
	{
		name: 'user list',
		usage: 'user list --workspace S [--json]',
		options: { workspace: 'string' },
		required: ['workspace'],
		async run(deps, o) {
			const ws = await requireWorkspace(deps.db, String(o.workspace))
			// Members only: an invitation not yet accepted is no user of the workspace.
			const people = await listPeople(deps.db, ws.id)
			return {
				json: { users: people.map((p) => ({ userId: p.userId, email: p.email, name: p.name, role: p.role })) },
				lines: people.length ? people.map((p) => `${p.email}  ${p.name}  ${p.role}  (${p.userId})`) : [`No one is in ${ws.slug} yet.`],
			}
		},
	},
	{
		name: 'user set-password',
		usage: 'user set-password --workspace S --email E --password P [--json]',
		options: { workspace: 'string', email: 'string', password: 'string' },
		required: ['workspace', 'email', 'password'],
		async run(deps, o) {
			const ws = await requireWorkspace(deps.db, String(o.workspace))
			const { userId } = await setPasswordByOperator(deps, ws, { email: String(o.email), password: String(o.password) })
			return { json: { userId }, lines: [`Set a new password for ${o.email}; their sessions ended, and they sign in with it (it is not temporary).`] }
		},
	},
	{
		name: 'user create',
		usage: 'user create --workspace S --email E --name N --role owner|admin|recruiter|hiring_manager|viewer --password P [--grant PERMISSION] [--json]',
		options: { workspace: 'string', email: 'string', name: 'string', role: 'string', password: 'string', grant: 'list' },
		required: ['workspace', 'email', 'name', 'role', 'password'],
		async run(deps, o) {
			const ws = await requireWorkspace(deps.db, String(o.workspace))
			const grants = grantList(o.grant)
			const { userId, created } = await addPerson(deps, operatorActor(ws), ws, {
				email: String(o.email),
				name: String(o.name),
				role: String(o.role),
				password: String(o.password),
				grants,
			})
			const note = created ? '' : ' (existing account added; its password is unchanged)'
			return { json: { userId }, lines: [`Added ${o.email} to ${ws.slug} as ${o.role}${note}: ${userId}`] }
		},
	},
	{
		name: 'user set-grants',
		usage: 'user set-grants --workspace S --email E [--grant PERMISSION] [--json]',
		options: { workspace: 'string', email: 'string', grant: 'list' },
		required: ['workspace', 'email'],
		async run(deps, o) {
			const ws = await requireWorkspace(deps.db, String(o.workspace))
			const { userId, grants, alreadyInRole } = await setGrants(deps, operatorActor(ws), ws, { email: String(o.email) }, grantList(o.grant))
			const skipped = alreadyInRole.length ? ` (${alreadyInRole.join(', ')}: already in their role, not kept)` : ''
			return {
				json: { userId, grants, alreadyInRole },
				lines: [`${o.email} now has ${grants.length ? `the extra permissions ${grants.join(', ')}` : 'no extra permissions'} in ${ws.slug}${skipped}`],
			}
		},
	},
	{
		name: 'user remove',
		usage: 'user remove --workspace S --email E [--json]',
		options: { workspace: 'string', email: 'string' },
		required: ['workspace', 'email'],
		async run(deps, o) {
			const ws = await requireWorkspace(deps.db, String(o.workspace))
			const { userId } = await removePerson(deps, operatorActor(ws), ws, { email: String(o.email) })
			return { json: { userId, removed: true }, lines: [`${o.email} left ${ws.slug}; their sessions and tokens stopped working`] }
		},
	},
]

authCommands.push({
	name: 'token create',
	usage: 'token create --workspace S --email E --name N [--json]',
	options: { workspace: 'string', email: 'string', name: 'string' },
	required: ['workspace', 'email', 'name'],
	async run(deps, o) {
		const actor = await personActor(deps, String(o.workspace), String(o.email))
		const { tokenId, token } = await createPersonalToken(deps, actor, { name: String(o.name) })
		return { json: { tokenId, token }, lines: [`Created personal token ${tokenId} for ${o.email}.`, `Token (shown once, keep it secret): ${token}`] }
	},
})

// Single sign-on domains, for operators: an install upgraded from before domains were verified has
// every domain its owners listed unverified (the migration cannot tell a genuine claim from another
// firm's domain); an operator who knows a claim is genuine verifies it without DNS.
authCommands.push(
	{
		name: 'sso list-domains',
		usage: 'sso list-domains [--json]',
		options: {},
		async run(deps) {
			const claims = await allClaims(deps.db)
			const slugs = new Map((await listWorkspaces(deps.db)).map((w) => [w.id, w.slug]))
			const rows = claims.map((c) => ({ domain: c.domain, workspace: slugs.get(c.workspaceId) ?? c.workspaceId, status: c.status }))
			return {
				json: { domains: rows },
				lines: rows.length ? rows.map((r) => `${r.domain}  ${r.workspace}  ${r.status}`) : ['No workspace lists a single sign-on domain.'],
			}
		},
	},
	{
		name: 'sso verify-domain',
		usage: 'sso verify-domain --workspace S --domain D [--json]',
		options: { workspace: 'string', domain: 'string' },
		required: ['workspace', 'domain'],
		async run(deps, o) {
			const ws = await requireWorkspace(deps.db, String(o.workspace))
			const { domain, result } = await verifyDomainByOperator(deps, ws, { domain: String(o.domain) })
			return {
				json: { workspaceId: ws.id, domain, verified: true, already: result === 'already' },
				lines: [
					result === 'already'
						? `${domain} was already verified for ${ws.slug}.`
						: `${domain} is verified for ${ws.slug}: its addresses sign in with that workspace's single sign-on, and its SCIM attaches their accounts.`,
				],
			}
		},
	},
)
