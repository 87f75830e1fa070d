/**
 * The module contract. A domain module is a value: `modules/<name>/index.ts` default-exports
 * `defineModule({...})`, and `modules/index.ts` lists the modules explicitly. The registry
 * (`core/registry.ts`) validates them all at start-up and assembles the server from them;
 * `core/` never imports a module.
 */
import type { Elysia } from 'elysia'
import type { Static, TObject, TSchema } from '@sinclair/typebox'
import type { Actor, Role } from './actor.ts'
import type { AppDeps } from './deps.ts'
import type { AuthPlugin, SessionResolver } from './http/auth.ts'

/** What a module's routes are built with: the auth macro plugin (`auth: …` on every route). */
export interface HttpKit {
	readonly auth: AuthPlugin
}

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

/** An MCP tool. Parameters and output are TypeBox schemas; `run` calls the module's service. */
export interface ToolDef<P extends TObject = TObject> {
	/** Tool name from the spec, e.g. `list_jobs`. */
	readonly name: string
	readonly title: string
	/** Written for a model: when to use the tool and what it returns. */
	readonly description: string
	/** Parameter object; unknown properties are refused. */
	readonly params: P
	/** Shape of the structured result. */
	readonly output: TSchema
	/** Required, no default: read tools are flagged read-only, write tools are not. */
	readonly readOnly: boolean
	readonly destructive?: boolean
	readonly idempotent?: boolean
	/** True when the tool reaches the outside world (sends mail, hands data to a vendor). */
	readonly openWorld?: boolean
	/** Permission the caller needs; tools the caller can never use are not listed. */
	readonly permission: PermissionKey
	run(ctx: ToolContext, args: Static<P>): Promise<unknown>
}

/** Turns a bearer credential with a known prefix into an actor (or null when unknown/revoked). */
export interface CredentialVerifier {
	/** Credential prefix, e.g. `bl_vk_`. */
	readonly prefix: string
	/** Where the credential is accepted. */
	readonly door: 'rest' | 'mcp'
	verify(deps: AppDeps, token: string): Promise<Actor | null>
}

export type OptionSpec = Record<string, 'string' | 'flag'>

/** An operator CLI command, e.g. `vendor create --workspace S --name N`. */
export interface CommandDef {
	/** Words before the options, e.g. `vendor create`. */
	readonly name: string
	readonly usage: string
	readonly options: OptionSpec
	readonly required?: readonly string[]
	/** Returns the JSON object printed with `--json`, and lines for people. */
	run(deps: AppDeps, options: Record<string, string | boolean>): Promise<{ json: Record<string, unknown>; lines: string[] }>
}

/** Thrown by a command for bad arguments: the CLI prints the usage line and exits non-zero. */
export class UsageError extends Error {}

/** A search provider contributes typed results to the `search` tool. */
export interface SearchProvider {
	readonly type: string
	search(deps: AppDeps, actor: Actor, q: string, limit: number): Promise<SearchHit[]>
}

export interface SearchHit {
	readonly type: string
	readonly id: string
	readonly title: string
	readonly snippet: string
	readonly score: number
}

export interface JobFacts {
	readonly applicantCount?: number
	readonly applicationsByStage?: Record<string, number>
}

export interface WorkspaceRef {
	readonly id: string
	readonly slug: string
}

export interface ModuleDef {
	/** Doubles as the permission prefix. */
	readonly name: string
	readonly description: string
	/** Modules whose public API this one calls; checked at start-up (present, no cycles). */
	readonly requires?: readonly string[]
	readonly permissions?: readonly PermissionDef[]
	/** REST routes and pages; every route declares `auth` (see `core/http/auth.ts`). */
	readonly routes?: (deps: AppDeps, kit: HttpKit) => Elysia<any, any, any, any, any, any, any>
	/** The one module that signs people in to the portal provides this (pages resolve sessions through it). */
	readonly sessionResolver?: SessionResolver
	readonly tools?: readonly ToolDef<any>[]
	readonly credentials?: readonly CredentialVerifier[]
	readonly commands?: readonly CommandDef[]
	readonly searchProviders?: readonly SearchProvider[]
	/**
	 * Facts this module knows about jobs (e.g. applicant counts and counts per stage), shown by the
	 * job tools; the map is keyed by job id and limited to what the actor may see.
	 */
	readonly jobFacts?: (deps: AppDeps, actor: Actor, jobIds: string[]) => Promise<Map<string, JobFacts>>
	/** Fills a workspace with realistic demo data, deterministically; runs in dependency order. */
	readonly seed?: (deps: AppDeps, workspace: WorkspaceRef) => Promise<void>
	/** Links in the portal navigation, shown to people whose role holds the permission. */
	readonly nav?: readonly { href: string; label: string; permission?: PermissionKey }[]
	/** Background work started with the server (outbox, sweeps); returns a stop function. */
	readonly start?: (deps: AppDeps) => () => Promise<void> | void
}

/** Identity function that fixes the type of a module definition. */
export const defineModule = <M extends ModuleDef>(module: M): M => module

/** Identity function that fixes the type of a tool definition. */
export const defineTool = <P extends TObject>(tool: ToolDef<P>): ToolDef<P> => tool
