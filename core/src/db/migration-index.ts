// The ordered list of migrations the core applies at start (migrations/index.ts), as
// `npm run migration:create` extends it. Development only, like the snapshot.
import { format, resolveConfig } from "prettier";

const LIST = /export const MIGRATIONS = \[([^\]]*)\];/;

/**
 * `source` (the index file at `indexFile`) with `className` imported from `./<file>.ts` and appended
 * to MIGRATIONS, formatted with the repository's Prettier settings, so `npm run format:check` stays
 * clean after a new migration however the list is laid out.
 */
export async function registerMigration(source: string, indexFile: string, className: string, file: string): Promise<string> {
  if (!LIST.test(source)) throw new Error(`cannot find MIGRATIONS in ${indexFile}; add ${className} by hand`);
  const lines = source.replace(LIST, (_, items: string) => `export const MIGRATIONS = [${items.trim().replace(/,$/, "")},\n  ${className},\n];`).split("\n");
  const afterImports = lines.findLastIndex((line) => line.startsWith("import ")) + 1;
  lines.splice(afterImports, 0, `import { ${className} } from "./${file}.ts";`);
  return format(lines.join("\n"), { ...(await resolveConfig(indexFile)), filepath: indexFile });
}
