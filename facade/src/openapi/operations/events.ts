import { listEventsQuery } from "../../request-shapes.ts";
import { eventShape } from "../../event-response-shapes.ts";
import { pageOf } from "../../response-shapes.ts";
import { idParam, operation } from "../operation.ts";

export const listEvents = operation({
  operationId: "listEvents",
  method: "get",
  path: "/v1/events",
  tag: "Events",
  summary: "List events",
  description: "The key's events, newest first, in keyset pages: what was (or will be) delivered to your webhook endpoints.",
  auth: "merchant",
  query: listEventsQuery,
  response: { status: 200, description: "A page of events.", body: pageOf(eventShape, "EventPage") },
  errors: ["validation_error"],
});

export const getEvent = operation({
  operationId: "getEvent",
  method: "get",
  path: "/v1/events/:id",
  tag: "Events",
  summary: "Retrieve an event",
  description: "One event, as its webhook carried it.",
  auth: "merchant",
  pathParams: idParam("The event's id (evt_…)."),
  response: { status: 200, description: "The event.", body: eventShape },
  errors: [{ code: "validation_error", status: 404, when: "No such event: the catalog has no code of its own for it, so it reads like an unknown route." }],
});
