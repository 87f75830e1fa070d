/**
 * `/scim/v2`: SCIM 2.0 provisioning (RFC 7644) for the workspace of the SCIM token presented.
 * Thin: each route reads the request (scim-requests.ts), calls the service (scim-users.ts,
 * scim-groups.ts) and answers `application/scim+json` (`application/json` to a client asking only for
 * that: core/app.ts); errors become SCIM error bodies at the door (core/http/errors.ts).
 */
import { Elysia, t, type Static } from 'elysia'
import type { Actor, PersonRole } from '../../../core/actor.ts'
import type { AppDeps } from '../../../core/deps.ts'
import { AppError } from '../../../core/errors.ts'
import { readJsonObject } from '../../../core/http/body.ts'
import type { HttpKit } from '../../../core/module.ts'
import { changeMembers, getGroup, groupNamed, listGroups, requireGroup } from './scim-groups.ts'
import { MAX_ATTRIBUTES_LENGTH, project, projectionOf } from './scim-attributes.ts'
import { MAX_FILTER_LENGTH } from './scim-filter.ts'
import {
	GROUP_NAMES,
	GROUP_SCHEMA,
	groupResource,
	listResponse,
	resourceTypes,
	SCIM_CONTENT_TYPE,
	schemas,
	serviceProviderConfig,
	USER_SCHEMA,
	userResource,
} from './scim-model.ts'
import {
	groupPatch,
	type ListParameters,
	membersOf,
	nameInput,
	patchOperations,
	searchRequestOf,
	userFromBody,
	userPatch,
	withSchema,
} from './scim-requests.ts'
import { createScimUser, deleteScimUser, getScimUser, listScimUsers, pageOf, replaceScimUser, updateScimUser } from './scim-users.ts'

const MAX_BODY_BYTES = 256 * 1024
const BASE = '/scim/v2'

const scim = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
	new Response(JSON.stringify(body), { status, headers: { 'Content-Type': SCIM_CONTENT_TYPE, ...headers } })

/**
 * The query of a list. `startIndex` and `count` have no length limit: a long number is brought into
 * range, text that is no integer refused (`pageOf`). `attributes` has room for a dozen names with their URN.
 */
const listQuery = t.Object(
	{
		filter: t.Optional(t.String({ maxLength: MAX_FILTER_LENGTH })),
		startIndex: t.Optional(t.String()),
		count: t.Optional(t.String()),
		excludedAttributes: t.Optional(t.String({ maxLength: MAX_ATTRIBUTES_LENGTH })),
		attributes: t.Optional(t.String({ maxLength: MAX_ATTRIBUTES_LENGTH })),
	},
	{ additionalProperties: true },
)
/** The query of any other answer carrying a resource (GET, POST, PUT, PATCH): which attributes to show. */
const oneQuery = t.Object(
	{ excludedAttributes: t.Optional(t.String({ maxLength: MAX_ATTRIBUTES_LENGTH })), attributes: t.Optional(t.String({ maxLength: MAX_ATTRIBUTES_LENGTH })) },
	{ additionalProperties: true },
)
const id = t.Object({ id: t.String({ minLength: 1, maxLength: 100 }) })

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

/** A page of the people, as `.search` or a GET asked it. */
async function userList(deps: AppDeps, actor: Actor, asked: ListParameters) {
	const page = pageOf(asked)
	const projection = projectionOf(asked, USER_SCHEMA)
	const { people, total } = await listScimUsers(deps, actor, asked.filter, page)
	const resources = people.map((p) => project(userResource(deps.config.baseUrl, p), projection))
	return scim(listResponse(resources, total, page.startIndex))
}

/** Users: the workspace's people. */
function scimUserRoutes(deps: AppDeps, auth: HttpKit['auth']) {
	/** The user's resource as the query asked to see it (`Location` on a 201). */
	const user = async (actor: Actor, userId: string, query: Static<typeof oneQuery>, status = 200) => {
		const resource = userResource(deps.config.baseUrl, await getScimUser(deps, actor, userId))
		return scim(project(resource, projectionOf(query, USER_SCHEMA)), status, status === 201 ? { Location: resource.meta.location } : {})
	}
	const body = (request: Request) => readJsonObject(request, MAX_BODY_BYTES)
	return new Elysia({ name: 'sso.scim.users', prefix: BASE })
		.use(auth)
		.get('/Users', ({ actor, query }) => userList(deps, actor, query), { scim: true, query: listQuery })
		.post('/Users/.search', async ({ actor, request }) => userList(deps, actor, searchRequestOf(await body(request))), { scim: true, parse: 'none' })
		.get('/Users/:id', ({ actor, params, query }) => user(actor, params.id, query), { scim: true, params: id, query: oneQuery })
		.post(
			'/Users',
			async ({ actor, request, query }) => {
				const { input, name } = userFromBody(await body(request))
				const created = await createScimUser(deps, actor, { ...input, ...nameInput(name) })
				return user(actor, created.userId, query, 201)
			},
			{ scim: true, parse: 'none', query: oneQuery },
		)
		.put(
			'/Users/:id',
			async ({ actor, params, request, query }) => {
				// A replacement: the name is what the body says, never completed from the stored one.
				const { input, name } = userFromBody(await body(request))
				await replaceScimUser(deps, actor, params.id, { ...input, ...nameInput(name) })
				return user(actor, params.id, query)
			},
			{ scim: true, params: id, parse: 'none', query: oneQuery },
		)
		.patch(
			'/Users/:id',
			async ({ actor, params, request, query }) => {
				const ops = patchOperations(await body(request))
				const current = await getScimUser(deps, actor, params.id)
				const { input, name } = userPatch(ops, current)
				await updateScimUser(deps, actor, params.id, { ...input, ...nameInput(name, current) })
				return user(actor, params.id, query)
			},
			{ scim: true, params: id, parse: 'none', query: oneQuery },
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

/** A page of the groups (the roles), as `.search` or a GET asked it. */
async function groupList(deps: AppDeps, actor: Actor, asked: ListParameters) {
	const page = pageOf(asked)
	const projection = projectionOf(asked, GROUP_SCHEMA)
	const all = await listGroups(deps, actor, asked.filter)
	const shown = all.slice(page.startIndex - 1, page.startIndex - 1 + page.count)
	const resources = shown.map((g) => project(groupResource(deps.config.baseUrl, g.role, g.members), projection))
	return scim(listResponse(resources, all.length, page.startIndex))
}

/** Groups: the roles. */
function scimGroupRoutes(deps: AppDeps, auth: HttpKit['auth']) {
	/** The group's resource as the query asked to see it (`Location` on a 201). */
	const group = async (actor: Actor, role: PersonRole, query: Static<typeof oneQuery>, status = 200) => {
		const resource = groupResource(deps.config.baseUrl, role, (await getGroup(deps, actor, role)).members)
		return scim(project(resource, projectionOf(query, GROUP_SCHEMA)), status, status === 201 ? { Location: resource.meta.location } : {})
	}
	/** A group's members changed (a group is a role: it cannot be renamed). */
	const changeGroup = async (actor: Actor, role: PersonRole, displayName: unknown, change: Parameters<typeof changeMembers>[3]) => {
		if (displayName !== undefined && groupNamed(displayName) !== role)
			throw new AppError('VALIDATION', `The group ${GROUP_NAMES[role]} cannot be renamed`, { scimType: 'mutability' })
		await changeMembers(deps, actor, role, change)
	}
	const body = (request: Request) => readJsonObject(request, MAX_BODY_BYTES)
	return new Elysia({ name: 'sso.scim.groups', prefix: BASE })
		.use(auth)
		.get('/Groups', ({ actor, query }) => groupList(deps, actor, query), { scim: true, query: listQuery })
		.post('/Groups/.search', async ({ actor, request }) => groupList(deps, actor, searchRequestOf(await body(request))), { scim: true, parse: 'none' })
		.get('/Groups/:id', ({ actor, params, query }) => group(actor, requireGroup(params.id), query), { scim: true, params: id, query: oneQuery })
		.post(
			'/Groups',
			async ({ actor, request, query }) => {
				const sent = withSchema(await body(request), GROUP_SCHEMA)
				const role = groupNamed(sent.displayName)
				const members = membersOf(sent)
				if (members?.length) await changeMembers(deps, actor, role, { add: members })
				return group(actor, role, query, 201)
			},
			{ scim: true, parse: 'none', query: oneQuery },
		)
		.put(
			'/Groups/:id',
			async ({ actor, params, request, query }) => {
				const role = requireGroup(params.id)
				const sent = withSchema(await body(request), GROUP_SCHEMA)
				// A replacement (RFC 7644 §3.5.1): members left out, or null, leave the group empty.
				await changeGroup(actor, role, sent.displayName, { replace: membersOf(sent) ?? [] })
				return group(actor, role, query)
			},
			{ scim: true, params: id, parse: 'none', query: oneQuery },
		)
		.patch(
			'/Groups/:id',
			async ({ actor, params, request, query }) => {
				const role = requireGroup(params.id)
				const change = groupPatch(patchOperations(await body(request)))
				await changeGroup(actor, role, change.displayName, change)
				return group(actor, role, query)
			},
			{ scim: true, params: id, parse: 'none', query: oneQuery },
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
