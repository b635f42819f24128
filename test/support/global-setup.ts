// Vitest global setup: compile the services into dist/ once per run, so every test
// file's stack launches them the way `npm run core|facade|dispatcher` does.
// PAYTAMI_TEST_SKIP_BUILD=1 (dist/ is already fresh) skips the build.
import { buildServices } from "../../core/src/devstack/services.ts";

export default function setup(): void {
  if (process.env.PAYTAMI_TEST_SKIP_BUILD === "1") return;
  const t0 = Date.now();
  buildServices();
  process.stderr.write(`[paytami tests] built dist/ in ${Date.now() - t0} ms\n`);
}
