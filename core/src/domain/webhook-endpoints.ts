import { generateWebhookSecret } from "../../../proto/webhook-signature.ts";
import { LockMode, type InferEntity } from "@mikro-orm/core";
import type { EventType } from "../../../proto/event-catalog.ts";
import { requireEventType } from "./events.ts";
import { isLoopbackAddress, NonPublicAddressError, resolveDestination, webhookDestinations, type DestinationRule } from "../../../proto/public-address.ts";
import type { Mode } from "../config.ts";
import { Merchant, WebhookEndpoint } from "../db/entities/index.ts";
import type { MerchantCaller, OperatorCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError, fail } from "./errors.ts";
import { isId, newId } from "./ids.ts";
import { atomically, withoutEvents, type Changes, type Tx } from "./unit-of-work.ts";

/** During a rotation the previous secret keeps signing this long, so receivers can switch over (DESIGN §4). */
export const SECRET_ROTATION_OVERLAP_MS = 24 * 3_600_000;
const MAX_URL_LENGTH = 2048;

/** An endpoint as operators and the merchant see it: never its secrets. */
export interface EndpointView {
  id: string;
  merchant_id: string;
  mode: Mode;
  url: string;
  enabled_events: EventType[];
  enabled: boolean;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
  previous_secret_expires_at: string | null;
}

/** An endpoint with its newly made secret: the only time a secret leaves the core for an operator. */
export interface EndpointWithSecret {
  endpoint: EndpointView;
  secret: string;
}

export type EndpointRow = InferEntity<typeof WebhookEndpoint>;

export function toEndpointView(row: EndpointRow, now: Date): EndpointView {
  const overlap = row.previous_secret_expires_at && row.previous_secret_expires_at > now ? row.previous_secret_expires_at : null;
  return {
    id: row.id,
    merchant_id: row.merchant_id,
    mode: row.mode as Mode,
    url: row.url,
    enabled_events: row.enabled_events as EventType[],
    enabled: row.enabled,
    disabled_reason: row.disabled_reason ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    previous_secret_expires_at: overlap?.toISOString() ?? null,
  };
}

/** Empty (every type) or a set of catalog types; anything else is refused rather than silently never delivered. */
export function parseEnabledEvents(values: readonly string[]): EventType[] {
  return [...new Set(values.map((value) => requireEventType(value, "enabled_events")))];
}

/**
 * An endpoint URL: absolute http(s), at most 2048 characters, no credentials in it (they would end up
 * in logs and listings), and a host that resolves only to public addresses in both modes (DESIGN §4:
 * the dispatcher would otherwise fetch cloud metadata or internal services and store the answer).
 * Live mode also needs https. Test mode may point at loopback where the operator allows it
 * (`allowLoopback`, WEBHOOK_ALLOW_LOOPBACK), which is how developers run the sandbox locally.
 */
export async function checkEndpointUrl(mode: Mode, text: string, allowLoopback: boolean): Promise<string> {
  if (text.includes("\0") || text.length > MAX_URL_LENGTH || !URL.canParse(text)) {
    fail("validation_error", `url must be an absolute http or https URL of at most ${MAX_URL_LENGTH} characters.`);
  }
  const url = new URL(text);
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.hostname === "") fail("validation_error", "url must be an absolute http or https URL.");
  if (url.username !== "" || url.password !== "") fail("validation_error", "url must not contain a user name or password.");
  if (mode === "live" && url.protocol !== "https:") fail("validation_error", "url must be an https URL in live mode.");
  const rule = webhookDestinations(mode, allowLoopback);
  try {
    await resolveDestination(url.hostname, rule);
  } catch (error) {
    if (error instanceof NonPublicAddressError) fail("validation_error", refusedDestination(mode, rule, error));
    fail("validation_error", `url host ${url.hostname} could not be resolved.`);
  }
  return text;
}

function refusedDestination(mode: Mode, rule: DestinationRule, error: NonPublicAddressError): string {
  if (mode === "live") return `url must reach a public address in live mode: ${error.message}`;
  if (rule === "public-or-loopback") return `url must reach a public or loopback address in test mode: ${error.message}`;
  const hint = isLoopbackAddress(error.address) ? " Loopback is accepted in test mode only where the operator turned WEBHOOK_ALLOW_LOOPBACK on." : "";
  return `url must reach a public address: ${error.message}${hint}`;
}

/** Unknown, or another merchant's or mode's: they answer alike (the facade answers 404). */
export const unknownEndpoint = (id: string) => new DomainError("validation_error", `No such webhook endpoint: ${id}.`);

/** The endpoint `id`, locked for update; a merchant sees only its own in its own mode, an operator any. */
export async function lockEndpoint(tx: Tx, caller: MerchantCaller | OperatorCaller, id: string): Promise<EndpointRow> {
  if (!isId("we", id)) throw unknownEndpoint(id);
  const row = await tx.findOne(WebhookEndpoint, id, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!row || (caller.kind === "merchant" && (row.merchant_id !== caller.merchantId || row.mode !== caller.mode))) throw unknownEndpoint(id);
  return row;
}

export interface CreateEndpointInput {
  url: string;
  enabledEvents: readonly string[];
}

/**
 * Registers an endpoint for the merchant and mode. Runs the URL check (a DNS lookup) before any
 * statement, then inserts in one atomic step, so no transaction is held open across a DNS lookup.
 */
export async function createEndpoint(deps: CoreDeps, tx: Tx, owner: MerchantCaller, input: CreateEndpointInput): Promise<EndpointWithSecret> {
  const enabledEvents = parseEnabledEvents(input.enabledEvents);
  const url = await checkEndpointUrl(owner.mode, input.url, deps.config.webhooks.allowLoopback);
  return atomically(tx, async (inner) => withoutEvents(await insertEndpoint(deps, inner, owner, url, enabledEvents)));
}

/** Inserts a checked endpoint with a new secret, in the caller's transaction. */
export async function insertEndpoint(
  deps: CoreDeps,
  inner: Tx,
  owner: MerchantCaller,
  url: string,
  enabledEvents: EventType[],
  id = newId("we"),
): Promise<EndpointWithSecret> {
  if (!(await inner.findOne(Merchant, owner.merchantId))) fail("validation_error", `Unknown merchant ${owner.merchantId}.`);
  const now = deps.now();
  const secret = generateWebhookSecret();
  const row = inner.create(WebhookEndpoint, {
    id,
    merchant_id: owner.merchantId,
    mode: owner.mode,
    url,
    enabled_events: enabledEvents,
    secret,
    previous_secret: null,
    previous_secret_expires_at: null,
    enabled: true,
    disabled_reason: null,
    created_at: now,
    updated_at: now,
  });
  await inner.flush();
  return { endpoint: toEndpointView(row, now), secret };
}

/** The merchant's endpoints in one mode, newest first. */
export async function listEndpoints(deps: CoreDeps, tx: Tx, owner: MerchantCaller): Promise<EndpointView[]> {
  const rows = await tx.find(WebhookEndpoint, { merchant_id: owner.merchantId, mode: owner.mode }, { orderBy: { created_at: "desc", id: "desc" } });
  const now = deps.now();
  return rows.map((row) => toEndpointView(row, now));
}

export interface UpdateEndpointInput {
  id: string;
  /** Absent: unchanged; empty: every event type. */
  enabledEvents?: readonly string[] | undefined;
  enabled?: boolean | undefined;
}

/** Changes the subscription and/or the enabled flag. Enabling clears the reason the endpoint was disabled. */
export async function updateEndpoint(
  deps: CoreDeps,
  tx: Tx,
  caller: MerchantCaller | OperatorCaller,
  input: UpdateEndpointInput,
): Promise<Changes<EndpointView>> {
  const { id } = input;
  const enabledEvents = input.enabledEvents === undefined ? undefined : parseEnabledEvents(input.enabledEvents);
  const row = await lockEndpoint(tx, caller, id);
  const now = deps.now();
  if (enabledEvents !== undefined) row.enabled_events = enabledEvents;
  if (input.enabled === true) {
    row.enabled = true;
    row.disabled_reason = null;
  } else if (input.enabled === false && row.enabled) {
    row.enabled = false;
    row.disabled_reason = caller.kind === "service" ? "disabled by an operator" : "disabled by the merchant";
  }
  row.updated_at = now;
  await tx.flush();
  return withoutEvents(toEndpointView(row, now));
}

/**
 * A new secret; the current one becomes the previous and keeps signing for 24 h, so a receiver that
 * still checks the old secret accepts deliveries until it switches. Rotating again within that time
 * drops the older previous secret: at most two secrets sign at once.
 */
export async function rotateEndpointSecret(deps: CoreDeps, tx: Tx, caller: MerchantCaller | OperatorCaller, id: string): Promise<Changes<EndpointWithSecret>> {
  const row = await lockEndpoint(tx, caller, id);
  const now = deps.now();
  const secret = generateWebhookSecret();
  row.previous_secret = row.secret;
  row.previous_secret_expires_at = new Date(now.getTime() + SECRET_ROTATION_OVERLAP_MS);
  row.secret = secret;
  row.updated_at = now;
  await tx.flush();
  return withoutEvents({ endpoint: toEndpointView(row, now), secret });
}

/** Removes the endpoint; its pending deliveries go with it (nothing is sent to a deleted endpoint). */
export async function deleteEndpoint(
  _deps: CoreDeps,
  tx: Tx,
  caller: MerchantCaller | OperatorCaller,
  id: string,
): Promise<Changes<{ id: string; deleted: true }>> {
  const row = await lockEndpoint(tx, caller, id);
  tx.remove(row);
  await tx.flush();
  return withoutEvents({ id, deleted: true });
}

/** The secrets that sign a delivery now: the current one, and the previous one while its 24 h last. */
export function signingSecrets(row: Pick<EndpointRow, "secret" | "previous_secret" | "previous_secret_expires_at">, now: Date): string[] {
  const previous = row.previous_secret && row.previous_secret_expires_at && row.previous_secret_expires_at > now ? [row.previous_secret] : [];
  return [row.secret, ...previous];
}
