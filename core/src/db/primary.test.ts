import { describe, expect, it } from "vitest";
import { isConnectionLoss } from "./connection-loss.ts";
import { parseDatabaseUrl } from "./primary.ts";

describe("parseDatabaseUrl", () => {
  it("reads every host of a multi-host URL, in order, and what they share", () => {
    const t = parseDatabaseUrl("postgres://pay%40ta:s%3Acret@10.0.0.1:5433,db2,[::1]:6000/paytami?target_session_attrs=read-write&sslmode=disable");
    expect(t.hosts).toEqual([
      { host: "10.0.0.1", port: 5433 },
      { host: "db2", port: 5432 },
      { host: "::1", port: 6000 },
    ]);
    expect([t.user, t.password, t.database, t.readWrite]).toEqual(["pay@ta", "s:cret", "paytami", true]);
    expect(t.firstHostUrl).toBe("postgres://pay%40ta:s%3Acret@10.0.0.1:5433/paytami?sslmode=disable");
  });

  it("asks for the primary with several hosts, not with one unless the URL says so", () => {
    expect(parseDatabaseUrl("postgres://u@h1,h2/db").readWrite).toBe(true);
    expect(parseDatabaseUrl("postgres://u@h1/db").readWrite).toBe(false);
    expect(parseDatabaseUrl("postgresql://u@h1/db?target_session_attrs=read-write").readWrite).toBe(true);
    expect(parseDatabaseUrl("postgres://u@h1,h2/db?target_session_attrs=any").readWrite).toBe(false);
  });

  it("refuses what it cannot honour", () => {
    expect(() => parseDatabaseUrl("mysql://u@h/db")).toThrow(/postgres:\/\//);
    expect(() => parseDatabaseUrl("postgres://u@h1,/db")).toThrow(/host/);
    expect(() => parseDatabaseUrl("postgres://u@h1/db?target_session_attrs=standby")).toThrow(/not supported/);
  });
});

describe("isConnectionLoss", () => {
  it("knows a dropped connection, a shutdown and a standby, also wrapped", () => {
    expect(isConnectionLoss(Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }))).toBe(true);
    expect(isConnectionLoss(Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }))).toBe(true);
    expect(isConnectionLoss(new Error("wrapped", { cause: new Error("Connection terminated unexpectedly") }))).toBe(true);
    expect(isConnectionLoss(Object.assign(new Error("cannot execute INSERT in a read-only transaction"), { code: "25006" }))).toBe(true);
  });

  it("leaves statement errors alone", () => {
    expect(isConnectionLoss(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
    expect(isConnectionLoss(new Error("boom"))).toBe(false);
    expect(isConnectionLoss(undefined)).toBe(false);
  });
});
