import { EVENT_TYPES, isEventType, type EventType } from "../../../proto/event-catalog.ts";
import { db } from "../db/orm.ts";
import type { MerchantCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { fail } from "./errors.ts";
import { isId } from "./ids.ts";
import type { EventEnvelope } from "./outbox.ts";
import { keysetPage, parseLimit, type Page, type PageQuery } from "./keyset-page.ts";
import type { Tx } from "./unit-of-work.ts";

// The outbox table is the event store: every event is written there with its change, stays after
// the relay publishes it, and is purged after EVENT_RETENTION. GET /v1/events reads it.

async function findOwnEvent(tx: Tx, caller: MerchantCaller, id: string) {
  if (!isId("evt", id)) return undefined;
  return db(tx)
    .selectFrom("outbox_events")
    .select(["envelope", "created_at", "seq"])
    .where("id", "=", id)
    .where("merchant_id", "=", caller.merchantId)
    .where("mode", "=", caller.mode)
    .where("endpoint_id", "is", null)
    .executeTakeFirst();
}

/**
 * GET /v1/events/{id}: the envelope (spec 2.7) as it was delivered, or undefined for an id that does
 * not exist, was purged, or belongs to another merchant or mode (they answer alike).
 */
export async function getEvent(_deps: CoreDeps, tx: Tx, caller: MerchantCaller, id: string): Promise<EventEnvelope | undefined> {
  const row = await findOwnEvent(tx, caller, id);
  return row?.envelope as EventEnvelope | undefined;
}

export interface ListEventsQuery extends PageQuery {
  type?: string | undefined;
}

export type EventPage = Page<EventEnvelope>;

/** A type of the event catalog, or validation_error naming the catalog (GET /v1/events, subscriptions, trigger). */
export function requireEventType(value: string, field = "type"): EventType {
  if (!isEventType(value)) return fail("validation_error", `Unknown event type "${value}" in ${field}; expected one of ${EVENT_TYPES.join(", ")}.`);
  return value;
}

function parseType(text: string | undefined): EventType | undefined {
  return text === undefined ? undefined : requireEventType(text);
}

/** GET /v1/events: newest first, keyset-paginated on (created_at, seq) like payments. */
export async function listEvents(_deps: CoreDeps, tx: Tx, caller: MerchantCaller, query: ListEventsQuery): Promise<EventPage> {
  if (query.malformed !== undefined) fail("validation_error", query.malformed);
  const limit = parseLimit(query.limit);
  const type = parseType(query.type);
  return keysetPage(limit, query.starting_after, {
    noun: "events",
    findCursor: (id) => findOwnEvent(tx, caller, id),
    fetch: (after, take) => {
      // A test event (endpoint_id set) is not one of the account's: it shows only in its endpoint's deliveries.
      let q = db(tx)
        .selectFrom("outbox_events")
        .select("envelope")
        .where("merchant_id", "=", caller.merchantId)
        .where("mode", "=", caller.mode)
        .where("endpoint_id", "is", null);
      if (type) q = q.where("type", "=", type);
      if (after) q = q.where((eb) => eb(eb.refTuple("created_at", "seq"), "<", eb.tuple(after.created_at, after.seq)));
      return q.orderBy("created_at", "desc").orderBy("seq", "desc").limit(take).execute();
    },
    view: (row) => row.envelope as unknown as EventEnvelope,
  });
}
