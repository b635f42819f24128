import { describe, expect, it } from "vitest";
import { brandStylesheet, brandStylesheetPath, toPageBrand } from "./branding.ts";

describe("brand stylesheets", () => {
  it("are named by their colours and written from nothing else", () => {
    const brand = toPageBrand({ brand_color: "#1d4ed8", brand_text_color: "#ffffff", accent_color: "#ffd400", accent_text_color: "#1b1f24" });
    const path = brandStylesheetPath(brand)!;
    expect(path).toBe("/assets/brand/1d4ed8-ffffff-ffd400-1b1f24.css");
    const css = brandStylesheet(path.slice("/assets/brand/".length))!;
    expect(css).toContain("background: #1d4ed8; border-color: #1d4ed8; color: #ffffff;");
    expect(css).toContain(".brand-bar { background: #ffd400; color: #1b1f24; }");
    expect(brandStylesheet("none-none-ffd400-1b1f24.css")).toBe(".brand-bar { background: #ffd400; color: #1b1f24; }\n");
  });

  it("refuse any name that is not exactly colours", () => {
    for (const file of [
      "none-none-none-none.css",
      "1d4ed8-ffffff.css",
      "1D4ED8-ffffff-none-none.css",
      "1d4ed8-ffffff-none-none.css;x",
      "}body{x-ffffff-none-none.css",
      "../x.css",
    ]) {
      expect(brandStylesheet(file)).toBeUndefined();
    }
  });

  it("leave out from the core's answer anything not a colour or a logo path", () => {
    expect(
      toPageBrand({
        brand_color: "red;}body{",
        brand_text_color: "#ffffff",
        accent_color: "#ffd400",
        accent_text_color: "#fff",
        logo_url: "https://evil.example/x.svg",
      }),
    ).toEqual({ brand: undefined, accent: undefined, logoUrl: undefined });
    expect(toPageBrand(undefined)).toEqual({});
    expect(brandStylesheetPath({})).toBeUndefined();
  });
});
