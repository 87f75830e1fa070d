// Preloaded once per `bun test` process (bunfig.toml).
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

process.env.LOG_LEVEL ??= 'warn'
process.env.DEMO = 'off'
// Files the tests store (résumés, documents) go to a throwaway folder, never ./data.
process.env.DATA_DIR = mkdtempSync(join(tmpdir(), 'benchline-test-'))

// Tests that start servers or browsers need more than bun's 5 s default (also when run as `bun test <file>`).
import { setDefaultTimeout } from 'bun:test'
setDefaultTimeout(30_000)
