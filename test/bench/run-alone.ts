// How a bench part runs alone (`node test/bench/<part>.ts`): builds dist/ unless
// PAYTAMI_TEST_SKIP_BUILD=1, provisions its own PostgreSQL + NATS unless DATABASE_URL and NATS_URL
// are set (as bench.ts does), prints the part's report on stdout and exits 0, or 1 on a failure.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { buildServices } from "../../core/src/devstack/services.ts";

export function benchSay(msg: string): void {
  process.stderr.write(`bench  | ${msg}\n`);
}

export function runAlone(part: () => Promise<string | string[]>): void {
  const main = async () => {
    if (process.env.PAYTAMI_TEST_SKIP_BUILD !== "1") {
      benchSay("building dist/");
      buildServices();
    }
    let stopInfra = async () => undefined as void;
    if (!process.env.DATABASE_URL || !process.env.NATS_URL) {
      const { provisionInfra } = await import("../../core/src/devstack/infra.ts");
      const home = fs.mkdtempSync(path.join(os.tmpdir(), "paytami-bench-"));
      fs.chmodSync(home, 0o755);
      const infra = await provisionInfra(home);
      process.env.DATABASE_URL = infra.databaseUrl;
      process.env.NATS_URL = infra.natsUrl;
      stopInfra = async () => {
        await infra.stop();
        fs.rmSync(home, { recursive: true, force: true });
      };
    }
    try {
      const report = await part();
      process.stdout.write(`${Array.isArray(report) ? report.join("\n") : report}\n`);
    } finally {
      await stopInfra();
    }
  };
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      benchSay(`failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      process.exit(1);
    },
  );
}
