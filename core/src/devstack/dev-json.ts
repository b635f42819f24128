// $PAYTAMI_HOME/dev.json: what `npm start` tells tools and people about the running stack. The CLI
// reads its defaults from here. It holds secrets (keys, internal token, embed token secret), hence
// mode 0600.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

// The documented keys (DESIGN §3), in the documented order; every value is a string.
const KEYS = [
  "base_url",
  "core_grpc",
  "core_http",
  "merchant_id",
  "test_api_key",
  "live_api_key",
  "internal_token",
  "embed_token_secret",
  "database_url",
  "nats_url",
  "dashboard_url",
  "dashboard_email",
  "dashboard_password",
] as const;

export type DevJson = Record<(typeof KEYS)[number], string>;

export const DEV_JSON = "dev.json";

// $PAYTAMI_HOME, else ./.paytami relative to the working directory (npm scripts run at the root).
export function paytamiHome(): string {
  return resolve(process.env.PAYTAMI_HOME || ".paytami");
}

// For the CLI, which people also run from subdirectories: $PAYTAMI_HOME, else the nearest
// .paytami/dev.json walking up from the working directory, else ./.paytami.
export function findPaytamiHome(): string {
  if (process.env.PAYTAMI_HOME) return resolve(process.env.PAYTAMI_HOME);
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".paytami", DEV_JSON))) return join(dir, ".paytami");
    if (dirname(dir) === dir) return resolve(".paytami");
  }
}

export function readDevJson(home: string): Partial<DevJson> | null {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(home, DEV_JSON), "utf8"));
    if (!parsed || typeof parsed !== "object") return null;
    const result: Partial<DevJson> = {};
    for (const key of KEYS) {
      const value = (parsed as Record<string, unknown>)[key];
      if (typeof value === "string") result[key] = value;
    }
    return result;
  } catch {
    return null;
  }
}

// Exactly the documented keys in the documented order; written atomically so a reader never sees
// half a file.
export function writeDevJson(home: string, data: DevJson): void {
  const ordered = Object.fromEntries(KEYS.map((key) => [key, data[key]]));
  const path = join(home, DEV_JSON);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(ordered, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}
