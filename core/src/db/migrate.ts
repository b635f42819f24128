// `npm run migrate`: applies pending migrations and exits (the core also does
// this at startup unless MIGRATE_ON_START=false).
import { createLogger } from "../../../proto/runtime/logger.ts";
import { migrate, openOrm } from "./orm.ts";

const log = createLogger("migrate");
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  log.error("DATABASE_URL is required");
  process.exit(1);
}
const orm = await openOrm({ databaseUrl, poolSize: 2 });
try {
  const applied = await migrate(orm);
  log.info({ applied }, applied.length ? "migrations applied" : "schema is up to date");
} finally {
  await orm.close();
}
