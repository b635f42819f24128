import type { DashboardHostConfig } from "../config.ts";

type CookieConfig = Pick<DashboardHostConfig, "cookieName" | "secureCookie">;

/** The session token from the request's Cookie header, if the session cookie is there. */
export function sessionTokenOf(cookieHeader: string, config: CookieConfig): string | undefined {
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== config.cookieName) continue;
    const value = part.slice(eq + 1).trim();
    // A token is base64url or hex; anything else is not one of ours and is not forwarded.
    return /^[A-Za-z0-9_-]{16,256}$/.test(value) ? value : undefined;
  }
  return undefined;
}

function attributes(config: CookieConfig, maxAgeSeconds: number): string {
  return `Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${config.secureCookie ? "; Secure" : ""}`;
}

/**
 * The Set-Cookie for the core's answer headers: `X-Paytami-Session-Set: <token>; max-age=<seconds>`
 * after a sign-in, `X-Paytami-Session-Clear: 1` after a sign-out or for a session the core no longer
 * knows. undefined when the core said neither (or something malformed, which sets nothing).
 */
export function sessionSetCookie(set: string | null, clear: string | null, config: CookieConfig): string | undefined {
  if (set) {
    const match = /^([A-Za-z0-9_-]{16,256});\s*max-age=(\d{1,9})$/i.exec(set.trim());
    if (match) return `${config.cookieName}=${match[1]}; ${attributes(config, Number(match[2]))}`;
  }
  if (clear === "1") return `${config.cookieName}=; ${attributes(config, 0)}`;
  return undefined;
}
