/**
 * What every route, tool, command and service receives: configuration, the database,
 * the logger, the compiled permissions, the rate limiter, the server secret and the clock.
 * Built once by `core/main.ts` (or a test) and passed down; nothing is a global.
 */
import type { Config } from './config.ts'
import type { Database, Db } from '../db/client.ts'
import type { Logger } from './log.ts'
import type { Permissions } from './permissions.ts'
import type { Registry } from './registry.ts'
import type { RateLimiter } from './http/rate-limit.ts'
import type { AnswerRelay } from './mcp/answers.ts'
import type { Availability } from './http/availability.ts'
import type { Metrics } from './metrics.ts'
import type { Tracing } from './tracing.ts'

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
}
