// `npm run migration:create -- <name>`: writes the migration that brings the schema from the
// committed snapshot (the schema the existing migrations produce) to what the entities declare,
// updates the snapshot, and appends the migration to MIGRATIONS. Works offline: no database is
// read. A development command; nothing at run time writes migrations or snapshots.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { registerMigration } from "./migration-index.ts";
import { MIGRATIONS_DIR, openSnapshotOrm, SNAPSHOT_FILE } from "./migration-snapshot.ts";

const name = process.argv[2];
if (!name || !/^[a-z][a-z0-9-]*$/.test(name)) {
  console.error("usage: npm run migration:create -- <name-in-kebab-case>   (e.g. add-payment-links)");
  process.exit(2);
}
// Without the snapshot the migrator would diff against whatever database DATABASE_URL points at.
if (!existsSync(SNAPSHOT_FILE)) {
  console.error(`${SNAPSHOT_FILE} is missing; restore it from git`);
  process.exit(1);
}

const orm = await openSnapshotOrm();
try {
  const created = await orm.migrator.create(undefined, false, false, name);
  if (!created.fileName) {
    console.log("entities and snapshot agree; no migration needed");
  } else {
    const className = /export class (\w+)/.exec(created.code)?.[1];
    if (!className) throw new Error(`cannot find the class in ${created.fileName}`);
    const indexFile = join(MIGRATIONS_DIR, "index.ts");
    writeFileSync(indexFile, await registerMigration(readFileSync(indexFile, "utf8"), indexFile, className, created.fileName.replace(/\.ts$/, "")));
    console.log(`created core/src/db/migrations/${created.fileName} and added ${className} to MIGRATIONS:\n\n${created.code}`);
  }
} finally {
  await orm.close();
}
