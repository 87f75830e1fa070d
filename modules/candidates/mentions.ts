/**
 * Mentions in notes: `@` and a colleague's name notifies them.
 *
 * Rules:
 * - `@` followed by a colleague's full name (`@Dana Lee`), their e-mail name (`@dana.lee`) or their
 *   first name (`@Dana`), in any case, mentions them, when no other colleague goes by that name (a
 *   first name, full name or e-mail name alike). An `@` inside a word (an e-mail address) is not a
 *   mention; `@` and a name nobody has, or more than one has, is left as text.
 * - Only people who may see the note can be mentioned (the rules of `noteReach`): owners and
 *   admins always; recruiters a shared note; hiring managers a shared note about an application of a
 *   job on whose hiring team they are; viewers never. Mentioning anyone else refuses the note and
 *   names them with the reason for their role (a viewer is not told about hiring teams), so a
 *   private note never tells someone it exists.
 */
import { isAdmin, type Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { invalid } from '../../core/errors.ts'
import { listPeople } from '../auth/index.ts'
import { teamJobIds } from '../jobs/index.ts'

export interface Colleague {
	userId: string
	name: string
	email: string
	role: string
}

const squash = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase()
const WORD = /[\p{L}\p{N}_]/u

/**
 * The names each colleague can be mentioned by, longest first (so `@Dana Lee` wins over `@Dana`). A
 * name more than one colleague goes by (a first name two share, or one person's e-mail name that is
 * another's first or full name) is nobody's: it is left as text, as an ambiguous first name always was,
 * rather than going to whoever sorts first.
 */
function aliases(people: readonly Colleague[]): { alias: string; userId: string }[] {
	const owners = new Map<string, Set<string>>()
	for (const p of people) {
		const full = squash(p.name)
		for (const alias of [full, full.split(' ')[0]!, p.email.split('@')[0]!.toLowerCase()])
			if (alias) owners.set(alias, (owners.get(alias) ?? new Set()).add(p.userId))
	}
	return [...owners]
		.filter(([, ids]) => ids.size === 1)
		.map(([alias, ids]) => ({ alias, userId: [...ids][0]! }))
		.sort((a, b) => b.alias.length - a.alias.length)
}

/** The colleagues a text mentions, each once, in the order first mentioned. */
export function mentionedIn(text: string, people: readonly Colleague[]): string[] {
	const names = aliases(people)
	const lower = text.toLowerCase().replace(/\s+/g, ' ')
	const found: string[] = []
	for (let i = lower.indexOf('@'); i >= 0; i = lower.indexOf('@', i + 1)) {
		if (i > 0 && WORD.test(lower[i - 1]!)) continue
		const rest = lower.slice(i + 1)
		const hit = names.find((n) => rest.startsWith(n.alias) && !WORD.test(rest[n.alias.length] ?? ''))
		if (hit && !found.includes(hit.userId)) found.push(hit.userId)
	}
	return found
}

/**
 * The people a new note mentions, checked: throws VALIDATION (field `text`) naming everyone who
 * could not see the note. `jobId` is the job of the application the note is about, if any.
 */
export async function mentionsOf(deps: AppDeps, actor: Actor, note: { text: string; private: boolean; jobId: string | null }): Promise<string[]> {
	if (!note.text.includes('@')) return []
	const people = await listPeople(deps.db, actor.workspaceId)
	const mentioned = mentionedIn(note.text, people).filter((id) => id !== actor.userId)
	// The people who could not see it, by the reason: each is told for their own role.
	const blocked = new Map<string, string[]>()
	for (const userId of mentioned) {
		const p = people.find((x) => x.userId === userId)!
		const why = await unseenBecause(deps, actor.workspaceId, p, note)
		if (why) blocked.set(why, [...(blocked.get(why) ?? []), p.name])
	}
	if (blocked.size) {
		const count = [...blocked.values()].flat().length
		const who = [...blocked].map(([why, names]) => `${names.join(', ')}, who cannot see ${why}`).join('; and ')
		throw invalid([{ field: 'text', message: `mentions ${who}: remove the mention${count > 1 ? 's' : ''}` }])
	}
	return mentioned
}

/**
 * What a colleague cannot see when the note is out of their reach (the rules of `noteReach`, for a
 * note not written by them), in words for their role; null when they may read it.
 */
async function unseenBecause(deps: AppDeps, workspaceId: string, p: Colleague, note: { private: boolean; jobId: string | null }): Promise<string | null> {
	if (isAdmin({ role: p.role } as Actor)) return null
	if (note.private) return 'a private note'
	if (p.role === 'recruiter') return null
	if (p.role !== 'hiring_manager') return 'notes (viewers read jobs only)'
	if (note.jobId === null) return 'a note about the candidate in general (hiring managers see notes about their jobs’ applications)'
	if ((await teamJobIds(deps, workspaceId, p.userId)).includes(note.jobId)) return null
	return 'this note (hiring managers see notes about the applications of jobs on whose hiring team they are)'
}
