import { describe, expect, it } from "vitest";
import { extraPgSettings } from "./postgres.ts";
import { SetupError } from "./report.ts";

describe("PAYTAMI_PG_SETTINGS", () => {
  it("unset or blank adds nothing", () => {
    expect(extraPgSettings(undefined)).toEqual([]);
    expect(extraPgSettings(" ; ")).toEqual([]);
  });

  it("turns name=value pairs into quoted postgresql.conf lines", () => {
    expect(extraPgSettings("shared_preload_libraries=pg_stat_statements,auto_explain; auto_explain.log_min_duration = 5ms")).toEqual([
      "shared_preload_libraries = 'pg_stat_statements,auto_explain'",
      "auto_explain.log_min_duration = '5ms'",
    ]);
  });

  it("quotes a value so it cannot end the line's string", () => {
    expect(extraPgSettings("application_name=it's")).toEqual(["application_name = 'it''s'"]);
  });

  it("refuses what is not name=value", () => {
    expect(() => extraPgSettings("fsync")).toThrow(SetupError);
    expect(() => extraPgSettings("fsync=off\ninclude '/etc/passwd'")).toThrow(/not name=value/);
  });
});
