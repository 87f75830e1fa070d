/**
 * The workspace-directory port: how the outbox finds workspaces (to log a release in its
 * workspace, to take `--workspace <slug>`). The module that owns workspaces (auth) contributes it:
 * it sends its mail through the outbox, so it requires the outbox, which cannot ask it in turn.
 */
import type { AppDeps } from '../../core/deps.ts'
import type { Registry } from '../../core/registry.ts'
import { contributionsTo } from '../../core/registry.ts'
import { definePort, type WorkspaceRef } from '../../core/module.ts'
import type { Db } from '../../db/client.ts'

/**
 * Finds workspaces on the caller's connection or transaction: a query on another connection from
 * inside a transaction waits forever on the embedded database.
 */
export interface WorkspaceDirectory {
	bySlug(db: Db, slug: string): Promise<WorkspaceRef | null>
	/** Unknown ids are left out. */
	byIds(db: Db, ids: readonly string[]): Promise<Map<string, WorkspaceRef>>
}

/** One module owns workspaces, so the registry refuses a second contribution. */
export const workspaceDirectoryPort = definePort<WorkspaceDirectory>(
	'outbox:workspace-directory',
	'Finds workspaces by slug or id for the outbox (contributed by the module that owns workspaces)',
	{ single: true },
)

/** The workspace directory; throws when no module in the list contributes it. */
export function workspaceDirectory(registry: Pick<Registry, 'contributions'>): WorkspaceDirectory {
	const [directory] = contributionsTo(registry, workspaceDirectoryPort)
	if (!directory) throw new Error('No module contributes the workspace directory (port "outbox:workspace-directory")')
	return directory
}

/** The firm's footer, added to every e-mail and message to a candidate (`footer.ts`). */
export interface MessageFooter {
	/** The footer of each channel; '' for none. Read on the caller's transaction (see `WorkspaceDirectory`). */
	footerOf(deps: Pick<AppDeps, 'config'>, db: Db, workspaceId: string): Promise<{ email: string; text: string }>
}

/** Told when a recipient unsubscribes from marketing mail (a job alert's subscriber: the alert is deleted). */
export interface UnsubscribeListener {
	/** In the unsubscribe's transaction. */
	unsubscribed(db: Db, target: { workspaceId: string; type: string; id: string }): Promise<void>
}

export const unsubscribedPort = definePort<UnsubscribeListener>(
	'outbox:unsubscribed',
	'Told, in its transaction, when a recipient unsubscribes from marketing mail (the module that keeps what they subscribed to forgets it)',
)

/** One module keeps the firm's footer (templates), so the registry refuses a second contribution. */
export const messageFooterPort = definePort<MessageFooter>(
	'outbox:message-footer',
	'The firm’s footer that every e-mail and message to a candidate carries (contributed by the module that keeps it)',
	{ single: true },
)

/**
 * Where a candidate asks for a copy of their data or its erasure: written under every e-mail and
 * message to a candidate (`footer.ts`). The module that owns that page (privacy) contributes it.
 */
export interface PrivacyPage {
	/** The page's full address for the workspace, or null when it has none. Read on the caller's transaction. */
	urlOf(deps: Pick<AppDeps, 'config'>, db: Db, workspaceId: string): Promise<string | null>
}

export const privacyPagePort = definePort<PrivacyPage>(
	'outbox:privacy-page',
	'The page where a candidate asks for their data or its erasure, linked under every message to a candidate (contributed by the module that owns it)',
	{ single: true },
)
