// Recorded by test/openapi-examples.test.ts from real answers of a real stack (OPENAPI_EXAMPLES=record
// rewrites it; every other run checks it still matches what the service answers). Do not edit by hand.

/** operationId → HTTP status → example name ("ok", or the catalog code) → the body. */
export type RecordedExamples = Record<string, Record<string, Record<string, unknown>>>;

export const RECORDED_EXAMPLES: RecordedExamples = {};
