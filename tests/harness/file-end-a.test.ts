/** A fixture of file-end.test.ts (skipped in the suite itself): see file-end-fixture.ts. */
import { fileEndStep } from './file-end-fixture.ts'

fileEndStep('file a')
