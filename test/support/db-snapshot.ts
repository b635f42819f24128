import type { Stack } from "./stack.ts";
import { eventually } from "./eventually.ts";

/**
 * Every row of every table, as text, once the relay's queue is empty (API keys without
 * last_used_at, which any earlier use of a key may still be writing; without request_logs, the
 * facade's record of the requests themselves, which arrives in batches after the answers): equal
 * snapshots mean no call changed anything.
 */
export async function databaseSnapshot(s: Stack): Promise<Record<string, string>> {
  await eventually(async () => ((await s.sql("select 1 from outbox_pending")).length === 0 ? true : undefined), 20_000, "the outbox to drain");
  const tables = await s.sql<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'",
  );
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    if (name === "request_logs") continue;
    const rows = name === "api_keys" ? "(select id, merchant_id, mode, digest, last4, created_at, expires_at, revoked_at from api_keys)" : `"${name}"`;
    const [row] = await s.sql<{ digest: string | null }>(`select md5(string_agg(t::text, ',' order by t::text)) as digest from ${rows} t`);
    out[name] = row?.digest ?? "";
  }
  return out;
}
