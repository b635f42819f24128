// Running one part of `npm run bench` on its own (`node test/bench/<part>.ts`): build dist/ (unless
// PAYTAMI_TEST_SKIP_BUILD=1), provision PostgreSQL (and NATS) unless DATABASE_URL (and NATS_URL)
// are set, print the part's report on stdout, tear down, and exit 0, or 1 with the error.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";

export const say = (msg: string): void => {
  process.stderr.write(`bench  | ${msg}\n`);
};

/** Whether the module of `meta` is the script node was started with. */
export function isMain(meta: ImportMeta): boolean {
  return process.argv[1] !== undefined && meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
}

export interface RunAloneOptions {
  /** The part starts processes from dist/ (default true). */
  build?: boolean;
  /** The part needs NATS besides PostgreSQL (default true). */
  nats?: boolean;
}

export async function runAlone(part: () => Promise<string | string[]>, options: RunAloneOptions = {}): Promise<never> {
  const { build = true, nats = true } = options;
  let stopInfra = async (): Promise<void> => undefined;
  try {
    if (build && process.env.PAYTAMI_TEST_SKIP_BUILD !== "1") {
      say("building dist/");
      const { buildServices } = await import("../../core/src/devstack/services.ts");
      buildServices();
    }
    if (!process.env.DATABASE_URL || (nats && !process.env.NATS_URL)) {
      const { provisionInfra } = await import("../../core/src/devstack/infra.ts");
      const home = fs.mkdtempSync(path.join(os.tmpdir(), "paytami-bench-"));
      // The cluster may run as an unprivileged user (when we are root), which must traverse the home.
      fs.chmodSync(home, 0o755);
      const infra = await provisionInfra(home);
      process.env.DATABASE_URL = infra.databaseUrl;
      process.env.NATS_URL = infra.natsUrl;
      stopInfra = async () => {
        await infra.stop();
        fs.rmSync(home, { recursive: true, force: true });
      };
    }
    const report = await part();
    process.stdout.write(`${Array.isArray(report) ? report.join("\n") : report}\n`);
    await stopInfra();
    process.exit(0);
  } catch (e) {
    process.stderr.write(`bench  | failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    await stopInfra().catch(() => undefined);
    process.exit(1);
  }
}
