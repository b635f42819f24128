import { describe, expect, it } from "vitest";
import { fieldOfError, linkAmount, linkState } from "./link-view.ts";

const money = (minor: string, currency: string) => `${currency}:${minor}`;
const range = (min: string, max: string) => `${min}..${max}`;

describe("the link pages' reading of a link", () => {
  it("shows a fixed amount or its bounds", () => {
    const base = { currency: "GTQ", fixed_amount_minor: null, min_amount_minor: null, max_amount_minor: null };
    expect(linkAmount({ ...base, amount_type: "fixed", fixed_amount_minor: "15000" }, money, range)).toBe("GTQ:15000");
    expect(linkAmount({ ...base, amount_type: "variable", min_amount_minor: "500", max_amount_minor: "90000" }, money, range)).toBe("GTQ:500..GTQ:90000");
  });

  it("names its state", () => {
    expect(linkState({ payable: true, not_payable_reason: null })).toBe("payable");
    expect(linkState({ payable: false, not_payable_reason: "exhausted" })).toBe("exhausted");
  });

  it("puts the API's validation message on the field it names", () => {
    expect(fieldOfError("validation_error", "title must be 1 to 200 characters.")).toBe("title");
    expect(fieldOfError("validation_error", "max_amount_minor is required with the other bound.")).toBe("max_amount_minor");
    expect(fieldOfError("amount_below_minimum", "fixed_amount_minor must be at least 500 (minor units of GTQ).")).toBe("fixed_amount_minor");
    expect(fieldOfError("currency_not_supported", "Currency EUR is not enabled for this merchant.")).toBe("currency");
    expect(fieldOfError("validation_error", "Unknown field: foo.")).toBeUndefined();
  });
});
