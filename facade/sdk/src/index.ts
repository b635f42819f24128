export { Paytami } from "./client.ts";
export { ERROR_CODES, PaytamiConnectionError, PaytamiError, PaytamiSignatureError, type ErrorCode } from "./errors.ts";
export { newIdempotencyKey, type FetchLike, type PaytamiOptions, type RequestOptions } from "./http.ts";
export { PageRequest, type Page, type PageParams } from "./list.ts";
export { constructEvent } from "./webhooks.ts";
export type * from "./types.ts";
