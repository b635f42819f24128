// The migrator's schema snapshot: the schema the committed migrations produce, as the entities
// describe it. Development only (`npm run migration:create`, the schema test); the running core
// never reads or writes it.
import { fileURLToPath } from "node:url";
import { MikroORM } from "@mikro-orm/postgresql";
import { ormConfig } from "./orm.ts";

export const MIGRATIONS_DIR = fileURLToPath(new URL("./migrations/", import.meta.url));
export const SNAPSHOT_FILE = `${MIGRATIONS_DIR}schema-snapshot.json`;

/** An ORM whose migrator diffs the entities against the snapshot; it needs no database. */
export async function openSnapshotOrm(): Promise<MikroORM> {
  const base = ormConfig({ databaseUrl: "postgres://offline/paytami", poolSize: 1 });
  return MikroORM.init({
    ...base,
    migrations: {
      ...base.migrations,
      snapshot: true,
      snapshotName: "schema-snapshot",
      path: MIGRATIONS_DIR,
      pathTs: MIGRATIONS_DIR,
      emit: "ts",
      fileName: (timestamp: string, label?: string) => `${timestamp}-${label}`,
    },
  });
}
