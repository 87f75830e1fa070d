/**
 * `/scim/v2`: SCIM 2.0 provisioning (RFC 7644) for the workspace of the SCIM token presented.
 * Thin: each route reads the request (scim-requests.ts), calls the service (scim-users.ts,
 * scim-groups.ts) and answers `application/scim+json`; errors become SCIM error bodies at the door
 * (core/http/errors.ts).
 */
import { Elysia, t, type Static } from 'elysia'
import type { Actor, PersonRole } from '../../../core/actor.ts'
import type { AppDeps } from '../../../core/deps.ts'
import { AppError, invalid } from '../../../core/errors.ts'
import { readJsonObject } from '../../../core/http/body.ts'
import type { HttpKit } from '../../../core/module.ts'
import { changeMembers, getGroup, groupNamed, listGroups, requireGroup } from './scim-groups.ts'
import { GROUP_NAMES, groupResource, listResponse, resourceTypes, SCIM_CONTENT_TYPE, schemas, serviceProviderConfig, userResource } from './scim-model.ts'
import { groupPatch, membersOf, nameFrom, patchOperations, userFromBody, userPatch } from './scim-requests.ts'
import { createScimUser, deleteScimUser, getScimUser, listScimUsers, pageOf, updateScimUser } from './scim-users.ts'

const MAX_BODY_BYTES = 256 * 1024
const BASE = '/scim/v2'

const scim = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
	new Response(JSON.stringify(body), { status, headers: { 'Content-Type': SCIM_CONTENT_TYPE, ...headers } })

const listQuery = t.Object(
	{
		filter: t.Optional(t.String({ maxLength: 1000 })),
		startIndex: t.Optional(t.String({ maxLength: 12 })),
		count: t.Optional(t.String({ maxLength: 12 })),
		excludedAttributes: t.Optional(t.String({ maxLength: 200 })),
		attributes: t.Optional(t.String({ maxLength: 200 })),
	},
	{ additionalProperties: true },
)
const oneQuery = t.Object({ excludedAttributes: t.Optional(t.String({ maxLength: 200 })) }, { additionalProperties: true })
const id = t.Object({ id: t.String({ minLength: 1, maxLength: 100 }) })

/** Whether the provider asked to leave out the members (Entra does, to keep answers small). */
const withoutMembers = (excluded: string | undefined) => (excluded ?? '').split(',').some((a) => a.trim().toLowerCase() === 'members')

/** The service provider's configuration, resource types and schemas. */
function scimSchemaRoutes(deps: AppDeps, auth: HttpKit['auth']) {
	const base = deps.config.baseUrl
	return new Elysia({ name: 'sso.scim.schemas', prefix: BASE })
		.use(auth)
		.get('/ServiceProviderConfig', () => scim(serviceProviderConfig(base)), { scim: true })
		.get('/ResourceTypes', () => scim(listResponse(resourceTypes(base), 2, 1)), { scim: true })
		.get(
			'/ResourceTypes/:id',
			({ params }) => {
				const found = resourceTypes(base).find((r) => r.id === params.id)
				if (!found) throw new AppError('NOT_FOUND', `Resource type ${params.id} not found`)
				return scim(found)
			},
			{ scim: true, params: id },
		)
		.get('/Schemas', () => scim(listResponse(schemas(base), 2, 1)), { scim: true })
		.get(
			'/Schemas/:id',
			({ params }) => {
				const found = schemas(base).find((s) => s.id === params.id)
				if (!found) throw new AppError('NOT_FOUND', `Schema ${params.id} not found`)
				return scim(found)
			},
			{ scim: true, params: t.Object({ id: t.String({ minLength: 1, maxLength: 200 }) }) },
		)
}

/** Users: the workspace's people. */
function scimUserRoutes(deps: AppDeps, auth: HttpKit['auth']) {
	const base = deps.config.baseUrl
	const user = async (actor: Actor, userId: string, status = 200) => {
		const resource = userResource(base, await getScimUser(deps, actor, userId))
		return scim(resource, status, status === 201 ? { Location: resource.meta.location } : {})
	}
	/** A user changed (the name merged with the stored one), answered with the user. */
	const update = async (actor: Actor, userId: string, { input, name }: ReturnType<typeof userPatch>) => {
		const current = await getScimUser(deps, actor, userId)
		await updateScimUser(deps, actor, userId, { ...input, name: nameFrom(name, current.name) })
		return user(actor, userId)
	}
	return new Elysia({ name: 'sso.scim.users', prefix: BASE })
		.use(auth)
		.get(
			'/Users',
			async ({ actor, query }) => {
				const page = pageOf(query)
				const { people, total } = await listScimUsers(deps, actor, query.filter, page)
				return scim(
					listResponse(
						people.map((p) => userResource(base, p)),
						total,
						page.startIndex,
					),
				)
			},
			{ scim: true, query: listQuery },
		)
		.get('/Users/:id', ({ actor, params }) => user(actor, params.id), { scim: true, params: id, query: oneQuery })
		.post(
			'/Users',
			async ({ actor, request }) => {
				const { input, name } = userFromBody(await readJsonObject(request, MAX_BODY_BYTES))
				const created = await createScimUser(deps, actor, { ...input, name: nameFrom(name) })
				return user(actor, created.userId, 201)
			},
			{ scim: true, parse: 'none' },
		)
		.put(
			'/Users/:id',
			async ({ actor, params, request }) => {
				const change = userFromBody(await readJsonObject(request, MAX_BODY_BYTES))
				if (change.input.userName === undefined) throw invalid([{ field: 'userName', message: 'is required when replacing a user' }])
				return update(actor, params.id, change)
			},
			{ scim: true, params: id, parse: 'none' },
		)
		.patch(
			'/Users/:id',
			async ({ actor, params, request }) => {
				return update(actor, params.id, userPatch(patchOperations(await readJsonObject(request, MAX_BODY_BYTES))))
			},
			{ scim: true, params: id, parse: 'none' },
		)
		.delete(
			'/Users/:id',
			async ({ actor, params }) => {
				await deleteScimUser(deps, actor, params.id)
				return new Response(null, { status: 204 })
			},
			{ scim: true, params: id },
		)
}

/** Groups: the roles. */
function scimGroupRoutes(deps: AppDeps, auth: HttpKit['auth']) {
	const base = deps.config.baseUrl
	/** A group's members changed (a group is a role: it cannot be renamed), answered with the group. */
	const changeGroup = async (actor: Actor, role: PersonRole, displayName: unknown, change: Parameters<typeof changeMembers>[3]) => {
		if (displayName !== undefined && groupNamed(displayName) !== role)
			throw new AppError('VALIDATION', `The group ${GROUP_NAMES[role]} cannot be renamed`, { scimType: 'mutability' })
		await changeMembers(deps, actor, role, change)
		const g = await getGroup(deps, actor, role)
		return scim(groupResource(base, role, g.members))
	}
	/** A page of the groups (the roles), their members left out when asked. */
	const groupList = async (actor: Actor, query: Static<typeof listQuery>) => {
		const page = pageOf(query)
		const all = await listGroups(deps, actor, query.filter)
		const shown = all.slice(page.startIndex - 1, page.startIndex - 1 + page.count)
		const bare = withoutMembers(query.excludedAttributes)
		return scim(
			listResponse(
				shown.map((g) => groupResource(base, g.role, bare ? null : g.members)),
				all.length,
				page.startIndex,
			),
		)
	}
	return new Elysia({ name: 'sso.scim.groups', prefix: BASE })
		.use(auth)
		.get('/Groups', ({ actor, query }) => groupList(actor, query), { scim: true, query: listQuery })
		.get(
			'/Groups/:id',
			async ({ actor, params, query }) => {
				const g = await getGroup(deps, actor, params.id)
				return scim(groupResource(base, g.role, withoutMembers(query.excludedAttributes) ? null : g.members))
			},
			{ scim: true, params: id, query: oneQuery },
		)
		.post(
			'/Groups',
			async ({ actor, request }) => {
				const body = await readJsonObject(request, MAX_BODY_BYTES)
				const role = groupNamed(body.displayName)
				const members = membersOf(body)
				if (members?.length) await changeMembers(deps, actor, role, { add: members })
				const g = await getGroup(deps, actor, role)
				const resource = groupResource(base, role, g.members)
				return scim(resource, 201, { Location: resource.meta.location })
			},
			{ scim: true, parse: 'none' },
		)
		.put(
			'/Groups/:id',
			async ({ actor, params, request }) => {
				const role = requireGroup(params.id)
				const body = await readJsonObject(request, MAX_BODY_BYTES)
				return changeGroup(actor, role, body.displayName, { replace: membersOf(body) ?? [] })
			},
			{ scim: true, params: id, parse: 'none' },
		)
		.patch(
			'/Groups/:id',
			async ({ actor, params, request }) => {
				const role = requireGroup(params.id)
				const change = groupPatch(patchOperations(await readJsonObject(request, MAX_BODY_BYTES)))
				return changeGroup(actor, role, change.displayName, change)
			},
			{ scim: true, params: id, parse: 'none' },
		)
		.delete(
			'/Groups/:id',
			({ params }) => {
				requireGroup(params.id)
				throw new AppError('VALIDATION', 'The groups are the workspace’s roles: they cannot be deleted', { scimType: 'mutability' })
			},
			{ scim: true, params: id },
		)
}

export function scimRoutes(deps: AppDeps, { auth }: HttpKit) {
	return new Elysia({ name: 'sso.scim' }).use(scimSchemaRoutes(deps, auth)).use(scimUserRoutes(deps, auth)).use(scimGroupRoutes(deps, auth))
}
