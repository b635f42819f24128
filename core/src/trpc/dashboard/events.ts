import { z } from "zod";
import { deliveries } from "../../operations/deliveries.ts";
import { webhooks } from "../../operations/webhooks.ts";
import { PAGE, pageQuery } from "../inputs.ts";
import { sessionQuery } from "../operation-procedure.ts";

/**
 * dashboard.events.*: the event explorer over GET /v1/events (the session's merchant and mode,
 * newest first, keyset pages, a type filter), one event's envelope as it was delivered, and the
 * deliveries it made.
 */
export const eventsRouter = {
  list: sessionQuery(
    webhooks.listEvents,
    z.strictObject({ ...PAGE, type: z.string().optional() }),
    (input) => ({ ...pageQuery(input), type: input.type }),
    (page) => page,
  ),
  // null for an id that is unknown, purged, or another merchant's or mode's (alike, as GET /v1/events/{id}).
  get: sessionQuery(
    webhooks.getEvent,
    z.strictObject({ id: z.string() }),
    (input) => input.id,
    (event) => event ?? null,
  ),
  deliveries: sessionQuery(
    deliveries.list,
    z.strictObject({ id: z.string() }),
    (input) => ({ eventId: input.id }),
    (data) => ({ data }),
  ),
};
