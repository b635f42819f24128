// Refunds for operators: `paytami refunds list|show` (a real CLI process, the --json rule), the tRPC
// procedures refunds.list / refunds.get, and RefundService's acting_for form over gRPC.
import { TRPCClientError } from "@trpc/client";
import { beforeAll, describe, expect, test } from "vitest";
import { CoreError } from "../proto/core-error.ts";
import { modeCodec } from "../proto/enums.ts";
import type { AppRouter } from "../core/src/trpc/router.ts";
import { newIdemKey } from "./support/http.ts";
import { createOk, driveToState, useStack } from "./support/expect.ts";
import type { Merchant } from "./support/stack.ts";
import { trpcClient } from "./support/trpc.ts";
import { oneJson, runCli } from "./support/cli-run.ts";

const stack = useStack();
let m: Merchant;
let paymentId: string;
const refunds: any[] = [];

beforeAll(async () => {
  m = await stack().admin.createMerchant({ name: "Tienda Operador" });
  const p = await createOk(stack().http, m.testApiKey, { amount: "10000" });
  await driveToState(stack(), p.id, "captured");
  paymentId = p.id;
  for (const amount of ["100", "200", "300"]) {
    const res = await stack().http.post("/v1/refunds", { key: m.testApiKey, idem: newIdemKey(), body: { payment_id: paymentId, amount } });
    expect(res.status, res.text).toBe(201);
    refunds.push(res.json);
  }
});

const paytami = (...args: string[]) => runCli(stack(), ...args);

describe("paytami refunds", () => {
  test("list --json is {data, has_more}, newest first, filtered by --payment; show prints the Refund", async () => {
    const listed = oneJson(await paytami("refunds", "list", "--merchant", m.merchantId, "--mode", "test", "--json"));
    expect(listed).toEqual({ data: [...refunds].reverse(), has_more: false });
    const page = oneJson(await paytami("refunds", "list", "--merchant", m.merchantId, "--mode", "test", "--payment", paymentId, "--limit", "2", "--json"));
    expect(page).toEqual({ data: [refunds[2], refunds[1]], has_more: true });
    expect(oneJson(await paytami("refunds", "list", "--merchant", m.merchantId, "--mode", "live", "--json"))).toEqual({ data: [], has_more: false });
    expect(oneJson(await paytami("refunds", "show", refunds[0].id, "--json"))).toEqual(refunds[0]);
    const text = await paytami("refunds", "show", refunds[0].id);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(refunds[0].id);
  });

  test("errors follow the --json rule", async () => {
    const unknown = oneJson(await paytami("refunds", "show", `refund_${"0".repeat(24)}`, "--json"), 1);
    expect(unknown.error.code).toBe("unknown_payment");
    const badMode = oneJson(await paytami("refunds", "list", "--merchant", m.merchantId, "--mode", "prod", "--json"), 1);
    expect(badMode.error.code).toBe("validation_error");
    const foreign = oneJson(await paytami("refunds", "list", "--merchant", m.merchantId, "--mode", "test", "--payment", `pay_${"0".repeat(24)}`, "--json"), 1);
    expect(foreign.error.code).toBe("unknown_payment");
  });
});

describe("tRPC refunds.list / refunds.get", () => {
  const operator = () => trpcClient(stack(), stack().internalToken);

  test("list and get act for one merchant and mode", async () => {
    const page = await operator().refunds.list.query({ merchant_id: m.merchantId, mode: "test", payment_id: paymentId });
    expect(page).toEqual({ data: [...refunds].reverse(), has_more: false });
    expect(await operator().refunds.get.query({ merchant_id: m.merchantId, mode: "test", id: refunds[1].id })).toEqual(refunds[1]);
    const error = await operator()
      .refunds.get.query({ merchant_id: m.merchantId, mode: "live", id: refunds[1].id })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect(((error as TRPCClientError<AppRouter>).data as { paytami_code: string }).paytami_code).toBe("unknown_payment");
  });
});

describe("RefundService acting_for", () => {
  test("an operator creates a refund for a merchant; without acting_for an API key is required", async () => {
    const acting = { merchant_id: m.merchantId, mode: modeCodec.fromWire("test") };
    const created = await stack().core.refunds.createRefund({ acting_for: acting, payment_id: paymentId, amount: "400", reason: "other" });
    expect(created.replayed).toBe(false);
    expect(created.refund).toMatchObject({ payment_id: paymentId, amount: "400" });
    const denied = await stack()
      .core.refunds.createRefund({ idempotency_key: newIdemKey(), payment_id: paymentId })
      .catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(CoreError);
    expect((denied as CoreError).code).toBe("unauthorized");
  });
});
