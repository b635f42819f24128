// Issue 15: an operation declares who may run it, and the one runner checks it for every transport.
// A caller a transport hands over that the operation does not declare (here: the facade's process
// acting for a merchant, which only the operator may) is refused `unauthorized` before anything is
// read, and nothing changes; the operator acting for the same merchant is admitted by the same
// operations, through gRPC and tRPC alike.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CoreClient } from "../proto/core-client.ts";
import { CoreError } from "../proto/core-error.ts";
import { Mode } from "../proto/gen/paytami/v1/enums.ts";
import { OPERATIONS } from "../core/src/operations/index.ts";
import { databaseSnapshot } from "./support/db-snapshot.ts";
import { createOk, useStack } from "./support/expect.ts";
import type { Merchant } from "./support/stack.ts";
import { trpcClient } from "./support/trpc.ts";

const stack = useStack();
let facade: CoreClient;
let m: Merchant;
let paymentId: string;

beforeAll(async () => {
  const s = stack();
  facade = new CoreClient({ address: s.coreGrpcAddr, internalToken: s.facadeToken, timeoutMs: 10_000 });
  m = await s.admin.createMerchant({ name: "Operaciones S.A." });
  paymentId = (await createOk(s.http, m.testApiKey)).id as string;
  await s.admin.simulate(paymentId, "succeed");
});
afterAll(() => facade?.close());

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => {
      if (error instanceof CoreError) return { code: error.code, message: error.message };
      throw error;
    },
  );

/** The operations the facade's credential reaches with an `acting_for`, and what each declares. */
const declared = (name: string) => OPERATIONS.find((op) => op.name === name)!.callers;

describe("a caller the operation does not declare", () => {
  test("the facade's process acting for a merchant: every operation it reaches refuses it, and nothing changes", async () => {
    const acting = { merchant_id: m.merchantId, mode: Mode.MODE_TEST };
    const attempts = {
      create_refund: () => facade.refunds.createRefund({ acting_for: acting, idempotency_key: "ops-refund-0001", payment_id: paymentId, amount: "100" }),
      list_refunds: () => facade.refunds.listRefunds({ acting_for: acting }),
      // No merchant named: the facade's process on its own, which get_refund does not declare either.
      get_refund: () => facade.refunds.getRefund({ acting_for: {}, id: "re_000000000000000000000000" }),
      create_link: () =>
        facade.links.createLink({ acting_for: acting, idempotency_key: "ops-link-0001", title: "Enlace", currency: "GTQ", fixed_amount_minor: "1000" }),
      list_links: () => facade.links.listLinks({ acting_for: acting }),
    };
    const before = await databaseSnapshot(stack());
    for (const [name, attempt] of Object.entries(attempts)) {
      expect(declared(name), name).not.toContain("facade");
      // The runner's refusal, in the words it has always had.
      expect(await refusal(attempt()), name).toEqual({ code: "unauthorized", message: "This needs the operator's credential, not the facade's." });
    }
    expect(await databaseSnapshot(stack())).toEqual(before);
  });

  test("the operator acting for the same merchant is admitted by the same operations, through gRPC and tRPC", async () => {
    const s = stack();
    const acting = { merchant_id: m.merchantId, mode: Mode.MODE_TEST };
    const refund = await s.core.refunds.createRefund({ acting_for: acting, idempotency_key: "ops-refund-0002", payment_id: paymentId, amount: "100" });
    expect(refund.refund?.payment_id).toBe(paymentId);
    expect((await s.core.refunds.listRefunds({ acting_for: acting })).data.map((r) => r.id)).toEqual([refund.refund!.id]);
    const trpc = trpcClient(s, s.internalToken);
    const listed = await trpc.refunds.list.query({ merchant_id: m.merchantId, mode: "test" });
    expect(listed.data.map((r) => r.id)).toEqual([refund.refund!.id]);
    expect((await trpc.refunds.get.query({ merchant_id: m.merchantId, mode: "test", id: refund.refund!.id })).amount).toBe("100");
  });
});
