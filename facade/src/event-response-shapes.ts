import { z } from "zod";
import { EVENT_TYPES } from "../../proto/event-catalog.ts";
import { chargebackShape, payoutShape } from "./payout-response-shapes.ts";
import { paymentShape, publicId, refundShape, timestamp } from "./response-shapes.ts";

// The event envelope, beside the shapes its data can hold (response-shapes.ts, payout-response-shapes.ts).

export const eventShape = z
  .strictObject({
    id: publicId("evt", "Unique event id; receivers deduplicate by it."),
    type: z.enum(EVENT_TYPES),
    created_at: timestamp,
    data: z.union([paymentShape, refundShape, chargebackShape, payoutShape]).meta({
      description: "The affected object as the API returns it: a Payment (payment.*), Refund (refund.*), Chargeback (chargeback.*) or Payout (payout.*).",
    }),
  })
  .meta({ id: "Event", description: "The envelope of spec 2.7, as the webhook delivered it." });
