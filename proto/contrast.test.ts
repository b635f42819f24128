import { describe, expect, it } from "vitest";
import { contrastRatio, DARK_TEXT, LIGHT_TEXT, luminance, shownRatio, textOn } from "./contrast.ts";

describe("WCAG contrast", () => {
  it("matches the known pairs", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#ffffff", "#ffffff")).toBeCloseTo(1, 5);
    // WebAIM's checker: #777777 on white is 4.47:1 (fails AA), #767676 is 4.54:1 (the lightest grey that passes).
    expect(shownRatio(contrastRatio("#777777", "#ffffff"))).toBe("4.47");
    expect(shownRatio(contrastRatio("#767676", "#ffffff"))).toBe("4.54");
    // #0000ff on white: 8.59:1; #ff0000 on white: 3.99:1.
    expect(shownRatio(contrastRatio("#0000ff", "#ffffff"))).toBe("8.59");
    expect(shownRatio(contrastRatio("#ff0000", "#ffffff"))).toBe("3.99");
    expect(contrastRatio("#ff0000", "#ffffff")).toBeCloseTo(contrastRatio("#ffffff", "#ff0000"), 10);
  });

  it("computes relative luminance from sRGB", () => {
    expect(luminance("#000000")).toBe(0);
    expect(luminance("#ffffff")).toBeCloseTo(1, 10);
    expect(luminance("#808080")).toBeCloseTo(0.2158605, 6);
  });

  it("puts white on dark colours and the pages' dark text on light ones", () => {
    expect(textOn("#1d4ed8").text).toBe(LIGHT_TEXT);
    expect(textOn("#ffd400").text).toBe(DARK_TEXT);
    expect(textOn("#ffd400").ratio).toBeCloseTo(contrastRatio("#ffd400", DARK_TEXT), 10);
  });

  it("finds mid tones that fail with both texts", () => {
    // #e2001a-ish reds and mid greys sit between: neither white nor #1b1f24 reaches 4.5:1.
    const mid = textOn("#808080");
    expect(mid.ratio).toBeLessThan(4.5);
    expect(textOn("#ff0000").ratio).toBeLessThan(4.5);
  });
});
