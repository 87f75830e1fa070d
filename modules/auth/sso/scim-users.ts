/**
 * SCIM provisioning of people (RFC 7644): the identity provider creates, changes, deactivates and
 * deletes the people of one workspace.
 *
 * Rules:
 * - `userName` is the person's e-mail address (one account per address across workspaces). A
 *   userName that is no address, sent with the work address in `emails` (Entra mapped to an employee
 *   id, its validator's `Test_User_…`), is kept as sent for this workspace (`scim_users.user_name`,
 *   unique here in any case) and the account's address is the work one.
 * - A new address gets an account with no usable password (they sign in with single sign-on, or
 *   choose a password with Forgot password); an address whose domain another workspace's single
 *   sign-on covers is never created or attached here. An existing account is attached only when its
 *   domain is one this workspace's single sign-on covers (the firm owns those addresses); anyone
 *   else joins by accepting an invitation.
 * - A new person gets the role single sign-on gives new people (default Recruiter); the groups set roles.
 * - The account's own fields (e-mail address, name) are the person's in every workspace they are in:
 *   changed here only while no other workspace holds the account (else refused, `mutability`); a
 *   workspace whose SCIM deactivated the person still holds it, as it can activate them again. A PUT
 *   ignores such a name and applies the rest (RFC 7644 §3.5.1); a PATCH naming it is refused. A request
 *   that deactivates ignores such a name and address, whatever its method: the deactivation applies.
 *   A new address leaves the password unvouched for and uses up reset links sent to the old one
 *   (`changeEmail`).
 * - `active: false` and delete remove the membership and end at once every session, personal token
 *   and app connection of the person in this workspace (their next request is refused); their
 *   account, notes and activity stay under their name. The owner rules of the people page hold:
 *   the last owner is never deactivated. A PUT that leaves `active` out keeps the person as they are:
 *   only an explicit `active: true` gives access back (`replaceScimUser`).
 * - Addresses are kept and compared with their domain in its one form (core/email.ts): a userName
 *   typed `lee@Bücher.example` is `lee@xn--bcher-kva.example`, covered by that domain's verification.
 * - SCIM sees the workspace's members and the people it deactivated (to activate them again).
 */
import { and, count, eq, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm'
import type { Actor } from '../../../core/actor.ts'
import { newId, randomToken } from '../../../core/credentials.ts'
import type { AppDeps } from '../../../core/deps.ts'
import { AppError, invalid } from '../../../core/errors.ts'
import type { Db } from '../../../db/client.ts'
import { recordActivity } from '../../activity/index.ts'
import { endMembership, endInvitationPassword, settleInvitations, type EndedAccess } from '../access.ts'
import { lockOwnersAnd, requireActingOwner } from '../owners.ts'
import { memberships, scimUsers, ssoConfigs, users } from '../table.ts'
import { addressTaken, heldElsewhere, moveAccountAddress } from './account-address.ts'
import { domainOf, emailProblem, normalEmail } from '../../../core/email.ts'
import { requireNotClaimedElsewhere } from './domains.ts'
import { booleanOf, filterTerms, textOf, unsupportedFilter, valueFilterOf, type FilterTerm } from './scim-filter.ts'
import { MAX_PAGE, USER_SCHEMA, type ScimPerson } from './scim-model.ts'
import { hashPassword } from '../password-hash.ts'
import { typedLine } from '../../../core/untrusted.ts'

/** What a SCIM request says about a person (after reading its JSON). */
export interface ScimUserInput {
	/** The account's e-mail address. */
	userName?: string
	/** The userName as sent when it is no address (`userName` is then the work address); null: the address is the userName. */
	userNameText?: string | null
	name?: string
	/** The parts the name was made of, when the provider sent parts (kept beside it: `nameParts`); null: none. */
	givenName?: string | null
	familyName?: string | null
	externalId?: string | null
	active?: boolean
}

const personColumns = {
	userId: users.id,
	email: users.email,
	name: users.name,
	role: memberships.role,
	removedAt: memberships.removedAt,
	externalId: scimUsers.externalId,
	userNameText: scimUsers.userName,
	givenName: scimUsers.givenName,
	familyName: scimUsers.familyName,
	created: memberships.createdAt,
	scimUpdated: scimUsers.updatedAt,
}

interface Row {
	userId: string
	email: string
	name: string
	role: string
	removedAt: Date | null
	externalId: string | null
	userNameText: string | null
	givenName: string | null
	familyName: string | null
	created: Date
	scimUpdated: Date | null
}

const toPerson = (r: Row): ScimPerson => ({
	userId: r.userId,
	email: r.email,
	name: r.name,
	role: r.role,
	active: r.removedAt === null,
	externalId: r.externalId,
	userName: r.userNameText,
	givenName: r.givenName,
	familyName: r.familyName,
	created: r.created,
	lastModified: [r.created, r.scimUpdated, r.removedAt].filter((d): d is Date => d instanceof Date).sort((a, b) => b.getTime() - a.getTime())[0]!,
})

/** The people SCIM sees in the workspace, narrowed by `where`. */
function visible(db: Db, workspaceId: string, where?: SQL) {
	return db
		.select(personColumns)
		.from(memberships)
		.innerJoin(users, eq(users.id, memberships.userId))
		.leftJoin(scimUsers, and(eq(scimUsers.workspaceId, memberships.workspaceId), eq(scimUsers.userId, memberships.userId)))
		.where(and(eq(memberships.workspaceId, workspaceId), or(isNull(memberships.removedAt), isNotNull(scimUsers.userId)), where))
}

const visibleCount = (db: Db, workspaceId: string, where?: SQL) =>
	db
		.select({ n: count() })
		.from(memberships)
		.leftJoin(scimUsers, and(eq(scimUsers.workspaceId, memberships.workspaceId), eq(scimUsers.userId, memberships.userId)))
		.innerJoin(users, eq(users.id, memberships.userId))
		.where(and(eq(memberships.workspaceId, workspaceId), or(isNull(memberships.removedAt), isNotNull(scimUsers.userId)), where))

export async function getScimUser(deps: AppDeps, actor: Actor, userId: string, db: Db = deps.db): Promise<ScimPerson> {
	const [row] = await visible(db, actor.workspaceId, eq(users.id, userId))
	if (!row) throw new AppError('NOT_FOUND', `User ${userId} not found`)
	return toPerson(row as Row)
}

const USER_FILTERS = 'userName, externalId, id, displayName or emails[type eq "work"].value eq "…", emails[value eq "…"], or active eq true'
const EMAIL_FILTERS = 'type eq "work", primary eq true or value eq "…"'

/**
 * `filter` (RFC 7644 §3.4.2.2): what providers send to find a person before creating them, `eq`
 * terms joined by `and`. `userName`, `displayName` and the address are compared in any case (they
 * are not `caseExact`); `externalId` and `id` exactly.
 */
export function parseUserFilter(filter: string | undefined): SQL | undefined {
	const terms = filterTerms(filter, USER_SCHEMA, USER_FILTERS)
	return terms.length ? and(...terms.map(userCondition)) : undefined
}

function userCondition(term: FilterTerm): SQL {
	switch (term.path) {
		case 'username':
			// The userName kept as sent, else the address.
			return or(userNameIs(textOf(term)), and(isNull(scimUsers.userName), eq(users.email, normalEmail(textOf(term)))))!
		case 'externalid':
			return eq(scimUsers.externalId, textOf(term))
		case 'id':
			return eq(users.id, textOf(term))
		case 'displayname':
			return sql`lower(${users.name}) = lower(${textOf(term)})`
		case 'active':
			return booleanOf(term) ? isNull(memberships.removedAt) : isNotNull(memberships.removedAt)
	}
	return emailCondition(term)
}

/**
 * `emails`, `emails.value`, `emails[type eq "work"].value`, or a value filter alone
 * (`emails[type eq "work" and value eq "…"]`, RFC 7644 §3.4.2.2): Benchline keeps one address, the
 * work address (the userName); a filter on another one (`type eq "home"`) finds nobody.
 */
function emailCondition(term: FilterTerm): SQL {
	const address = (value: string) => eq(users.email, normalEmail(value))
	if (term.path === 'emails' || term.path === 'emails.value') return address(textOf(term))
	const filtered = valueFilterOf(term.path, EMAIL_FILTERS)
	if (filtered?.attribute !== 'emails' || (filtered.sub !== undefined && filtered.sub !== 'value'))
		throw unsupportedFilter(`${term.path} is not supported: use ${USER_FILTERS}`)
	// Alone, the value filter itself is the condition; compared (`emails[…].value eq "…"`), the address is too.
	const conditions = term.value === undefined && filtered.sub === undefined ? [] : [address(textOf(term))]
	for (const inner of filtered.terms) {
		if (inner.path === 'value') conditions.push(address(textOf(inner)))
		else if (inner.path === 'type' && textOf(inner).toLowerCase() !== 'work') return sql`false`
		else if (inner.path === 'primary' && !booleanOf(inner)) return sql`false`
		else if (!['value', 'type', 'primary'].includes(inner.path)) throw unsupportedFilter(`${term.path} is not supported: use ${EMAIL_FILTERS}`)
	}
	// `emails[type eq "work"]` alone: everyone has a work address.
	return and(sql`true`, ...conditions)!
}

const userNameIs = (text: string) => sql`lower(${scimUsers.userName}) = lower(${text})`

/** RFC 7643 `uniqueness: server`: a userName kept as sent that another person here has is 409 `uniqueness`. */
async function requireUserNameFree(tx: Db, workspaceId: string, text: string, userId?: string): Promise<void> {
	const [taken] = await tx
		.select({ userId: scimUsers.userId })
		.from(scimUsers)
		.where(and(eq(scimUsers.workspaceId, workspaceId), userNameIs(text), userId ? ne(scimUsers.userId, userId) : undefined))
	if (taken) throw new AppError('CONFLICT', `A user with userName ${text} already exists`)
}

export interface Page {
	startIndex: number
	count: number
}

/** Far past any workspace's people: a larger startIndex is brought down to it (it also bounds the query's OFFSET). */
const MAX_START_INDEX = 2 ** 31 - 1

/** An integer query parameter (absent or blank: undefined); any length of digits is read, the caller brings it into range. */
function integerParameter(value: string | undefined, field: string): number | undefined {
	const text = (value ?? '').trim()
	if (text === '') return undefined
	if (!/^[+-]?\d+$/.test(text)) throw invalid([{ field, message: 'must be an integer' }])
	return Number(text)
}

/**
 * `startIndex` (1-based) and `count` as SCIM sends them, brought into range (RFC 7644 §3.4.2.4):
 * below 1 is 1, a negative count is 0, a count above the page size is the page size; text that is
 * not an integer is refused (400 `invalidValue`).
 */
export function pageOf(query: { startIndex?: string; count?: string }): Page {
	const start = integerParameter(query.startIndex, 'startIndex') ?? 1
	const size = integerParameter(query.count, 'count') ?? MAX_PAGE
	return { startIndex: Math.min(Math.max(start, 1), MAX_START_INDEX), count: Math.min(Math.max(size, 0), MAX_PAGE) }
}

export async function listScimUsers(deps: AppDeps, actor: Actor, filter: string | undefined, page: Page): Promise<{ people: ScimPerson[]; total: number }> {
	const where = parseUserFilter(filter)
	const [total] = await visibleCount(deps.db, actor.workspaceId, where)
	const rows = page.count
		? await visible(deps.db, actor.workspaceId, where)
				.orderBy(memberships.createdAt, users.id)
				.limit(page.count)
				.offset(page.startIndex - 1)
		: []
	return { people: rows.map((r) => toPerson(r as Row)), total: total?.n ?? 0 }
}

/** The role single sign-on gives new people in the workspace (default Recruiter). */
export async function newPersonRole(db: Db, workspaceId: string): Promise<string> {
	const [config] = await db.select({ role: ssoConfigs.newPersonRole }).from(ssoConfigs).where(eq(ssoConfigs.workspaceId, workspaceId))
	return config?.role ?? 'recruiter'
}

function checkedEmail(userName: string | undefined): string {
	const email = normalEmail(userName ?? '')
	const problem = emailProblem(email, 'must be the person’s e-mail address')
	if (problem) throw invalid([{ field: 'userName', message: problem }])
	return email
}

/** The longest name a person has (code points), as the people page allows. */
export const NAME_MAX = 120

/**
 * The person's name: one line of visible text, as every typed name (`typedLine`; scim-requests.ts
 * refuses each attribute that breaks the rule, naming it), the address's local part when blank.
 */
function checkedName(name: string | undefined, email: string): string {
	const { line, problem } = typedLine(name ?? '', NAME_MAX, { optional: true })
	if (problem) throw invalid([{ field: 'name', message: problem }])
	return line || email.slice(0, email.indexOf('@'))
}

export async function createScimUser(deps: AppDeps, actor: Actor, input: ScimUserInput): Promise<ScimPerson> {
	const email = checkedEmail(input.userName)
	const name = checkedName(input.name, email)
	const active = input.active ?? true
	// Hashed before the transaction (it takes a while); nobody knows this password.
	const unusable = await hashPassword(deps.config, randomToken(32))
	const userId = await deps.db.transaction(async (tx) => {
		const claimedBy = await requireNotClaimedElsewhere(tx, actor.workspaceId, email)
		const inserted = await tx
			.insert(users)
			.values({ id: newId('usr'), email, name, passwordHash: unusable })
			.onConflictDoNothing({ target: users.email })
			.returning({ id: users.id })
		const [user] = inserted.length ? inserted : await tx.select({ id: users.id }).from(users).where(eq(users.email, email))
		const id = user!.id
		const locked = await lockOwnersAnd(tx, actor.workspaceId, id)
		const [managed] = await tx
			.select({ userId: scimUsers.userId })
			.from(scimUsers)
			.where(and(eq(scimUsers.workspaceId, actor.workspaceId), eq(scimUsers.userId, id)))
		if ((locked.target && !locked.target.removedAt) || managed) throw new AppError('CONFLICT', `A user with userName ${email} already exists`)
		if (input.userNameText) await requireUserNameFree(tx, actor.workspaceId, input.userNameText)
		// An account made elsewhere joins only through an invitation, unless its domain is this workspace's
		// or it was a member here before (the provider deleted the user and now provisions them again).
		if (!inserted.length && claimedBy !== actor.workspaceId && !locked.target)
			throw new AppError(
				'CONFLICT',
				`${email} has a Benchline account, and ${domainOf(email)} is not a domain this workspace’s single sign-on covers: invite the person from the People page instead`,
			)
		const role = await newPersonRole(tx, actor.workspaceId)
		if (locked.target?.role === 'owner') requireActingOwner(actor, locked)
		const removedAt = active ? null : deps.now()
		if (locked.target)
			await tx
				.update(memberships)
				.set({ role, grants: [], removedAt })
				.where(and(eq(memberships.workspaceId, actor.workspaceId), eq(memberships.userId, id)))
		else await tx.insert(memberships).values({ workspaceId: actor.workspaceId, userId: id, role, removedAt })
		await tx.insert(scimUsers).values({
			workspaceId: actor.workspaceId,
			userId: id,
			externalId: input.externalId ?? null,
			userName: input.userNameText ?? null,
			givenName: input.givenName ?? null,
			familyName: input.familyName ?? null,
		})
		await settleInvitations(tx, { workspaceId: actor.workspaceId, userId: id, now: deps.now() })
		if (claimedBy === actor.workspaceId) await endInvitationPassword(deps, tx, id)
		await recordActivity(tx, actor, { action: 'person.provisioned', targetType: 'user', targetId: id, detail: { email, role, active } })
		return id
	})
	return getScimUser(deps, actor, userId)
}

/**
 * A PUT (RFC 7644 §3.5.1) replaces the person: what the body leaves out is cleared or set to the
 * default a POST without it gets (no externalId, the name from the address). Except `active`: left
 * out, the person keeps their state. Giving access back is the one change that must never happen by
 * default (a provider sending a partial PUT would reactivate someone it deactivated); every identity
 * provider sends `active` when it means it, so only an explicit `active: true` reactivates. A name
 * this workspace may not change (another workspace holds the account) is ignored, as §3.5.1 says of
 * values the client may not change, and the rest applies: refusing it refused the whole replacement,
 * and a deactivation with it left the person signed in. The account's address keeps its rule (refused,
 * so the provider learns the account was not moved), except in a deactivation (`updateScimUser`).
 */
export async function replaceScimUser(deps: AppDeps, actor: Actor, userId: string, input: ScimUserInput): Promise<ScimPerson> {
	if (input.userName === undefined) throw invalid([{ field: 'userName', message: 'is required when replacing a user' }])
	const replacement = {
		userName: input.userName,
		userNameText: input.userNameText ?? null,
		name: input.name ?? '',
		givenName: input.givenName ?? null,
		familyName: input.familyName ?? null,
		externalId: input.externalId ?? null,
		active: input.active,
	}
	return updateScimUser(deps, actor, userId, replacement, 'ignore')
}

/** What becomes of a name this workspace may not change: refused (a PATCH naming it), or ignored (a PUT). */
type SharedName = 'refuse' | 'ignore'

/**
 * Applies what the provider sent (a PATCH, or a whole PUT from `replaceScimUser`): fields absent are
 * left as they are, and so is a shared account's name when `sharedName` is `ignore`. A deactivation
 * ignores a shared account's name and address whatever the method: a leaver renamed and deactivated in
 * one request (Okta's and Entra's PUT, Entra's PATCH of several operations) is deactivated, never left
 * signed in because the rename may not be made here.
 */
export async function updateScimUser(deps: AppDeps, actor: Actor, userId: string, input: ScimUserInput, asked: SharedName = 'refuse'): Promise<ScimPerson> {
	const sharedName: SharedName = input.active === false ? 'ignore' : asked
	await deps.db.transaction(async (tx) => {
		const person = await getScimUser(deps, actor, userId, tx)
		const now = deps.now()
		const changed: Record<string, unknown> = {}
		if (input.userName !== undefined) {
			const email = checkedEmail(input.userName)
			// A deactivation's new address that the account may not be given (another workspace holds the
			// account, another account has the address, another workspace's SSO domain covers it) is
			// ignored: refusing it refused the deactivation sent with it, and the person stayed signed
			// in. Otherwise it is refused. (`changeEmail` refuses before it writes anything.)
			if (email !== person.email && (await newAddress(tx, actor, person, email, { deactivating: input.active === false, now }))) changed.email = email
		}
		const named = await nameChange(tx, actor, person, input, changed.email ? String(changed.email) : person.email, sharedName)
		if (named.name !== undefined) {
			await tx.update(users).set({ name: named.name }).where(eq(users.id, userId))
			changed.name = named.name
		}
		if (input.externalId !== undefined && input.externalId !== person.externalId) changed.externalId = input.externalId
		if (input.userNameText !== undefined && input.userNameText !== person.userName) {
			if (input.userNameText) await requireUserNameFree(tx, actor.workspaceId, input.userNameText, userId)
			changed.userName = input.userNameText ?? person.email
		}
		// An ignored name keeps its parts too: they are the name the provider sent.
		const kept = {
			...(input.externalId !== undefined ? { externalId: input.externalId } : {}),
			...(input.userNameText !== undefined ? { userName: input.userNameText } : {}),
			...(input.givenName !== undefined && !named.ignored ? { givenName: input.givenName } : {}),
			...(input.familyName !== undefined && !named.ignored ? { familyName: input.familyName } : {}),
		}
		await tx
			.insert(scimUsers)
			.values({
				workspaceId: actor.workspaceId,
				userId,
				externalId: person.externalId,
				userName: person.userName,
				givenName: person.givenName,
				familyName: person.familyName,
				...kept,
			})
			.onConflictDoUpdate({ target: [scimUsers.workspaceId, scimUsers.userId], set: { updatedAt: now, ...kept } })
		if (Object.keys(changed).length)
			await recordActivity(tx, actor, { action: 'person.details_changed', targetType: 'user', targetId: userId, detail: { email: person.email, ...changed } })
		if (input.active !== undefined && input.active !== person.active) await setActive(deps, tx, actor, person, input.active)
	})
	return getScimUser(deps, actor, userId)
}

/**
 * The new name the request gives the account (`name` undefined: none). A different name for an
 * account another workspace holds is refused, or, with `sharedName` `ignore`, left out (`ignored`).
 */
async function nameChange(
	tx: Db,
	actor: Actor,
	person: ScimPerson,
	input: ScimUserInput,
	email: string,
	sharedName: SharedName,
): Promise<{ name?: string; ignored: boolean }> {
	if (input.name === undefined) return { ignored: false }
	const name = checkedName(input.name, email)
	if (name === person.name) return { ignored: false }
	if (!(await heldElsewhere(tx, actor.workspaceId, person.userId))) return { name, ignored: false }
	if (sharedName === 'ignore') return { ignored: true }
	throw accountFieldLocked(person, 'name')
}

/**
 * Refuses to change a field of the account itself (the users row: its e-mail address, its name) when
 * another workspace holds the person (`heldElsewhere`): the account is theirs there too, and this
 * workspace's identity provider speaks for this workspace only. Callers ask only when the value
 * really changes, so a provider re-sending what is stored is answered as usual.
 */
async function requireInNoOtherWorkspace(tx: Db, actor: Actor, person: ScimPerson, field: 'userName' | 'name'): Promise<void> {
	if (await heldElsewhere(tx, actor.workspaceId, person.userId)) throw accountFieldLocked(person, field)
}

const accountFieldLocked = (person: ScimPerson, field: 'userName' | 'name') =>
	new AppError('CONFLICT', `${person.email} is also in another workspace, where the account is theirs too: its ${field} cannot be changed here`, {
		scimType: 'mutability',
	})

/**
 * A new address for an account (account-address.ts): only for an account that is in no other
 * workspace, to an address nobody has, in no other workspace's SSO domains. Else a workspace's SCIM
 * renamed an account whose password its owner had set through their own mail to an address in a
 * firm's domain not yet verified, and that password outlived the firm's provider taking it in.
 */
async function changeEmail(tx: Db, actor: Actor, person: ScimPerson, email: string, now: Date): Promise<void> {
	await requireNotClaimedElsewhere(tx, actor.workspaceId, email)
	await requireInNoOtherWorkspace(tx, actor, person, 'userName')
	if (await addressTaken(tx, email)) throw new AppError('CONFLICT', `A user with userName ${email} already exists`)
	await moveAccountAddress(tx, person.userId, email, now)
}

/** Gives the account its new address; in a deactivation an address it may not be given is left out (false) instead of refused. */
async function newAddress(tx: Db, actor: Actor, person: ScimPerson, email: string, o: { deactivating: boolean; now: Date }): Promise<boolean> {
	try {
		await changeEmail(tx, actor, person, email, o.now)
		return true
	} catch (error) {
		if (o.deactivating && error instanceof AppError && error.code === 'CONFLICT') return false
		throw error
	}
}

/** Deactivates (every way in ends at once) or activates a person; the last owner stays. */
async function setActive(deps: AppDeps, tx: Db, actor: Actor, person: ScimPerson, active: boolean): Promise<void> {
	const locked = await lockOwnersAnd(tx, actor.workspaceId, person.userId)
	if (!locked.target) throw new AppError('NOT_FOUND', `User ${person.userId} not found`)
	if (locked.target.role === 'owner') {
		requireActingOwner(actor, locked)
		if (!active && !locked.target.removedAt && locked.owners.length <= 1)
			throw new AppError('CONFLICT', 'The last owner of the workspace cannot be deactivated; make someone else an owner first', { scimType: 'mutability' })
	}
	let ended: EndedAccess | undefined
	if (active)
		await tx
			.update(memberships)
			.set({ removedAt: null })
			.where(and(eq(memberships.workspaceId, actor.workspaceId), eq(memberships.userId, person.userId)))
	else ended = await endMembership(deps, tx, actor, { workspaceId: actor.workspaceId, userId: person.userId, now: deps.now(), reason: 'deprovisioned' })
	await recordActivity(tx, actor, {
		action: active ? 'person.reactivated' : 'person.deactivated',
		targetType: 'user',
		targetId: person.userId,
		detail: { email: person.email, ...ended },
	})
}

/** Deletes the person from the workspace: deactivated as above, and SCIM no longer answers for them. */
export async function deleteScimUser(deps: AppDeps, actor: Actor, userId: string): Promise<void> {
	await deps.db.transaction(async (tx) => {
		const person = await getScimUser(deps, actor, userId, tx)
		if (person.active) await setActive(deps, tx, actor, person, false)
		await tx.delete(scimUsers).where(and(eq(scimUsers.workspaceId, actor.workspaceId), eq(scimUsers.userId, userId)))
		await recordActivity(tx, actor, { action: 'person.deprovisioned', targetType: 'user', targetId: userId, detail: { email: person.email } })
	})
}
