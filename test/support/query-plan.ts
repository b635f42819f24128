// What PostgreSQL plans for a query, for tests that check an index answers it (EXPLAIN, not run).
import { CompiledQuery, type Compilable } from "kysely";
import type { Db } from "../../core/src/db/orm.ts";

export interface PlanNode {
  "Relation Name"?: string;
  "Index Name"?: string;
  "Plan Rows": number;
  Plans?: PlanNode[];
}

/** Every node of the plan for `query`, outermost first. */
export async function planNodes(database: Db, query: Compilable): Promise<PlanNode[]> {
  const { sql, parameters } = query.compile();
  const result = await database.executeQuery<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(CompiledQuery.raw(`explain (format json) ${sql}`, [...parameters]));
  const nodes: PlanNode[] = [];
  const walk = (node: PlanNode): void => {
    nodes.push(node);
    node.Plans?.forEach(walk);
  };
  walk(result.rows[0]!["QUERY PLAN"][0].Plan);
  return nodes;
}

/** The indexes a plan reads, in its order. */
export const indexesOf = (nodes: PlanNode[]): string[] => nodes.flatMap((node) => (node["Index Name"] ? [node["Index Name"]] : []));
