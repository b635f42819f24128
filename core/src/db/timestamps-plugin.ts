import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from "kysely";

// MikroORM's pg type parsers hand timestamptz columns over as text
// ("2026-11-21 05:54:51.68+00"); rows read through Kysely are typed as Date,
// so every `*_at` column is parsed back into one here, in one place.
const PG_TIMESTAMP = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d(?:\.\d+)?)(?:([+-]\d\d)(?::?(\d\d))?|Z)$/;

export function parsePgTimestamp(text: string): Date {
  const match = PG_TIMESTAMP.exec(text);
  if (!match) throw new Error(`unexpected timestamp format: ${text}`);
  const offset = match[3] === undefined ? "Z" : `${match[3]}:${match[4] ?? "00"}`;
  return new Date(`${match[1]}T${match[2]}${offset}`);
}

export class TimestampsPlugin implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    for (const row of args.result.rows) {
      for (const key in row) {
        const value = row[key];
        if (typeof value === "string" && key.endsWith("_at")) row[key] = parsePgTimestamp(value);
      }
    }
    return args.result;
  }
}
