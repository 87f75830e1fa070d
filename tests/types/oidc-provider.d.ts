/** oidc-provider ships no types; the tests use its constructor, `use` and `callback` (tests/sso/provider.ts). */
declare module 'oidc-provider' {
	export default class Provider {
		constructor(issuer: string, configuration: Record<string, unknown>)
		use(middleware: (ctx: any, next: () => Promise<void>) => Promise<void>): void
		callback(): (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void
	}
}
