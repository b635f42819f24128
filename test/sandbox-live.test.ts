// Sandbox-only operations refuse live payments (issue 14, finding 2): every simulate step, settle,
// and chargebacks by hand, through gRPC (AdminService, PayoutService), tRPC (payments.simulate,
// chargebacks.open/win) and the CLI (`paytami simulate … --json`), each with validation_error and
// nothing written: the live payments, ledger, balances, chargebacks and events stay as they were.
// The live payments get where they are legitimately: one is paid by card through the live card
// network the harness gives this stack's core (the only way a live payment is captured).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Mode } from "../proto/gen/paytami/v1/enums.ts";
import { SIMULATION_STEP_NAMES } from "../proto/simulation-steps.ts";
import { coreRefusal, createOk, payByCard, useStack } from "./support/expect.ts";
import { type Merchant } from "./support/stack.ts";
import { runCliWith, type CliRun } from "./support/cli-run.ts";
import { trpcClient, trpcFailure } from "./support/trpc.ts";

const stack = useStack({ liveCardNetwork: true, env: { PAYOUT_SCHEDULE: "off" } });
const REFUSED = (id: string) => new RegExp(`works in test mode only; ${id} is a live payment`);

let home: string;
let m: Merchant;
/** A live payment paid by card (captured), and one nobody paid yet (created). */
let captured: string;
let created: string;
let before: LiveState;

interface LiveState {
  payments: unknown;
  ledger: unknown;
  events: unknown;
  chargebacks: unknown;
  payouts: unknown;
}

/** Everything of live mode a sandbox step could have written. */
async function liveState(): Promise<LiveState> {
  const [row] = await stack().sql<Record<string, unknown>>(`
    select
      (select json_agg(json_build_object('id', id, 'status', status, 'updated_at', updated_at) order by id) from payments where mode = 'live') as payments,
      (select json_agg(json_build_object('account', account, 'amount', amount::text) order by id) from ledger_lines where mode = 'live') as ledger,
      (select json_agg(json_build_object('type', type, 'id', id) order by seq) from outbox_events where mode = 'live') as events,
      (select count(*)::int from chargebacks where mode = 'live') as chargebacks,
      (select count(*)::int from payouts where mode = 'live') as payouts`);
  return row as unknown as LiveState;
}

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), "paytami-sandbox-live-"));
  m = await stack().admin.createMerchant({ name: "Tienda en Vivo" });
  await stack().core.payouts.addBankAccount({ merchant_id: m.merchantId, mode: Mode.MODE_LIVE, currency: "GTQ", account_number: "000000000001" });
  captured = (await createOk(stack().http, m.liveApiKey)).id;
  expect(await payByCard(stack(), captured)).toBe("captured");
  created = (await createOk(stack().http, m.liveApiKey)).id;
  before = await liveState();
  // The capture is the live card network's: its ledger transaction and payment.succeeded are there.
  expect(before).toMatchObject({ chargebacks: 0, payouts: 0 });
  expect((before.events as Array<{ type: string }>).map((e) => e.type)).toEqual(["payment.succeeded"]);
});

afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

/** Every sandbox-only operation and the live payment it is tried on. */
const ATTEMPTS = [
  ...SIMULATION_STEP_NAMES.map((step) => ({ what: `simulate ${step}`, payment: () => (step === "settle" ? captured : created), step })),
  { what: "simulate succeed (already captured)", payment: () => captured, step: "succeed" },
] as const;

describe("gRPC", () => {
  test("AdminService.SimulatePayment refuses every step on a live payment, and PayoutService.SimulateChargeback open and win", async () => {
    for (const attempt of ATTEMPTS) {
      const error = await coreRefusal(stack().core.admin.simulatePayment({ payment_id: attempt.payment(), step: attempt.step }));
      expect({ what: attempt.what, code: error.code }).toEqual({ what: attempt.what, code: "validation_error" });
      expect(error.message).toMatch(REFUSED(attempt.payment()));
    }
    for (const action of ["open", "win"]) {
      const error = await coreRefusal(stack().core.payouts.simulateChargeback({ payment_id: captured, action }));
      expect({ action, code: error.code }).toEqual({ action, code: "validation_error" });
      expect(error.message).toMatch(REFUSED(captured));
    }
    expect(await liveState()).toEqual(before);
  });
});

describe("tRPC", () => {
  const api = () => trpcClient(stack(), stack().internalToken);

  test("payments.simulate refuses every step on a live payment, and chargebacks.open and chargebacks.win", async () => {
    for (const attempt of ATTEMPTS) {
      const refused = await trpcFailure(api().payments.simulate.mutate({ payment_id: attempt.payment(), step: attempt.step }));
      expect({ what: attempt.what, code: refused.code, status: refused.status }).toEqual({ what: attempt.what, code: "validation_error", status: 400 });
      expect(refused.message).toMatch(REFUSED(attempt.payment()));
    }
    const opened = await trpcFailure(api().chargebacks.open.mutate({ payment_id: captured, reason: "fraudulent" }));
    expect(opened).toMatchObject({ code: "validation_error", status: 400, message: expect.stringMatching(REFUSED(captured)) });
    const won = await trpcFailure(api().chargebacks.win.mutate({ payment_id: captured }));
    expect(won).toMatchObject({ code: "validation_error", status: 400, message: expect.stringMatching(REFUSED(captured)) });
    expect(await liveState()).toEqual(before);
  });
});

describe("CLI", () => {
  function paytami(...args: string[]): Promise<CliRun> {
    return runCliWith(stack(), { home, timeoutMs: 60_000 }, args);
  }

  /** Exit 1 and exactly {"error":{"code","message"}} on stdout. */
  function jsonError(r: CliRun): { code: string; message: string } {
    const shown = `exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;
    expect({ code: r.code, stderr: r.stderr }, shown).toEqual({ code: 1, stderr: "" });
    const value = JSON.parse(r.stdout);
    expect(Object.keys(value), shown).toEqual(["error"]);
    return value.error;
  }

  test("simulate payment … --json and simulate chargeback … --json exit 1 with validation_error on a live payment", async () => {
    for (const attempt of ATTEMPTS) {
      const error = jsonError(await paytami("simulate", "payment", attempt.payment(), attempt.step, "--json"));
      expect({ what: attempt.what, code: error.code }).toEqual({ what: attempt.what, code: "validation_error" });
      expect(error.message).toMatch(REFUSED(attempt.payment()));
    }
    for (const action of ["open", "win"]) {
      expect(jsonError(await paytami("simulate", "chargeback", captured, action, "--json"))).toEqual({
        code: "validation_error",
        message: expect.stringMatching(REFUSED(captured)),
      });
    }
    // The on-demand payout is not sandbox-only (a live one goes to the live bank), and there is nothing to pay out:
    // the live capture is still pending, as no live settlement was faked.
    expect(jsonError(await paytami("simulate", "payout", "--merchant", m.merchantId, "--currency", "GTQ", "--mode", "live", "--json"))).toEqual({
      code: "validation_error",
      message: "nothing available to pay out in GTQ",
    });
    const balances = JSON.parse((await paytami("balances", "show", "--merchant", m.merchantId, "--mode", "live", "--json")).stdout);
    expect(balances.balances.find((b: { currency: string }) => b.currency === "GTQ")).toEqual({
      currency: "GTQ",
      pending: "9450",
      available: "0",
      in_transit: "0",
    });
    expect(await liveState()).toEqual(before);
  });

  test("the same steps still work on a test payment", async () => {
    const id = (await createOk(stack().http, m.testApiKey)).id;
    const r = await paytami("simulate", "payment", id, "succeed", "--json");
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).status).toBe("captured");
    expect(JSON.parse((await paytami("simulate", "chargeback", id, "open", "--json")).stdout).status).toBe("opened");
    expect(await liveState()).toEqual(before);
  });
});
