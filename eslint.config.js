// ESLint over every hand-written source file: typescript-eslint's recommended-type-checked rules on
// TypeScript (types from tsconfig.json through the project service), ESLint's recommended rules on
// the few plain JavaScript files, and eslint-config-prettier last so no rule argues with Prettier.
// typescript-eslint reads types through the `typescript` package, which is TypeScript 6 here
// (TypeScript 7, `@typescript/native`, ships no JavaScript API yet); see package.json.
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import { defineConfig, globalIgnores } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

export default defineConfig(
  globalIgnores([
    "proto/gen/",
    "dist/",
    "facade/sdk/dist/",
    // Written by @hey-api/openapi-ts (node facade/sdk/generate-types.ts), never edited.
    "facade/sdk/src/generated/",
    ".paytami/",
    "test-results/",
    "coverage/",
    "artifacts/",
    // Written by `npm run migration:create` (MikroORM's generator) and never edited after.
    "core/src/db/migrations/2*.ts",
  ]),
  // A disable comment that no longer silences anything is an error, so none outlives its reason.
  { linterOptions: { reportUnusedDisableDirectives: "error" } },
  {
    files: ["**/*.ts", "**/*.tsx"],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // `async` without `await` is how a function meets a Promise-returning interface and turns a throw
      // into a rejection (processor and bank stubs, health probes, Koa middleware, fakes in tests);
      // promises left unawaited are no-floating-promises' and no-misused-promises' job.
      "@typescript-eslint/require-await": "off",
      // tsc's own convention (noUnusedParameters): `_name` is a parameter a signature must keep; and
      // `const { secret: _secret, ...rest } = row` is how a field is left out of a copy.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", ignoreRestSiblings: true }],
    },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
  {
    // Tests read response bodies as untyped JSON (test/support/http.ts: `Res.json`) and assert their
    // shape with expect; typing every body would restate the API in each test.
    files: ["test/**/*.ts", "**/*.test.ts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off", // callbacks over `res.json` arrays need `any` params (no contextual type from an any-typed call)
      "@typescript-eslint/no-unsafe-member-access": "off", // reading fields of a JSON body
      "@typescript-eslint/no-unsafe-assignment": "off", // naming a JSON body or one of its fields
      "@typescript-eslint/no-unsafe-argument": "off", // passing a JSON field to expect or to the next request
      "@typescript-eslint/no-unsafe-call": "off", // array methods on a JSON body's list
      "@typescript-eslint/no-unsafe-return": "off", // helpers that return a JSON body
    },
  },
  prettier,
);
