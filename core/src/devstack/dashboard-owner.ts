// The sandbox merchant's dashboard owner that `npm start` hands to the operator (DESIGN §5), made
// through the same doors anyone uses: `users invite` / `users reset-password` over gRPC, then the
// dashboard's own acceptInvite / resetPassword / signIn procedures with the facade's credential,
// as the facade forwards them. Kept across restarts while its password in dev.json still signs in.
import { randomBytes } from "node:crypto";
import type { CoreClient } from "../../../proto/core-client.ts";
import { CoreError } from "../../../proto/core-error.ts";
import type { DevJson } from "./dev-json.ts";

export interface DashboardOwner {
  email: string;
  password: string;
  reused: boolean;
}

export const SANDBOX_OWNER_EMAIL = "owner@sandbox.paytami.test";

interface DashboardDoor {
  /** The core's HTTP URL (its /trpc). */
  coreHttp: string;
  facadeToken: string;
}

/** One dashboard mutation as the facade would forward it; the session it opened is signed out again. */
async function dashboardMutation(door: DashboardDoor, path: string, input: unknown): Promise<{ ok: boolean; data: unknown }> {
  const headers = {
    authorization: `Bearer ${door.facadeToken}`,
    "content-type": "application/json",
    "x-paytami-client-ip": "127.0.0.1",
    "user-agent": "npm start",
  };
  const res = await fetch(`${door.coreHttp}/trpc/dashboard.${path}`, { method: "POST", headers, body: JSON.stringify(input) });
  const body = (await res.json()) as { result?: { data: unknown } };
  const issued = /^([^;]+);/.exec(res.headers.get("x-paytami-session-set") ?? "")?.[1];
  if (issued) await fetch(`${door.coreHttp}/trpc/dashboard.auth.signOut`, { method: "POST", headers: { ...headers, "x-paytami-session": issued }, body: "{}" });
  return { ok: res.ok, data: body.result?.data };
}

const tokenOf = (url: string) => url.slice(url.lastIndexOf("/") + 1);

export async function seedDashboardOwner(
  core: CoreClient,
  door: DashboardDoor,
  merchantId: string,
  previous: Partial<DevJson> | null,
  merchantReused: boolean,
): Promise<DashboardOwner> {
  const email = previous?.dashboard_email || SANDBOX_OWNER_EMAIL;
  const kept = previous?.dashboard_password;
  if (merchantReused && kept && (await dashboardMutation(door, "auth.signIn", { email, password: kept })).ok) return { email, password: kept, reused: true };
  const password = randomBytes(18).toString("base64url");
  try {
    const invited = await core.admin.inviteUser({ merchant_id: merchantId, email, role: "owner" });
    if ((await dashboardMutation(door, "auth.acceptInvite", { token: tokenOf(invited.invite_url), password })).ok) return { email, password, reused: false };
  } catch (error) {
    // Already a member (an earlier run in this database): a new password below.
    if (!(error instanceof CoreError && error.code === "validation_error")) throw error;
  }
  const reset = await core.admin.resetUserPassword({ email });
  const done = await dashboardMutation(door, "auth.resetPassword", { token: tokenOf(reset.reset_url), password });
  if (!done.ok) throw new Error("could not set the sandbox dashboard owner's password");
  return { email, password, reused: false };
}
