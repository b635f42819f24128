// PostgreSQL parses and plans an unnamed statement on every execution. The statements a
// PreparedStatement sends never change their text, so each gets a name, and node-postgres parses it
// once per connection (its own cache of the names it has prepared) and then only binds and executes.
import type pg from "pg";

export type ClientClass = new (config?: pg.ClientConfig) => pg.Client;

const names = new Map<string, string>();

/** Gives `sql` a statement name, the same one for the same text. */
export function nameStatement(sql: string): string {
  let name = names.get(sql);
  if (!name) names.set(sql, (name = `paytami_${names.size + 1}`));
  return name;
}

type Query = (this: unknown, ...args: unknown[]) => unknown;

/** `base` with its `query(text, values)` sent as the named statement when `text` has a name. */
export function namingClientClass(base: ClientClass): ClientClass {
  const Naming = class extends base {};
  (Naming.prototype as unknown as { query: Query }).query = function (this: unknown, ...args: unknown[]) {
    // Looked up per call: instrumentation-pg may patch pg's query after this class is made.
    const { query } = base.prototype as { query: Query };
    // (text, values), or (text, values, callback) as pg's Pool.query calls its client.
    const [text, values, callback] = args;
    const plain = typeof text === "string" && Array.isArray(values) && (args.length === 2 || (args.length === 3 && typeof callback === "function"));
    const name = plain ? names.get(text) : undefined;
    return name ? query.call(this, { name, text, values }, ...args.slice(2)) : query.apply(this, args);
  };
  return Naming;
}
