import { defineConfig } from "vitest/config";

// Integration suites in test/ start their own core + facade processes against
// their own freshly created database, so files can run in parallel. The machine
// this runs on has 2 cores; each stack is two Node processes plus PostgreSQL
// work, so keep the number of concurrent files small.
// The facade's .tsx pages compile with tsconfig.json's "jsx"/"jsxImportSource" (preact), which
// Vite reads, so unit tests import them as they are; the services themselves run from dist/.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "core/**/*.test.ts", "facade/**/*.test.ts", "dispatcher/**/*.test.ts", "proto/*.test.ts", "proto/runtime/*.test.ts"],
    exclude: ["**/node_modules/**", "**/.paytami/**"],
    // Builds dist/ once; the harness launches the compiled services (test/support/stack.ts).
    globalSetup: ["test/support/global-setup.ts"],
    // Every /v1 answer a test receives is validated against the OpenAPI document (test/support/openapi-conformance.ts).
    setupFiles: ["test/support/openapi-conformance-setup.ts"],
    pool: "forks",
    fileParallelism: true,
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});
