import { describe, expect, it } from "vitest";
import { sessionSetCookie, sessionTokenOf } from "./session-cookie.ts";

const HTTP = { cookieName: "paytami_session", secureCookie: false };
const HTTPS = { cookieName: "__Host-paytami_session", secureCookie: true };
const TOKEN = "aBcD_efGh-ijKLmnopQRstuvWXyz0123456789abcde";

describe("dashboard session cookie", () => {
  it("turns the core's X-Paytami-Session-Set into the cookie of DESIGN §5", () => {
    expect(sessionSetCookie(`${TOKEN}; max-age=43200`, null, HTTP)).toBe(`paytami_session=${TOKEN}; Path=/; Max-Age=43200; HttpOnly; SameSite=Lax`);
    expect(sessionSetCookie(`${TOKEN}; max-age=43200`, null, HTTPS)).toBe(
      `__Host-paytami_session=${TOKEN}; Path=/; Max-Age=43200; HttpOnly; SameSite=Lax; Secure`,
    );
  });

  it("clears it on X-Paytami-Session-Clear, and sets nothing from a malformed header", () => {
    expect(sessionSetCookie(null, "1", HTTPS)).toBe("__Host-paytami_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure");
    expect(sessionSetCookie("bad token; max-age=1", null, HTTP)).toBeUndefined();
    expect(sessionSetCookie(`${TOKEN}; path=/evil`, null, HTTP)).toBeUndefined();
    expect(sessionSetCookie(null, null, HTTP)).toBeUndefined();
  });

  it("reads the token from the Cookie header by its exact name only", () => {
    expect(sessionTokenOf(`other=1; paytami_session=${TOKEN}; x=y`, HTTP)).toBe(TOKEN);
    expect(sessionTokenOf(`paytami_session=${TOKEN}`, HTTPS)).toBeUndefined();
    expect(sessionTokenOf(`xpaytami_session=${TOKEN}`, HTTP)).toBeUndefined();
    expect(sessionTokenOf("paytami_session=<script>", HTTP)).toBeUndefined();
    expect(sessionTokenOf("", HTTP)).toBeUndefined();
  });
});
