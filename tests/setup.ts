// Preloaded once per `bun test` process (bunfig.toml). Test runs log only warnings and errors.
process.env.LOG_LEVEL ??= 'warn'
process.env.DEMO = 'off'
