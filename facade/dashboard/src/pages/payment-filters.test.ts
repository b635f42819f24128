import { describe, expect, it } from "vitest";
import { exportHref, filterInput, filtersFrom } from "./payment-filters.ts";

describe("the payments list's filters", () => {
  it("read from the address, days as the instants they start and end at in the merchant's zone", () => {
    const filters = filtersFrom(new URLSearchParams("status=captured&currency=GTQ&from=2026-11-01&to=2026-11-30&search=%20ana%40&method="));
    expect(filters).toEqual({ status: "captured", currency: "GTQ", from: "2026-11-01", to: "2026-11-30", search: "ana@" });
    expect(filterInput(filters, "America/Guatemala")).toEqual({
      status: "captured",
      currency: "GTQ",
      search: "ana@",
      created_from: "2026-11-01T00:00:00-06:00",
      created_to: "2026-12-01T00:00:00-06:00",
    });
  });

  it("export the same filters, escaped", () => {
    expect(exportHref({})).toBe("/dashboard/export/payments.csv");
    expect(exportHref({ status: "refunded", search: "a&b=c", created_from: "2026-11-01T00:00:00-06:00" })).toBe(
      "/dashboard/export/payments.csv?status=refunded&search=a%26b%3Dc&created_from=2026-11-01T00%3A00%3A00-06%3A00",
    );
  });
});
