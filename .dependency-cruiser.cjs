// The import boundaries (issue 15, core/README.md "Boundaries"), checked by `npm run lint:deps`.
// Each process (core/, facade/, dispatcher/) imports only itself and the shared modules in proto/;
// the domain imports no transport and no job; nothing imports in a circle. A call is not an import:
// that the domain never forks the EntityManager is checked by core/src/domain/no-own-connections.test.ts.
//
// TypeScript 7 has no JavaScript API, so the sources are parsed with swc (@swc/core), which reports
// `import type` too (a type from another process is a dependency on it all the same). Without swc
// dependency-cruiser would only warn and skip every .ts file, passing on nothing: so it is required.
try {
  require.resolve("@swc/core");
} catch {
  throw new Error("lint:deps needs @swc/core (a devDependency) to parse TypeScript: run npm ci");
}

const TEST = "\\.test\\.tsx?$";
// Unanchored: a node_modules linked from another checkout resolves to a path outside this one.
const TRANSPORT_PACKAGES = "(^|/)node_modules/(koa|@koa/router|@types/koa|@types/koa__router|@grpc/grpc-js|@trpc/server)/";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A cycle ties its modules into one: none can be understood, tested or moved alone.",
      from: {},
      to: { circular: true },
    },
    {
      name: "facade-imports-no-other-process",
      severity: "error",
      comment: "The facade reaches the core over gRPC only; what it shares with other processes lives in proto/.",
      from: { path: "^facade/", pathNot: "^facade/dashboard/" },
      to: { path: "^(core|dispatcher)/" },
    },
    {
      name: "dashboard-app-imports-only-the-router-type",
      severity: "error",
      comment:
        "The dashboard app (a browser program) calls the core through /dashboard/trpc; of the core it imports " +
        "only the type of its tRPC router (`import type { AppRouter }` from core/src/trpc/router.ts), which types its client.",
      from: { path: "^facade/dashboard/" },
      to: { path: "^(core|dispatcher)/", pathNot: "^core/src/trpc/router\\.ts$" },
    },
    {
      name: "dashboard-app-router-import-is-type-only",
      severity: "error",
      comment: "A value import of the core's router would bundle the core (its database code included) into the browser app.",
      from: { path: "^facade/dashboard/" },
      to: { path: "^core/src/trpc/router\\.ts$", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "dispatcher-imports-no-other-process",
      severity: "error",
      comment: "The dispatcher reaches the core over gRPC only; what it shares with other processes lives in proto/.",
      from: { path: "^dispatcher/" },
      to: { path: "^(core|facade)/" },
    },
    {
      name: "core-imports-no-other-process",
      severity: "error",
      comment:
        "The core (its CLI included) imports neither the facade nor the dispatcher: shared code lives in proto/. " +
        "Exception: core/src/trpc/init.test.ts checks that the tRPC error statuses agree with the facade's table.",
      from: { path: "^core/", pathNot: "^core/src/trpc/init\\.test\\.ts$" },
      to: { path: "^(facade|dispatcher)/" },
    },
    {
      name: "proto-imports-no-process",
      severity: "error",
      comment:
        "proto/ is what the processes share, so it depends on none of them. " + "Exception: proto/enums.test.ts checks the codecs against the core's lists.",
      from: { path: "^proto/", pathNot: "^proto/enums\\.test\\.ts$" },
      to: { path: "^(core|facade|dispatcher)/" },
    },
    {
      name: "domain-imports-no-transport",
      severity: "error",
      comment: "Domain operations are called by transports, never the other way round (core/README.md, Layering).",
      from: { path: "^core/src/domain/", pathNot: TEST },
      to: { path: ["^core/src/(grpc|trpc|http|cli)/", TRANSPORT_PACKAGES] },
    },
    {
      name: "domain-imports-no-job",
      severity: "error",
      comment:
        "Jobs drive domain operations through the claim mechanism; the domain does not depend on them. " +
        "(A domain unit test may drive a job: tests are not part of the domain.)",
      from: { path: "^core/src/domain/", pathNot: TEST },
      to: { path: "^core/src/jobs/" },
    },
    {
      name: "code-imports-no-test-support",
      severity: "error",
      comment: "test/ holds the harness and the cross-process suites; the processes' own code never imports it.",
      from: { path: "^(core|facade|dispatcher|proto)/", pathNot: TEST },
      to: { path: "^test/" },
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      comment: "An import that resolves to nothing is a typo or a file the cruise cannot see; either hides a boundary.",
      from: {},
      // dist/ is the build, imported by a test helper only once it exists.
      to: { couldNotResolve: true, pathNot: "^(\\.\\./)+dist/" },
    },
  ],
  options: {
    parser: "swc",
    moduleSystems: ["es6"],
    doNotFollow: { path: "(^|/)node_modules/" },
    exclude: { path: "^(dist|\\.paytami)/" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "types", "node", "default"],
      extensions: [".ts", ".tsx", ".d.ts", ".js", ".mjs", ".cjs"],
      mainFields: ["module", "main", "types", "typings"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
