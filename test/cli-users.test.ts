// `paytami users invite|reset-password|list` (DESIGN §5), run as a real CLI process against a real
// stack: the exact --json outputs, the URLs working in the dashboard, and refusals as catalog errors.
import { beforeAll, describe, expect, test } from "vitest";
import { dashMutation, dashQuery } from "./support/dashboard.ts";
import { useStack } from "./support/expect.ts";
import type { Merchant } from "./support/stack.ts";
import { oneJson, runCli } from "./support/cli-run.ts";

const stack = useStack();
let m: Merchant;

beforeAll(async () => {
  m = await stack().admin.createMerchant({ name: "Tienda Usuarios" });
});

const paytami = (...args: string[]) => runCli(stack(), ...args);

const URL_TOKEN = "[A-Za-z0-9_-]{43}";

describe("paytami users", () => {
  test('invite --json is {"user_id","email","merchant_id","role","invite_url"}, and the URL lets the person in', async () => {
    const invited = oneJson(await paytami("users", "invite", "--merchant", m.merchantId, "--email", "Ana@Example.com", "--role", "admin", "--json"));
    expect(Object.keys(invited)).toEqual(["user_id", "email", "merchant_id", "role", "invite_url"]);
    expect(invited).toMatchObject({ email: "ana@example.com", merchant_id: m.merchantId, role: "admin" });
    expect(invited.user_id).toMatch(/^usr_[0-9a-f]{24}$/);
    expect(invited.invite_url).toMatch(new RegExp(`^${stack().publicBaseUrl}/dashboard/invite/${URL_TOKEN}$`));
    const token = invited.invite_url.slice(invited.invite_url.lastIndexOf("/") + 1);
    const accepted = await dashMutation(stack(), "auth.acceptInvite", { token, password: "contraseña de ana" });
    expect(accepted.data).toMatchObject({ user: { id: invited.user_id }, merchant_id: m.merchantId, role: "admin" });
  });

  test('reset-password --json is {"user_id","reset_url"}, and the URL sets a new password', async () => {
    oneJson(await paytami("users", "invite", "--merchant", m.merchantId, "--email", "beto@example.com", "--role", "viewer", "--json"));
    const reset = oneJson(await paytami("users", "reset-password", "--email", "BETO@example.com", "--json"));
    expect(Object.keys(reset)).toEqual(["user_id", "reset_url"]);
    expect(reset.reset_url).toMatch(new RegExp(`^${stack().publicBaseUrl}/dashboard/reset/${URL_TOKEN}$`));
    const token = reset.reset_url.slice(reset.reset_url.lastIndexOf("/") + 1);
    const done = await dashMutation(stack(), "auth.resetPassword", { token, password: "la nueva de beto" });
    expect(done.status).toBe(200);
    expect((await dashQuery(stack(), "auth.me", undefined, { session: done.issued })).data.user.email).toBe("beto@example.com");
  });

  test("list --json is {data: [...]}, one entry per membership, of one merchant with --merchant", async () => {
    const other = await stack().admin.createMerchant({ name: "Otra" });
    oneJson(await paytami("users", "invite", "--merchant", other.merchantId, "--email", "ana@example.com", "--role", "owner", "--json"));
    const mine = oneJson(await paytami("users", "list", "--merchant", m.merchantId, "--json"));
    expect(mine.data.map((u: any) => [u.email, u.role, u.status])).toEqual([
      ["ana@example.com", "admin", "active"],
      ["beto@example.com", "viewer", "active"],
    ]);
    expect(Object.keys(mine.data[0])).toEqual(["user_id", "email", "merchant_id", "role", "status", "totp_enabled"]);
    const all = oneJson(await paytami("users", "list", "--json"));
    expect(
      all.data
        .filter((u: any) => u.email === "ana@example.com")
        .map((u: any) => u.role)
        .sort(),
    ).toEqual(["admin", "owner"]);
    const text = await paytami("users", "list", "--merchant", other.merchantId);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("ana@example.com  owner");
  });

  test("refusals are catalog errors on stdout, exit 1: an unknown merchant, a bad role, an unknown e-mail, a second invite", async () => {
    const unknownMerchant = oneJson(
      await paytami("users", "invite", "--merchant", "mer_000000000000000000000000", "--email", "x@example.com", "--role", "viewer", "--json"),
      1,
    );
    expect(unknownMerchant.error.code).toBe("validation_error");
    const badRole = oneJson(await paytami("users", "invite", "--merchant", m.merchantId, "--email", "x@example.com", "--role", "boss", "--json"), 1);
    expect(badRole.error.code).toBe("validation_error");
    const badEmail = oneJson(await paytami("users", "invite", "--merchant", m.merchantId, "--email", "not-an-email", "--role", "viewer", "--json"), 1);
    expect(badEmail.error).toEqual({ code: "validation_error", message: "email must be an e-mail address." });
    const unknownEmail = oneJson(await paytami("users", "reset-password", "--email", "nadie@example.com", "--json"), 1);
    expect(unknownEmail.error.code).toBe("validation_error");
    const again = oneJson(await paytami("users", "invite", "--merchant", m.merchantId, "--email", "ana@example.com", "--role", "viewer", "--json"), 1);
    expect(again.error.message).toContain("already a member");
  });
});
