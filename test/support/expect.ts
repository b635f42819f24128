// Shared expectations and fixtures for the HTTP suites.

import { CoreError } from "../../proto/core-error.ts";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import { afterAll, beforeAll, beforeEach, expect, onTestFailed } from "vitest";
import { modeCodec, paymentStatusCodec } from "../../proto/enums.ts";
import { ERROR_CODES } from "../../proto/error-catalog.ts";
import { openOrm } from "../../core/src/db/orm.ts";
import { OPERATOR } from "../../core/src/domain/caller.ts";
import type { CoreDeps } from "../../core/src/domain/deps.ts";
import { verifyLedger, type LedgerVerification } from "../../core/src/domain/ledger-verify.ts";
import { serverErrors, type HttpClient, type Res } from "./http.ts";
import { startStack, type SimulateStep, type Stack, type StackOptions } from "./stack.ts";

export const PAYMENT_ID_RE = /^pay_[0-9a-f]{24}$/;
export const CREATED_AT_RE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const MONEY_RE = /^(0|[1-9][0-9]*)$/;

export const PAYABLE_STATES = ["created", "processing", "authorized"] as const;
export const RESOLVED_STATES = [
  "captured",
  "pending_settlement",
  "settled_to_paytami",
  "available_to_merchant",
  "partially_refunded",
  "refunded",
  "chargeback",
  "failed",
  "canceled",
  "expired",
] as const;
export const ALL_STATES = [...PAYABLE_STATES, ...RESOLVED_STATES];

/** Checkout-session reason per resolved state (DESIGN §4 "Payment states"). */
export const SESSION_REASON: Record<(typeof RESOLVED_STATES)[number], string> = {
  captured: "already_paid",
  pending_settlement: "already_paid",
  settled_to_paytami: "already_paid",
  available_to_merchant: "already_paid",
  partially_refunded: "already_paid",
  refunded: "already_paid",
  chargeback: "already_paid",
  failed: "failed",
  canceled: "canceled",
  expired: "expired",
};

export function validBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    amount: "10000",
    currency: "GTQ",
    method_type: "card",
    success_url: "https://shop.example.com/thanks",
    cancel_url: "https://shop.example.com/cart",
    ...overrides,
  };
}

/** POST /v1/payments with validBody(overrides); expects 201 and returns the Payment. */
export async function createOk(http: HttpClient, key: string, overrides: Record<string, unknown> = {}): Promise<any> {
  const res = await http.createPayment(key, validBody(overrides));
  expect(res.status, res.text).toBe(201);
  return res.json;
}

/**
 * Every page of GET /v1/payments?limit=… following starting_after, with the list
 * shape checked on each page. Given several clients (instances), page i goes to
 * clients[i % n]. `between` runs after each page that has more.
 */
export async function walkPages(
  clients: HttpClient | HttpClient[],
  key: string,
  limit: number,
  query: Record<string, string> = {},
  between?: () => Promise<void>,
): Promise<any[][]> {
  const all = Array.isArray(clients) ? clients : [clients];
  const pages: any[][] = [];
  let after: string | undefined;
  for (let i = 0; i < 1000; i++) {
    const r = await all[i % all.length]!.listPayments(key, { limit: String(limit), ...query, ...(after ? { starting_after: after } : {}) });
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.json)).toEqual(["data", "has_more"]);
    expect(r.json.data.length).toBeLessThanOrEqual(limit);
    pages.push(r.json.data);
    if (!r.json.has_more) return pages;
    expect(r.json.data.length, "has_more true implies a full page").toBe(limit);
    after = r.json.data[r.json.data.length - 1].id;
    if (between) await between();
  }
  throw new Error("more than 1000 pages");
}

export function randomHex(n: number): string {
  return randomBytes(Math.ceil(n / 2))
    .toString("hex")
    .slice(0, n);
}

export function randomPaymentId(): string {
  return "pay_" + randomHex(24);
}

function describeRes(res: Res): string {
  return `HTTP ${res.status} ${res.text.slice(0, 600)}`;
}

/** Exact status, catalog code and body shape {error:{code,message}}. */
export function expectError(res: Res, status: number, code: string): void {
  expect({ status: res.status, code: res.json?.error?.code }, describeRes(res)).toEqual({ status, code });
  expect(res.header("content-type") ?? "", describeRes(res)).toMatch(/^application\/json/);
  expect(Object.keys(res.json), describeRes(res)).toEqual(["error"]);
  expect(Object.keys(res.json.error).sort(), describeRes(res)).toEqual(["code", "message"]);
  expect(typeof res.json.error.message, describeRes(res)).toBe("string");
  expect(res.json.error.message.length, describeRes(res)).toBeGreaterThan(0);
  expect(ERROR_CODES as readonly string[]).toContain(res.json.error.code);
}

/** An HTML page a person can read, with the pages' headers; never a JSON error body. */
export function expectPage(res: Res, status: number, text: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers["content-type"]).toMatch(/^text\/html/);
  expect(res.json).toBeUndefined();
  expect(res.text.startsWith("<!doctype html>")).toBe(true);
  expect(res.text).toContain(text);
  expect(res.headers["cache-control"]).toBe("no-store");
  expect(res.headers["content-security-policy"]).toContain("default-src 'none'");
}

export interface PaymentShapeOptions {
  publicBaseUrl: string;
  withDescription?: boolean;
}

/** Payment object (spec 2.1) with the exact key order and formats. */
export function expectPaymentShape(p: any, opts: PaymentShapeOptions): void {
  const keys = ["id", "status", "currency", "amount", "service_fee", "net_amount"];
  if (opts.withDescription) keys.push("description");
  keys.push("checkout_url", "created_at");
  expect(Object.keys(p), JSON.stringify(p)).toEqual(keys);
  expect(p.id).toMatch(PAYMENT_ID_RE);
  expect(ALL_STATES as string[]).toContain(p.status);
  expect(["GTQ", "USD"]).toContain(p.currency);
  for (const f of ["amount", "service_fee", "net_amount"]) {
    expect(typeof p[f], `${f} must be a string`).toBe("string");
    expect(p[f], f).toMatch(MONEY_RE);
  }
  expect(BigInt(p.net_amount)).toBe(BigInt(p.amount) - BigInt(p.service_fee));
  expect(p.checkout_url).toBe(`${opts.publicBaseUrl}/v1/checkout/${p.id}`);
  expect(p.created_at).toMatch(CREATED_AT_RE);
  if (opts.withDescription) expect(typeof p.description).toBe("string");
}

const HOSTED_PAGE = /^https?:\/\/[^/]+\/(pay|embed)\//;

/**
 * Stack for one test file: started before the first test, stopped after the last.
 * On the first failing test the processes' log tails are printed; the log
 * directory is kept when anything failed, removed otherwise.
 */
/**
 * `ledger verify` over a stack's database, whatever its processes' state (a test may have stopped
 * the core): the domain operation itself, on a connection of its own.
 */
export async function verifyStackLedger(stack: Pick<Stack, "databaseUrl">): Promise<LedgerVerification> {
  const orm = await openOrm({ databaseUrl: stack.databaseUrl, poolSize: 2 });
  try {
    return await verifyLedger({ orm } as CoreDeps, orm.em.fork(), OPERATOR);
  } finally {
    await orm.close();
  }
}

/**
 * A whole stack for a test file. When the file is done: no request got a 5xx it should not have,
 * and `ledger verify` is clean over everything the file's scenarios did (issue 9: the ledger's
 * invariants hold after every scenario), unless the file breaks the ledger on purpose
 * (`ledgerCorruptedOnPurpose`).
 */
export function useStack(opts: StackOptions & { allow503?: boolean; ledgerCorruptedOnPurpose?: boolean } = {}): () => Stack {
  let stack: Stack | undefined;
  let failures = 0;
  beforeAll(async () => {
    serverErrors.length = 0;
    stack = await startStack(opts);
  });
  afterAll(async () => {
    if (!stack) return;
    // No request a client can send yields a 500: a file fails if any of its requests got a
    // 5xx (except 503 processor_unavailable, the hosted pages' 503 page and /healthz 503 where a test
    // takes the core down on purpose).
    const unexpected = serverErrors.filter(
      (e) => !(opts.allow503 && e.status === 503 && (e.body.includes('"processor_unavailable"') || e.url.endsWith("/healthz") || HOSTED_PAGE.test(e.url))),
    );
    const ledger = opts.ledgerCorruptedOnPurpose ? undefined : await verifyStackLedger(stack);
    await stack.stop();
    if (failures > 0 || unexpected.length > 0) console.error(`[paytami tests] process logs kept in ${stack.logDir}`);
    else fs.rmSync(stack.logDir, { recursive: true, force: true });
    if (unexpected.length > 0) {
      throw new Error(
        `${unexpected.length} request(s) got a 5xx:\n` +
          unexpected
            .slice(0, 10)
            .map((e) => `  ${e.method} ${e.url} → ${e.status} ${e.body}`)
            .join("\n"),
      );
    }
    if (ledger && !ledger.ok) {
      throw new Error(
        `ledger verify after this file's scenarios found ${ledger.violations.length} violation(s):\n${JSON.stringify(ledger.violations.slice(0, 10), null, 2)}`,
      );
    }
  });
  beforeEach(() => {
    onTestFailed(() => {
      failures++;
      if (failures === 1) stack?.printLogTails(25);
    });
  });
  return () => {
    if (!stack) throw new Error("stack not started");
    return stack;
  };
}

/** Sandbox steps that bring a fresh payment to each state they can reach. */
const SANDBOX_STEPS: Partial<Record<string, SimulateStep[]>> = {
  created: [],
  processing: ["process"],
  authorized: ["authorize"],
  captured: ["succeed"],
  failed: ["fail"],
  canceled: ["cancel"],
  expired: ["expire"],
  available_to_merchant: ["succeed", "settle"],
};

/** States reached after a capture by a real operation of the core (refunds, chargebacks), so the ledger holds them too. */
const AFTER_CAPTURE: Record<string, (stack: Stack, id: string) => Promise<unknown>> = {
  partially_refunded: (stack, id) => refundAsOperator(stack, id, "1"),
  refunded: (stack, id) => refundAsOperator(stack, id, undefined),
  chargeback: (stack, id) => stack.core.payouts.simulateChargeback({ payment_id: id, action: "open" }),
};

async function refundAsOperator(stack: Stack, id: string, amount: string | undefined): Promise<unknown> {
  const [payment] = await stack.sql<{ merchant_id: string; mode: string }>("SELECT merchant_id, mode FROM payments WHERE id = $1", [id]);
  if (!payment) throw new Error(`no payment ${id}`);
  return stack.core.refunds.createRefund({
    acting_for: { merchant_id: payment.merchant_id, mode: modeCodec.fromWire(payment.mode) },
    payment_id: id,
    ...(amount ? { amount } : {}),
  });
}

/**
 * Brings a freshly created payment to `state`: through sandbox steps, refunds and chargebacks (the
 * core's own operations, so `ledger verify` stays clean); only pending_settlement and
 * settled_to_paytami, which no single step stops at, are set in SQL after capture (their status
 * only: the ledger holds the capture, and the stamps say no settlement step happened).
 */
export async function driveToState(stack: Stack, id: string, state: string): Promise<void> {
  const steps = SANDBOX_STEPS[state];
  for (const step of steps ?? ["succeed"]) await stack.admin.simulate(id, step);
  if (steps) return;
  const operation = AFTER_CAPTURE[state];
  if (operation) {
    await operation(stack, id);
    return;
  }
  const rows = await stack.sql("UPDATE payments SET status = $1 WHERE id = $2 RETURNING id", [state, id]);
  if (rows.length !== 1) throw new Error(`could not set ${id} to ${state}`);
}

/**
 * Pays a payment by card through the core's checkout (what the hosted page's form post calls): the
 * processor of the payment's mode answers. For live payments the stack needs `liveCardNetwork`;
 * sandbox steps refuse them.
 */
export async function payByCard(stack: Stack, paymentId: string, number = "4242424242424242"): Promise<string> {
  const paid = await stack.core.checkout.submitCard({
    payment_id: paymentId,
    card: { number, exp_month: 12, exp_year: 2030, cvc: "123", holder_name: "Ana López" },
  });
  return paymentStatusCodec.toWire(paid.payment!.status);
}

/** The CoreError a refused core call ended with; a call that succeeds, or fails otherwise, fails the test. */
export async function coreRefusal(call: Promise<unknown>): Promise<CoreError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CoreError);
  return error as CoreError;
}
