/**
 * The module contract. A domain module is a value: `modules/<name>/index.ts` default-exports
 * `defineModule({...})`, and `modules/index.ts` lists the modules explicitly. The registry
 * (`core/registry.ts`) validates them all at start-up and assembles the server from them;
 * `core/` never imports a module.
 */
import type { Elysia } from 'elysia'
import type { Static, TObject, TSchema } from '@sinclair/typebox'
import type { Actor, Role } from './actor.ts'
import type { FieldError } from './errors.ts'
import type { Config, SettingsDef } from './config.ts'
import type { Logger } from './log.ts'
import type { RateLimiter } from './http/rate-limit.ts'
import type { AnswerRelay } from './mcp/answers.ts'
import type { SafeHtml } from './safe-html.ts'
import type { Availability } from './types/availability.ts'
import type { Metrics } from './types/metrics.ts'
import type { Tracing } from './types/tracing.ts'
import type { Database, Db } from '../db/client.ts'

/**
 * What a module's routes are built with: the credential macros, `auth` (one of `auth`, `session`,
 * `vendor`, `vendorKey`, `mcp` on every route). core/http/auth.ts adds that member to this interface
 * (declaration merging), since its type is the Elysia plugin that file builds: this file, which
 * that code imports, imports none of it.
 */
// biome-ignore lint/suspicious/noEmptyInterface: core/http/auth.ts adds `auth` to it.
export interface HttpKit {}

/** A permission key is `<module>:<action>`, e.g. `jobs:publish`. */
export type PermissionKey = `${string}:${string}`

export interface PermissionDef {
	readonly key: PermissionKey
	readonly description: string
	/** Roles that hold this permission by default; a person can also be granted it individually. */
	readonly grantedTo: readonly Role[]
	/** True when a person may be granted this permission beyond their role (shown on the people page). */
	readonly grantable?: boolean
}

export interface ToolContext {
	readonly deps: AppDeps
	readonly actor: Actor
}

/**
 * An MCP tool. Parameters and output are TypeBox schemas; `run` calls the module's service and
 * returns what the output schema describes (`Static<O>`: tsc holds it to the schema, and outside
 * production every result is checked against it as well, core/mcp/output-check.ts).
 *
 * Its contract lives beside it, written by `npm run new-module` for a new tool: `spec`, its
 * parameters in one line, and `testCalls`, how the registry-wide tests call it
 * (tests/mcp/spec-contract.test.ts, tests/mcp/tool-results.test.ts read both from the registry).
 */
export interface ToolDef<P extends TObject = TObject, O extends TSchema = TSchema> {
	/** Tool name from the spec, e.g. `list_jobs`. */
	readonly name: string
	readonly title: string
	/** Written for a model: when to use the tool and what it returns. */
	readonly description: string
	/** Parameter object; unknown properties are refused. */
	readonly params: P
	/** Shape of the structured result. */
	readonly output: O
	/** Required, no default: read tools are flagged read-only, write tools are not. */
	readonly readOnly: boolean
	readonly destructive?: boolean
	readonly idempotent?: boolean
	/** True when the tool reaches the outside world (sends mail, hands data to a vendor). */
	readonly openWorld?: boolean
	/** Permission the caller needs; tools the caller can never use are not listed. */
	readonly permission: PermissionKey
	/**
	 * Its parameters in one line, as the spec's tables give them: `R` (read-only) or `W`, then each
	 * parameter with its type, `*` when required, its limits and default, e.g.
	 * `R jobId*(string minLength=1 maxLength=160)`. tests/mcp/spec-contract.test.ts reads the
	 * parameter schema the same way and fails when the two differ; the spec's own tools are pinned by
	 * a snapshot of these lines there as well.
	 */
	readonly spec: string
	/**
	 * How the registry-wide tests call it (tests/mcp/tool-results.test.ts: every tool, for every
	 * role, on a workspace filled through every door): argument sets built from the records the
	 * calling person can see. May be empty for a person who sees no record it needs.
	 */
	testCalls(records: ToolTestRecords): readonly Static<P>[]
	run(ctx: ToolContext, args: Static<P>): Promise<Static<O>>
	/**
	 * For a tool that sends data or a message outside the firm: what would go to whom, in a sentence
	 * the person reads before it happens (`core/mcp/confirm.ts`), or null when the call would be
	 * refused anyway (its own error then says why). Computed by the module's service, changing nothing.
	 */
	confirm?(ctx: ToolContext, args: Static<P>): Promise<string | null>
	/**
	 * For a tool that searches the candidate database: the criteria of this call (what was typed, the
	 * filters) and the job it was made for, or null when this call is not a search (no query). Federal
	 * contractors keep a record of every such search (41 CFR 60-1.12); the audit trail writes it.
	 */
	searchOf?(args: Static<P>): RecordSearch | null
}

/**
 * What the registry-wide tests hand a tool's `testCalls`: records of a workspace filled through
 * every door (text in each field written by the person or system that writes it in real use).
 */
export interface ToolTestRecords {
	/**
	 * Ids of records of a kind that the calling person found in their own lists, a few, those holding
	 * text others wrote first. Kinds: `job`, `candidate`, `application`, `thread`, `interview`,
	 * `vendor`; another kind fails the test, naming the kinds it knows.
	 */
	seen(kind: string): readonly string[]
	/**
	 * The record of a kind the test made, for write tools: `job` (published by a vendor through the
	 * REST API), `candidate` and `application` (its applicant, through the careers form).
	 */
	made(kind: string): string
	/** A word every record made for the test carries, for search tools. */
	readonly word: string
}

/** A search of the candidate database: its criteria and the job it was made for (see `ToolDef.searchOf`). */
export interface RecordSearch {
	readonly criteria: Readonly<Record<string, unknown>>
	readonly jobId?: string
}

/**
 * How a tool call ended, for the audit trail: answered; refused (the role may not use the tool, the
 * app was allowed read-only access, or the record is out of reach); or failed (bad arguments, an
 * error, past the time limit).
 */
export type ToolCallOutcome = 'ok' | 'refused' | 'error'

/** One tool call as the MCP door saw it (handed to every module's `observeToolCall`). */
export interface ToolCallReport {
	readonly actor: Actor
	/** The tool's name as the client sent it (a name it may not use included; cut to 64 characters). */
	readonly tool: string
	readonly outcome: ToolCallOutcome
	/** The structured result on `ok` (the ids it holds are the records returned or changed). */
	readonly result?: unknown
	/** The search this call made (`ToolDef.searchOf`), if it was one. */
	readonly search?: RecordSearch | null
	/** The client's address (core/http/client-address.ts). */
	readonly address: string
}

/**
 * A view an assistant app can show beside a tool's answer (MCP Apps, SEP-1865): one HTML file that
 * draws the tool result the app hands it and may call read tools through the app. The server
 * serves it as a `ui://` resource and links it from the tools it lists (`core/mcp/apps/`).
 */
export interface ViewDef {
	/** Lowercase words joined by dashes, e.g. `job-pipeline`; its address is `ui://benchline/<name>-<content hash>.html`. */
	readonly name: string
	readonly title: string
	/** What the view shows, for the resource list. */
	readonly description: string
	/**
	 * The view's HTML document, next to the module, holding the `<!-- benchline:head -->` and
	 * `<!-- benchline:runtime -->` markers where the shared stylesheet and script go.
	 */
	readonly file: URL
	/** The tools whose results it shows: the module's own or those of a module it requires. */
	readonly tools: readonly string[]
	/**
	 * Tools the view calls itself, for more data or to ask for a write. Each result it shows lists in
	 * `_meta["benchline/usable-tools"]` which of these the person may use, so the view leaves out
	 * what the role cannot reach rather than calling it and showing the refusal.
	 */
	readonly calls?: readonly string[]
	/** Values the view reads at start (as JSON), e.g. labels it shares with the portal. */
	readonly settings?: Readonly<Record<string, unknown>>
}

/**
 * A prompt an assistant app offers its user (MCP `prompts`): a real workflow written out as the
 * message the app sends for them, naming the tools it uses. Listed only to a person who may use
 * every one of those tools; arguments are strings (the protocol's), checked like a tool's.
 */
export interface PromptDef<P extends TObject = TObject> {
	/** snake_case, e.g. `screen_applicants`. */
	readonly name: string
	readonly title: string
	/** For the person choosing it: what the assistant will do. */
	readonly description: string
	/** An object of optional or required strings; unknown properties are refused. */
	readonly params: P
	/** The tools the workflow uses: the module's own or those of a module it requires. */
	readonly tools: readonly string[]
	/** The message sent for the person, with the arguments filled in. */
	text(args: Static<P>): string
}

export const definePrompt = <P extends TObject>(prompt: PromptDef<P>): PromptDef<P> => prompt

/** Turns a bearer credential with a known prefix into an actor (or null when unknown/revoked). */
export interface CredentialVerifier {
	/** Credential prefix, e.g. `bl_vk_`. */
	readonly prefix: string
	/** Where the credential is accepted. */
	readonly door: 'rest' | 'mcp' | 'scim'
	verify(deps: AppDeps, token: string): Promise<Actor | null>
}

/**
 * A command's options: `string` takes a value, `flag` none; `list` takes a value and may be given
 * more than once, its values reaching the command joined with commas (`--grant a --grant b` = `--grant a,b`).
 * Any other option given twice is refused.
 */
export type OptionSpec = Record<string, 'string' | 'flag' | 'list'>

/** An operator CLI command, e.g. `vendor create --workspace S --name N`. */
export interface CommandDef {
	/** Words before the options, e.g. `vendor create`. */
	readonly name: string
	readonly usage: string
	readonly options: OptionSpec
	readonly required?: readonly string[]
	/**
	 * Checks of the options against each other or of their form (`--until` after `--since`), made as
	 * they are parsed, before the configuration is read and the database opened: a mistake in them is a
	 * bad argument (`UsageError`, exit 2 with the usage line), never a failure of the command.
	 */
	check?(options: Record<string, string | boolean>): void
	/**
	 * Returns the JSON object printed with `--json`, and lines for people. A command whose output is
	 * the data itself (an export) streams it to `output` as it reads it, and returns empty lines.
	 */
	run(deps: AppDeps, options: Record<string, string | boolean>, output: CommandOutput): Promise<{ json: Record<string, unknown>; lines: string[] }>
}

/** Where a command streams what it exports (the CLI: standard output). */
export interface CommandOutput {
	write(chunk: string): Promise<void>
}

/** Thrown by a command for bad arguments: the CLI prints the usage line and exits non-zero. */
export class UsageError extends Error {}

/**
 * Keyset position inside one contributed source: strictly after `(at, id)` in ascending order,
 * ids compared byte-wise (SQL: `(at, id collate "C") > (after.at, after.id)`). The merging
 * module turns its own cursor into one such position per source.
 */
export interface SourcePosition {
	readonly at: Date
	readonly id: string
}

/**
 * An extension point: a module declares it (`ports`) and reads what other modules contribute to
 * it (`contributes`). Only the declaring module knows the shape `T` of a contribution (a review
 * source, a search provider…): the core holds the mechanism, never the shapes. A contributor
 * requires the declaring module, whose public API it then builds for.
 */
export interface PortDef<T> {
	/** `<declaring module>:<name>`, e.g. `review:source`. */
	readonly key: PortKey
	/** What a contribution does, for people reading the module list. */
	readonly description: string
	/** True when at most one module may contribute (e.g. the one that owns workspaces); the registry refuses a second. */
	readonly single?: boolean
	/** Never set: it carries the type of a contribution, so `contribute` and `contributionsTo` check it. */
	readonly contribution?: T
}

export type PortKey = `${string}:${string}`

/** One module's contribution to a port (built with `contribute`, which checks its type). */
export interface Contribution<T = unknown> {
	readonly port: PortDef<T>
	readonly value: T
}

/** Declares a port; the declaring module lists it in its `ports`. */
export const definePort = <T>(key: PortKey, description: string, options: { single?: boolean } = {}): PortDef<T> => ({ key, description, ...options })

/** A contribution to `port`, typed by the port. */
export const contribute = <T>(port: PortDef<T>, value: T): Contribution<T> => ({ port, value })

/**
 * A part of another module's record page, e.g. the pipeline on a job's page (contributed by the
 * candidates module) or the documents on a candidate's page (documents module). The page's own
 * module names its record kind (`job`, `candidate`, `application`); the contributing module renders
 * what it knows about that record, limited to what the person may see, or null to show nothing.
 */
export interface PageSection {
	/** The record page this section belongs on, e.g. `job`. */
	readonly page: string
	/** Position on the page, lowest first. */
	readonly order: number
	/** Shown only to people whose role holds this permission. */
	readonly permission?: PermissionKey
	/**
	 * `context.query` holds the page's query parameters, checked by the page's own module: empty on
	 * the record's main view; a list view (e.g. `/jobs/<id>?stage=screening&cursor=…`) asks for one
	 * longer list, paged, and only the section that owns that list answers (the others return null).
	 * `context.refused`: a form of this page that was refused, to show again with its values and errors.
	 */
	render(deps: AppDeps, session: PageSession, recordId: string, context?: SectionContext): Promise<SafeHtml | null>
	/**
	 * Confirmations of this section's forms, by the key their Post/Redirect/Get answer puts in
	 * `?done=` on the record page (e.g. `todo-added` → "The to-do was added.").
	 */
	readonly notices?: Readonly<Record<string, string>>
}

/**
 * What a record page hands its sections besides the record: the page's query (a section may offer
 * a GET button of its own, e.g. `?check=vendor`) and, when a form of one section was refused, that
 * form's name, the values entered and the problems, so that section shows them again while the
 * page answers 422 with the error summary at its top.
 */
export interface SectionContext {
	readonly query?: PageQuery
	readonly refused?: RefusedForm
	/** The `?done=` key of the change just made on the page (Post/Redirect/Get). */
	readonly done?: string
	/**
	 * Set by `pageSections` for the section whose `notices` hold `done`: its confirmation
	 * (`actionNotice`), which the section shows right after the button that made the change.
	 */
	readonly notice?: SafeHtml
}

/**
 * A form on a record page that was refused (422, 429…) and is shown again: which form, every value
 * typed (nothing is lost) and what is wrong with which field. The module that owns the form handles
 * its post and renders the record page again with this; only that form's section uses it.
 */
export interface RefusedForm {
	/** Which form, e.g. `submit-to-vendor`, `todo`, `bench`. */
	readonly form: string
	/** Every value entered (a list for a group of checkboxes). */
	readonly values: Readonly<Record<string, string | readonly string[]>>
	/** Problems by field id (the ids the section gives its fields). */
	readonly errors: readonly FieldError[]
}

/** Names people know records by, for a record type this module owns (the activity log shows them). */
export interface RecordNames {
	readonly type: string
	/** The records' names, each with a link when `reader` can open it. */
	names(deps: AppDeps, reader: Actor, ids: string[]): Promise<Map<string, { name: string; href?: string }>>
}

/**
 * What an activity line's `detail` adds to its sentence, for one action this module logs (e.g. a
 * stage change: "from Applied to Screening"). Given the lines' details, it answers the words for each,
 * in order, or null where the detail says nothing (old lines written before it was recorded).
 */
export interface ActivityChange {
	readonly action: string
	words(deps: AppDeps, workspaceId: string, details: readonly (Record<string, unknown> | null)[]): Promise<(string | null)[]>
}

/** A record page's query parameters as its sections receive them (only those the page accepts). */
export type PageQuery = Readonly<Record<string, string | undefined>>

export interface WorkspaceRef {
	readonly id: string
	readonly slug: string
}

export interface ModuleDef {
	/** Doubles as the permission prefix. */
	readonly name: string
	readonly description: string
	/** Modules whose public API this one calls or to whose ports it contributes; checked at start-up (present, no cycles). */
	readonly requires?: readonly string[]
	/**
	 * Modules whose tables its tables point at (foreign keys) without calling them: outbox's rows point
	 * at auth's workspaces while auth calls outbox. A reference to a module in neither list is refused
	 * at start-up (core/registry.ts); migrations run after the tables referenced.
	 */
	readonly references?: readonly string[]
	readonly permissions?: readonly PermissionDef[]
	/**
	 * Permission keys this module's code asks `deps.permissions.can()` or `roleHas()` about (its own
	 * or a required module's), besides those named on its routes, tools, nav links and page sections.
	 * The registry refuses a key no module declares, and counts it as a use of the permission; a
	 * test reads every module's code and fails when this list and the calls disagree
	 * (tests/contract/permission-checks.test.ts).
	 */
	readonly checks?: readonly PermissionKey[]
	/**
	 * The module's tables: the exports of its `table.ts` (`import * as tables from './table.ts'`).
	 * Start-up refuses to serve when one of them, or one of their columns, does not exist after migrating.
	 */
	readonly tables?: Readonly<Record<string, unknown>>
	/**
	 * Its migrations folder, `new URL('./migrations/', import.meta.url)`, written by `npm run db:generate`
	 * from its `table.ts`; applied at start-up after the modules whose tables its tables reference.
	 */
	readonly migrations?: URL
	/** REST routes and pages; every route declares its credential (see `core/http/auth.ts`). */
	readonly routes?: (deps: AppDeps, kit: HttpKit) => Elysia<any, any, any, any, any, any, any>
	/**
	 * The addresses its routes live under, e.g. `/jobs` (that address and everything below it) or
	 * `/sitemap.xml`. A route elsewhere stops the app at start-up, so a debug or test route cannot
	 * slip in unnoticed; the list of what the app serves is these, plus the core's own.
	 */
	readonly paths?: readonly string[]
	/** The one module that signs people in to the portal provides this (pages resolve sessions through it). */
	readonly sessionResolver?: SessionResolver
	readonly tools?: readonly ToolDef<any, any>[]
	/** Views of tool results for assistant apps that show MCP Apps (see `ViewDef`). */
	readonly views?: readonly ViewDef[]
	/** Workflows offered to assistant apps as MCP prompts (see `PromptDef`). */
	readonly prompts?: readonly PromptDef<any>[]
	readonly credentials?: readonly CredentialVerifier[]
	readonly commands?: readonly CommandDef[]
	/**
	 * The module's own environment variables (a provider's secrets, its limits): parsed and checked
	 * at start-up with the core's, every problem reported at once; read with `deps.config.settings.of(def)`.
	 */
	readonly settings?: SettingsDef<any>
	/** Extension points this module declares; it reads their contributions with `contributionsTo` (core/registry.ts). */
	readonly ports?: readonly PortDef<any>[]
	/** What this module contributes to ports of modules it requires (or to its own). */
	readonly contributes?: readonly Contribution<any>[]
	/** Fills a workspace with realistic demo data, deterministically; runs in dependency order. */
	readonly seed?: (deps: AppDeps, workspace: WorkspaceRef) => Promise<void>
	/**
	 * Links in the portal navigation, shown to people whose role holds the permission. `work` links
	 * (the pages people spend the day in) come first, in `order`; settings and admin pages after them.
	 */
	readonly nav?: readonly (NavLink & { permission?: PermissionKey; counter?: NavCounter })[]
	/**
	 * How the activity log page tells people what happened: each action this module records, as the
	 * words after the person's name ("published the job"), and the names of the records it logs
	 * (`targetType` → names and addresses by id, limited to the workspace).
	 */
	readonly activityLabels?: Readonly<Record<string, string>>
	readonly recordNames?: readonly RecordNames[]
	/** Words an activity line's recorded detail adds to its sentence, by action (see `ActivityChange`). */
	readonly activityChanges?: readonly ActivityChange[]
	/** Sections this module adds to other modules' record pages (see `PageSection`). */
	readonly pageSections?: readonly PageSection[]
	/**
	 * The queues this module works through (its outbox, deliveries, alerts): their depth and how long
	 * the entry due longest ago has waited are read at each scrape of `/metrics`
	 * (`benchline_queue_depth{queue}`, `benchline_queue_oldest_age_seconds{queue}`).
	 */
	readonly queues?: readonly QueueDef[]
	/** Bounded worker pools this module runs (e.g. file readers): busy and queued, read at each scrape. */
	readonly pools?: readonly PoolDef[]
	/**
	 * Told of every tool call the MCP door answers, after it is answered (the audit trail). Must not
	 * wait on anything: the call's answer does not wait for it.
	 */
	readonly observeToolCall?: (deps: AppDeps, report: ToolCallReport) => void
	/** Background work started with the server (outbox, sweeps); returns a stop function. */
	readonly start?: (deps: AppDeps) => () => Promise<void> | void
	/**
	 * Writes out what the module still holds in memory (a write-behind buffer): called by `closeDeps`,
	 * so by a stopping server and at the end of every CLI command, whose process would otherwise exit
	 * with it unwritten.
	 */
	readonly settle?: (deps: AppDeps) => Promise<void>
}

/** What waits for the person behind a navigation link (unread, overdue): shown beside it when above 0. */
export type NavCounter = (deps: AppDeps, session: PageSession) => Promise<number>

/**
 * What every route, tool, command and service receives: configuration, the database,
 * the logger, the compiled permissions, the rate limiter, the server secret and the clock.
 * Built once by `core/main.ts` (or a test) and passed down (imported from core/deps.ts); nothing is a global.
 */
export interface AppDeps {
	readonly config: Config
	readonly database: Database
	/** Shortcut for `database.db`. */
	readonly db: Db
	readonly log: Logger
	readonly permissions: Permissions
	readonly registry: Registry
	readonly limiter: RateLimiter
	/** Answers 2025-era MCP clients post to the questions a tool call asked them (`mcp/answers.ts`); through Redis with `REDIS_URL`. */
	readonly answers: AnswerRelay
	/** 32-byte server secret shared by every instance (HMAC of cursors, CSRF tokens). */
	readonly secret: Uint8Array
	/** Whether the database answers (requests fail fast with 503 while it does not). */
	readonly availability: Availability
	/** Prometheus metrics (`noMetrics` when `/metrics` is not served). */
	readonly metrics: Metrics
	/** OpenTelemetry spans (`noTracing` unless an OTLP endpoint is set). */
	readonly tracing: Tracing
	/** Whether the instance is shutting down (`/ready` answers 503 from then on). */
	readonly lifecycle: Lifecycle
	/** The application clock; tests move it to check expiries. */
	now(): Date
}

export interface Lifecycle {
	draining(): boolean
	/** Called when shutdown begins. */
	drain(): void
	/**
	 * Work left behind to run `ms` from now (core/work-left.ts): `closeDeps` waits for it before the
	 * database closes, so neither a CLI command nor a stopping server exits first. Resolves once it ran.
	 */
	later(ms: number, task: () => Promise<void>): Promise<void>
	/** Resolves once every `later` task has run (`closeDeps`). */
	settle(): Promise<void>
}

/** The module registry (built by `buildRegistry`, core/registry.ts). */
export interface Registry {
	/** Modules in dependency order (a module comes after everything it requires). */
	readonly modules: readonly ModuleDef[]
	readonly tools: readonly ToolDef<any>[]
	readonly views: readonly ViewDef[]
	readonly prompts: readonly PromptDef<any>[]
	/** What the modules contribute to each port, in dependency order (read with `contributionsTo`). */
	readonly contributions: ReadonlyMap<PortKey, readonly unknown[]>
	readonly warnings: readonly string[]
	/** Permission keys named by a tool, nav link, page section or a module's `checks` (routes are added by `checkRoutes`). */
	readonly permissionsUsed: ReadonlySet<string>
}

/** Permissions, compiled once from what the modules declare (`compilePermissions`, core/permissions.ts). */
export interface Permissions {
	/** Every declared permission, by key. */
	readonly all: ReadonlyMap<string, PermissionDef>
	/** True when the actor's role or personal grants include the permission. */
	can(actor: Pick<Actor, 'role' | 'grants'>, key: PermissionKey | string): boolean
	/** True when the role alone (without personal grants) includes the permission. */
	roleHas(role: Role, key: string): boolean
	/** Of these personal grants, those the role already includes (redundant under it: a role change ends them). */
	includedIn(role: Role, grants: readonly string[]): string[]
}

/** A signed-in portal session, as pages see it. */
export interface PageSession {
	readonly actor: Actor
	/** Token every form of this session must carry. */
	readonly csrf: string
	readonly sessionId: string
	/**
	 * The person's time zone (an IANA name; UTC until they choose one): every time on their pages is
	 * shown in it and every date they type is read in it (core/time.ts).
	 */
	readonly timeZone: string
	/** False until the person (or their browser, at sign-in) chose a zone: the profile page says so. */
	readonly timeZoneChosen?: boolean
	/** What waits behind the navigation links that count (by address), for the page being drawn (`navCountsFor`). */
	readonly navCounts?: Readonly<Record<string, number>>
	/**
	 * A page the person must go to before any other (a temporary password to replace): every other
	 * page redirects there (with `next`), every other signed-in request is refused with `reason`.
	 * The session resolver leaves it out on that page itself and on the few it needs (sign-out).
	 */
	readonly mustVisit?: { readonly path: string; readonly reason: string }
}

export type SessionResolver = (deps: AppDeps, request: Request, cookie: Record<string, any>) => Promise<PageSession | null>

/** A link in the portal navigation (contributed by modules, see `ModuleDef.nav`). */
export interface NavLink {
	href: string
	label: string
	/**
	 * `work` links (Home, Jobs, Candidates, Inbox…) come first; `settings` links after them. Default `settings`.
	 * `search`: not a link but the header's search box, a form sent to `href` with `q` (the search module's).
	 */
	section?: 'work' | 'settings' | 'search'
	/** Position within its section, lowest first (Home 0, Jobs 10, Candidates 20, Inbox 30, Calendar 40, To-dos 50). */
	order?: number
	/** What waits there for the person (unread, overdue), shown beside the label when above 0 (`PageSession.navCounts`). */
	count?: number
	/** Words after the count for screen readers ("unread", "overdue"). */
	countLabel?: string
}

/**
 * A queue a module works through (the outbox, webhook deliveries, alerts): how many entries wait and
 * how old the oldest one is. Declared in the module's `queues`; read at each scrape (core/metrics.ts).
 */
export interface QueueDef {
	/** snake_case, unique across modules, e.g. `outbox`: the `queue` label. */
	readonly name: string
	readonly description: string
	/**
	 * `oldestAgeSeconds`: since the entry due longest ago became due, 0 when none is due (never since it
	 * was made: a replayed or released old entry starts at 0). `dueAgeSeconds` (core/queue-age.ts) measures it.
	 */
	measure(deps: AppDeps): Promise<{ depth: number; oldestAgeSeconds: number }>
}

/** A bounded pool of workers a module runs (e.g. child processes reading files): busy and waiting now. */
export interface PoolDef {
	/** snake_case, unique across modules: the `pool` label. */
	readonly name: string
	readonly description: string
	measure(): { busy: number; queued: number }
}

/** Identity function that fixes the type of a module definition. */
export const defineModule = <M extends ModuleDef>(module: M): M => module

/** Identity function that fixes the type of a tool definition: `run` returns what `output` describes. */
export const defineTool = <P extends TObject, O extends TSchema>(tool: ToolDef<P, O>): ToolDef<P, O> => tool
