/** Demo saved searches: a few realistic ones per person, on the lists their role works with. */
import type { AppDeps } from '../../core/deps.ts'
import type { WorkspaceRef } from '../../core/module.ts'
import { seededId, seededRandom } from '../../core/seed-random.ts'
import { listPeople } from '../auth/index.ts'
import type { SearchList } from './service.ts'
import { savedSearches } from './table.ts'

const IDEAS: { list: SearchList; name: string; query: string; filters?: Record<string, string>; roles: string[] }[] = [
	// The candidate searches are the words and filters of /candidates (its saved searches are links that
	// run them), and each finds demo candidates whatever the workspace's seed draws
	// (tests/demo-saved-searches.test.ts): its words are a role family's must-haves and its filters
	// ones that family's model candidate meets (candidates/seed-data.ts), never a place or a rarer
	// spelling ("java spring tx" and "devops terraform" with USC or GC each found nobody in one CI
	// run's seed before every family had a model candidate); no demo résumé says "LWC".
	{ list: 'candidates', name: 'Java developers', query: 'java', roles: ['owner', 'admin', 'recruiter'] },
	{ list: 'candidates', name: 'Salesforce with Apex', query: 'salesforce apex', filters: { sort: 'name' }, roles: ['owner', 'admin', 'recruiter'] },
	{
		list: 'candidates',
		name: 'Green card or citizen, DevOps',
		query: 'devops terraform',
		filters: { workAuthorization: 'USC,GC' },
		roles: ['owner', 'admin', 'recruiter'],
	},
	{
		list: 'bench',
		name: 'Data engineers available now',
		query: 'snowflake dbt airflow',
		filters: { roleFamily: 'dataeng' },
		roles: ['owner', 'admin', 'recruiter'],
	},
	{ list: 'bench', name: 'Cloud and SRE bench', query: 'kubernetes azure', roles: ['owner', 'admin', 'recruiter'] },
	{ list: 'jobs', name: 'Open remote roles', query: 'remote', filters: { status: 'Open' }, roles: ['owner', 'admin', 'recruiter', 'hiring_manager', 'viewer'] },
	{ list: 'jobs', name: 'Drafts to review', query: '', filters: { status: 'Draft' }, roles: ['owner', 'admin'] },
	{ list: 'applications', name: 'New this week', query: '', filters: { stageKey: 'applied' }, roles: ['owner', 'admin', 'recruiter', 'hiring_manager'] },
	{
		list: 'pipeline',
		name: 'Client interviews pending',
		query: '',
		filters: { stageKey: 'client_interview' },
		roles: ['owner', 'admin', 'recruiter', 'hiring_manager'],
	},
	{
		list: 'assessments',
		name: 'AI interviews to review',
		query: '',
		filters: { status: 'completed' },
		roles: ['owner', 'admin', 'recruiter', 'hiring_manager'],
	},
	{ list: 'inbox', name: 'Unread candidate replies', query: '', filters: { filter: 'unread' }, roles: ['owner', 'admin', 'recruiter'] },
	{ list: 'vendors', name: 'Partners taking C2C', query: 'c2c', roles: ['owner', 'admin', 'recruiter'] },
	// Privacy requests are the owners' (privacy:requests): a search on them is kept only for who reads them.
	{ list: 'privacy', name: 'Deletion requests', query: 'delete my data', roles: ['owner'] },
	{ list: 'accounts', name: 'Hiring managers', query: '', filters: { role: 'hiring_manager' }, roles: ['owner', 'admin'] },
]

export async function seedSavedSearches(deps: AppDeps, ws: WorkspaceRef): Promise<void> {
	const rows = []
	for (const p of await listPeople(deps.db, ws.id)) {
		const rnd = seededRandom(`saved-searches:${ws.id}:${p.userId}`)
		const lists = new Set<string>()
		for (const [i, idea] of IDEAS.entries()) {
			if (!idea.roles.includes(p.role)) continue
			// Everyone gets at least one search on each list their role works with; the rest by chance.
			if (lists.has(idea.list) && !rnd.chance(0.75)) continue
			lists.add(idea.list)
			const createdAt = new Date(Date.now() - rnd.int(2, 50) * 86_400_000)
			rows.push({
				id: seededId('ss', ws.id, `${p.userId}:${i}`),
				workspaceId: ws.id,
				userId: p.userId,
				list: idea.list,
				name: idea.name,
				query: idea.query,
				filters: idea.filters ?? {},
				createdAt,
				updatedAt: createdAt,
			})
		}
	}
	if (rows.length) await deps.db.insert(savedSearches).values(rows).onConflictDoNothing()
}
