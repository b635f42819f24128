// The last step of `npm start` and `npm run cluster`: the sandbox merchant and its dashboard owner
// (kept from the last run while they still sign in), dev.json, and the lines telling the operator.
import { join } from "node:path";
import { CoreClient } from "../../../proto/core-client.ts";
import { seedDashboardOwner } from "./dashboard-owner.ts";
import { DEV_JSON, writeDevJson, type DevJson } from "./dev-json.ts";
import type { Lifecycle } from "./lifecycle.ts";
import { say } from "./report.ts";
import { seedSandboxMerchant } from "./seed.ts";
import type { StackSecrets } from "./stack-env.ts";

export interface SeedTarget {
  /** The first line printed once dev.json is written. */
  heading: string;
  home: string;
  previous: Partial<DevJson> | null;
  baseUrl: string;
  coreGrpc: string;
  coreHttp: string;
  databaseUrl: string;
  natsUrl: string;
  secrets: StackSecrets;
}

export async function seedAndWriteDevJson(life: Lifecycle, target: SeedTarget): Promise<void> {
  const { home, previous, baseUrl, secrets } = target;
  const connection = new CoreClient({ address: target.coreGrpc, internalToken: secrets.internalToken, timeoutMs: 15_000 });
  const seeded = life.interruptible(
    (async () => {
      const merchant = await seedSandboxMerchant(connection, previous);
      const owner = await seedDashboardOwner(
        connection,
        { coreHttp: target.coreHttp, facadeToken: secrets.facadeToken },
        merchant.merchant_id,
        previous,
        merchant.reused,
      );
      return { merchant, owner };
    })(),
  );
  const { merchant, owner } = await seeded.finally(() => connection.close());

  writeDevJson(home, {
    base_url: baseUrl,
    core_grpc: target.coreGrpc,
    core_http: target.coreHttp,
    merchant_id: merchant.merchant_id,
    test_api_key: merchant.test_api_key,
    live_api_key: merchant.live_api_key,
    internal_token: secrets.internalToken,
    embed_token_secret: secrets.embedTokenSecret,
    database_url: target.databaseUrl,
    nats_url: target.natsUrl,
    dashboard_url: `${baseUrl}/dashboard`,
    dashboard_email: owner.email,
    dashboard_password: owner.password,
  });

  say(target.heading);
  say(`  base URL:          ${baseUrl}`);
  say(`  sandbox merchant:  ${merchant.merchant_id}${merchant.reused ? " (kept from the last run)" : ""}`);
  say(`  sandbox test key:  ${merchant.test_api_key}`);
  say(`  dashboard:         ${baseUrl}/dashboard`);
  say(`  dashboard sign-in: ${owner.email} / ${owner.password}${owner.reused ? " (kept from the last run)" : ""}`);
  say(`  details:           ${join(home, DEV_JSON)}`);
}
