/**
 * The identity provider's client secret at rest: sealed (AES-256-GCM) with a key derived from the
 * server secret for this purpose only, bound to the workspace (a sealed value copied to another
 * workspace's row does not open). Never shown again after it is saved.
 */
import { sealedBox } from '../../../core/sealed-box.ts'

const box = sealedBox('sso-client-secret')

export const sealClientSecret = (serverSecret: Uint8Array, workspaceId: string, clientSecret: string) => box.seal(serverSecret, workspaceId, clientSecret)

export const openClientSecret = (serverSecret: Uint8Array, workspaceId: string, sealed: string) => box.open(serverSecret, workspaceId, sealed)
