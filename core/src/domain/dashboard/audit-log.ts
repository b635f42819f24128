import type { Mode } from "../../config.ts";
import { db } from "../../db/orm.ts";
import type { SessionCaller } from "../caller.ts";
import type { CoreDeps } from "../deps.ts";
import { fail } from "../errors.ts";
import type { Tx } from "../unit-of-work.ts";

// DESIGN §5's audit log: every sign-in (success and failure) and every dashboard mutation, with who,
// for which merchant and mode, what, on which object, from where and when. Written after the change
// it records committed (a mutation that failed changed nothing and is not recorded, a failed
// sign-in is), kept AUDIT_RETENTION (jobs/purge-audit-log.ts).

export interface AuditRecord {
  userId: string | null;
  merchantId: string | null;
  mode: Mode | null;
  action: string;
  objectId?: string | null | undefined;
  clientIp: string | null | undefined;
}

export async function recordAudit(tx: Tx, now: Date, entry: AuditRecord): Promise<void> {
  await db(tx)
    .insertInto("audit_log")
    .values({
      user_id: entry.userId,
      merchant_id: entry.merchantId,
      mode: entry.mode,
      action: entry.action,
      object_id: entry.objectId ?? null,
      client_ip: entry.clientIp ?? null,
      created_at: now,
    })
    .execute();
}

/** What a session mutation acted on: the id of what it answered, else of what it was asked about. */
export function auditedObject(input: unknown, value: unknown): string | null {
  const idOf = (thing: unknown): string | undefined => {
    if (typeof thing === "string") return thing;
    if (thing === null || typeof thing !== "object") return undefined;
    const record = thing as Record<string, unknown>;
    if (typeof record.id === "string") return record.id;
    // An idempotent command's answer ({value, replayed}) and body ({input}); a webhook endpoint with
    // its secret ({endpoint, secret}) and what names an endpoint ({endpointId, since}).
    return (
      idOf(record.value) ??
      idOf(record.input) ??
      idOf(record.endpoint) ??
      (typeof record.endpointId === "string" ? record.endpointId : undefined) ??
      (typeof record.user_id === "string" ? record.user_id : undefined)
    );
  };
  return idOf(value) ?? idOf(input) ?? null;
}

/** A session mutation that succeeded, recorded for its session's user, merchant and mode. */
export function recordSessionAction(deps: CoreDeps, tx: Tx, caller: SessionCaller, action: string, objectId: string | null): Promise<void> {
  return recordAudit(tx, deps.now(), {
    userId: caller.session.userId,
    merchantId: caller.merchantId,
    mode: caller.mode,
    action,
    objectId,
    clientIp: caller.session.clientIp,
  });
}

export interface AuditEntryView {
  id: string;
  user_id: string | null;
  user_email: string | null;
  mode: Mode | null;
  action: string;
  object_id: string | null;
  client_ip: string | null;
  created_at: string;
}

export interface AuditPage {
  data: AuditEntryView[];
  has_more: boolean;
}

/** The merchant's log, newest first (owners and admins: the operation's role). Both modes: sign-ins are of the person, not of one mode. */
export async function listAuditLog(
  _deps: CoreDeps,
  tx: Tx,
  caller: SessionCaller,
  query: { limit?: number | undefined; starting_after?: string | undefined },
): Promise<AuditPage> {
  const limit = query.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) fail("validation_error", "limit: must be an integer from 1 to 100.");
  if (query.starting_after !== undefined && !/^\d{1,18}$/.test(query.starting_after)) fail("validation_error", "starting_after: not an audit entry id.");
  let rows = db(tx)
    .selectFrom("audit_log")
    .leftJoin("dashboard_users", "dashboard_users.id", "audit_log.user_id")
    .select([
      "audit_log.seq",
      "audit_log.user_id",
      "dashboard_users.email",
      "audit_log.mode",
      "audit_log.action",
      "audit_log.object_id",
      "audit_log.client_ip",
      "audit_log.created_at",
    ])
    .where("audit_log.merchant_id", "=", caller.merchantId)
    .orderBy("audit_log.seq", "desc")
    .limit(limit + 1);
  if (query.starting_after !== undefined) rows = rows.where("audit_log.seq", "<", query.starting_after);
  const found = await rows.execute();
  return {
    data: found.slice(0, limit).map((row) => ({
      id: String(row.seq),
      user_id: row.user_id,
      user_email: row.email,
      mode: row.mode as Mode | null,
      action: row.action,
      object_id: row.object_id,
      client_ip: row.client_ip,
      created_at: row.created_at.toISOString(),
    })),
    has_more: found.length > limit,
  };
}
