/**
 * Assembles the HTTP application from the registry: security headers, the error mapping of each
 * door, health, static assets, every module's routes and the MCP endpoint. Refuses to start when
 * a route does not declare its credential (`auth`, `session`, `vendor`, `vendorKey` or `mcp`: see
 * `http/auth.ts`) or declares two, needs a permission no module declares or lives outside its
 * module's paths, or when a declared permission is used nowhere (`checkRoutes`).
 */
import { Elysia } from 'elysia'
import { resolve } from 'node:path'
import type { AppDeps } from './deps.ts'
import { AppError, notFound } from './errors.ts'
import { servedWhileDatabaseDown } from './http/availability.ts'
import { createAuthPlugin, declaredAuths, type ActorResolvers } from './http/auth.ts'
import { doorOf, errorResponse, isApiDoor, toAppError } from './http/errors.ts'
import { SCIM_MEDIA_TYPE, scimMediaType } from './http/media-type.ts'
import { allowedMethodsOf, methodNotAllowed, optionsAnswer, plainOptions } from './http/method-not-allowed.ts'
import { metricsRoute } from './http/metrics-route.ts'
import { canonicalRequest, unaddressable } from './http/request-path.ts'
import { noteUnreadableForm, unreadableForm } from './http/form.ts'
import { answersUnreadableTextItself, firstQueryValues, parsesNothing, unreadableQuery } from './http/query.ts'
import { securityHeaders } from './http/security-headers.ts'
import { currentRequest } from './request-context.ts'
import type { HttpKit } from './module.ts'
import { checkRoutes, RegistryError } from './registry.ts'
import { openRequestTimeZone } from './time.ts'

const STATIC_DIR = resolve(import.meta.dir, 'static')

export function buildResolvers(deps: AppDeps): ActorResolvers {
	const session = deps.registry.modules.find((m) => m.sessionResolver)?.sessionResolver ?? null
	return { bearer: deps.registry.modules.flatMap((m) => m.credentials ?? []), session }
}

/** A route template with a `:token` parameter: the link itself is the credential. */
const CREDENTIAL_IN_PATH = /\/:token(\/|$)/

export function buildApp(deps: AppDeps, extra: ((kit: HttpKit) => Elysia<any, any, any, any, any, any, any>)[] = []) {
	const headers = securityHeaders(deps.config.https)
	const resolvers = buildResolvers(deps)
	const auth = createAuthPlugin(deps, resolvers)
	const started = Date.now()
	let allowedFor: (pathname: string) => string[] = () => []
	// The routes that answer a query or form that cannot be read in a format of their own (`answersUnreadableText`),
	// and the routes that read their body themselves (`parse: 'none'`, each in its door's format), as `METHOD path`.
	let ownUnreadableAnswer = new Set<string>()
	let readsOwnBody = new Set<string>()

	// What the debug request log needs of a request: when it arrived, and the status of an answer
	// made by the error handler (redirects to sign in, error pages), which `set.status` does not show.
	const arrivedAt = new WeakMap<Request, number>()
	const errorStatus = new WeakMap<Request, number>()
	// The route template that matched, for log lines: never the path itself, which for some links
	// (a job-alert confirmation, an unsubscribe link) is the link's only credential.
	const matched = new WeakMap<Request, string>()
	const routeOf = (request: Request) => matched.get(request) ?? currentRequest()?.route ?? 'unmatched'
	let app = new Elysia({ name: 'benchline' })
		.onRequest(({ set, request }) => {
			// Times on the pages of this request are shown in the reader's zone once the session says which (core/time.ts).
			openRequestTimeZone()
			if (deps.config.logLevel === 'debug') arrivedAt.set(request, performance.now())
			Object.assign(set.headers, headers)
			const { pathname } = new URL(request.url)
			// Answers of the API doors carry credentials' results: never cached by browsers or proxies.
			if (isApiDoor(pathname)) set.headers['Cache-Control'] = 'no-store'
			if (!deps.availability.up() && !servedWhileDatabaseDown(pathname))
				throw new AppError('UNAVAILABLE', 'The service is temporarily unavailable; retry shortly', { retryAfter: 5 })
			// An OPTIONS that is no CORS preflight: 204 with Allow (or 404), whichever route serves the address.
			const options = plainOptions(request, allowedFor)
			if (options instanceof AppError) throw options
			if (options) return options
		})
		// A known address asked with the wrong method answers 405 (with Allow), not 404.
		// The route template that matched (`/jobs/:id`): the request's metrics label and span name.
		.onTransform({ as: 'global' }, ({ route, request, set, query, params }) => {
			matched.set(request, route)
			firstQueryValues(request.url, query)
			// A parameter or form field that is no text (`?q=%zz`) is refused before any handler reads it, whichever door
			// (core/http/query.ts, core/http/form.ts), unless the route answers it in a format of its own.
			const key = `${request.method === 'HEAD' ? 'GET' : request.method} ${route}`
			const unreadable = unreadableQuery(request.url) ?? (readsOwnBody.has(key) ? null : unreadableForm(request))
			if (unreadable && !ownUnreadableAnswer.has(key)) throw unreadable
			const context = currentRequest()
			if (context) context.route = route
			// A link whose path is its only credential (an unsubscribe, a data download, a reset) is
			// never indexed by a crawler that found it, nor kept by a cache.
			if (CREDENTIAL_IN_PATH.test(route)) Object.assign(set.headers, { 'X-Robots-Tag': 'noindex, nofollow', 'Cache-Control': 'no-store' })
			// An id, token or file name no record can have is not found, whichever door and handler it reached.
			if (params && unaddressable(params)) throw notFound()
		})
		.onError(({ error, code, request }) => {
			// OPTIONS on a known address with no OPTIONS route: 204 with Allow, never a 404 or 405.
			const options = code === 'NOT_FOUND' ? optionsAnswer(request, allowedFor) : null
			if (options) {
				errorStatus.set(request, options.status)
				return options
			}
			const response = errorResponse(
				toAppError((code === 'NOT_FOUND' && methodNotAllowed(request, allowedFor)) || error, code, deps.log, request, routeOf(request)),
				request,
			)
			errorStatus.set(request, response.status)
			return response
		})
		.onAfterHandle(({ request, response }) => {
			if (!(response instanceof Response)) return
			const { pathname } = new URL(request.url)
			// Answers built as a Response keep their own headers: the MCP SDK says `no-cache, no-transform`.
			if (isApiDoor(pathname))
				response.headers.set('Cache-Control', /no-transform/.test(response.headers.get('cache-control') ?? '') ? 'no-store, no-transform' : 'no-store')
			// SCIM's answers are application/json to a client that asks only for that (its errors: errors.ts).
			if (doorOf(pathname) === 'scim' && response.headers.get('content-type') === SCIM_MEDIA_TYPE) response.headers.set('Content-Type', scimMediaType(request))
		})
		.onAfterResponse(({ request, set, responseValue }) => {
			if (deps.config.logLevel !== 'debug') return
			// The status the client got: an error's answer, a Response a handler built (pages, redirects,
			// the MCP SDK's), or else what the handler set.
			const status = errorStatus.get(request) ?? (responseValue instanceof Response ? responseValue.status : set.status)
			const started = arrivedAt.get(request)
			deps.log.debug('request', {
				method: request.method,
				route: routeOf(request),
				status,
				ms: started === undefined ? undefined : Math.round(performance.now() - started),
			})
		})
		.use(auth)
		// Liveness: the process runs and answers. Never the database: an outage is not cured by restarting
		// every instance (the process serves again by itself), and `/ready` takes the instance out meanwhile.
		.get('/health', () => ({ status: 'ok', uptimeSeconds: Math.round((Date.now() - started) / 1000) }), { auth: 'public' })
		// Readiness, for a load balancer or orchestrator: 503 while starting (core/main.ts answers then),
		// while the database does not answer, and once shutdown has begun; `/health` is liveness.
		.get(
			'/ready',
			async ({ set }) => {
				set.headers['Cache-Control'] = 'no-store'
				if (deps.lifecycle.draining()) throw new AppError('UNAVAILABLE', 'Shutting down', { retryAfter: 5 })
				if (!(await deps.database.ping())) throw new AppError('UNAVAILABLE', 'The database does not answer', { retryAfter: 5 })
				return { status: 'ready' }
			},
			{ auth: 'public' },
		)
		.get('/static/:file', ({ params, set }) => serveStatic(params.file, set), { auth: 'public' })
		// Browsers ask for /favicon.ico whatever the page links to: answer with the icon, not a 404.
		.get('/favicon.ico', ({ set }) => serveStatic('favicon.svg', set), { auth: 'public' }) as unknown as Elysia

	// Each module's routes are built apart first, so a problem names the module that serves the route.
	const served = new Map<unknown, string>()
	for (const m of deps.registry.modules) {
		if (!m.routes) continue
		const plugin = m.routes(deps, { auth })
		for (const r of plugin.routes) served.set(r.handler, m.name)
		app = app.use(plugin)
	}
	for (const plugin of extra) app = app.use(plugin({ auth }))
	if (deps.config.metricsToken) app = app.use(metricsRoute(deps, auth)) as unknown as Elysia

	allowedFor = allowedMethodsOf(app.routes)
	ownUnreadableAnswer = new Set(app.routes.filter((r) => answersUnreadableTextItself(r.hooks)).map((r) => `${r.method} ${r.path}`))
	readsOwnBody = new Set(app.routes.filter((r) => parsesNothing(r.hooks)).map((r) => `${r.method} ${r.path}`))
	const problems = checkRoutes(
		deps.registry,
		app.routes.map((r) => ({ module: served.get(r.handler), method: r.method, path: r.path, auths: declaredAuths(r.hooks) })),
	)
	if (problems.length) throw new RegistryError(problems)
	// Every request is rebuilt on the public origin before the router sees it, here where the server
	// (core/main.ts) and in-process callers (tests) both pass: the router and every check read one path.
	const handle = app.handle
	app.handle = async (request) => {
		const canonical = canonicalRequest(request, deps.config.baseUrl)
		if (!canonical) return badTarget(headers)
		await noteUnreadableForm(canonical)
		return handle(canonical)
	}
	return app
}

/** The answer to a request whose URL holds no path (Bun leaves none such; kept so nothing throws). */
export const badTarget = (headers: Record<string, string>) =>
	new Response('Bad request: the request line holds no path', { status: 400, headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' } })

async function serveStatic(name: string, set: { headers: Record<string, string | number> }) {
	if (!/^[a-z0-9-]+\.(css|js|svg)$/.test(name)) throw new AppError('NOT_FOUND', 'Not found')
	const file = Bun.file(resolve(STATIC_DIR, name))
	if (!(await file.exists())) throw new AppError('NOT_FOUND', 'Not found')
	set.headers['Cache-Control'] = 'public, max-age=300'
	return file
}
