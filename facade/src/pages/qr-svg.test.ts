import { describe, expect, test } from "vitest";
import { decodeQrSvg, svgModules } from "../../../test/support/qr-decode.ts";
import { qrCodeSvg } from "./qr-svg.ts";

describe("qrCodeSvg", () => {
  test.each([
    "https://pay.paytami.example/l/plink_0123456789abcdef01234567",
    "http://127.0.0.1:40123/l/plink_89abcdef0123456789abcdef",
    `https://pay.paytami.example/l/plink_0123456789abcdef01234567?${"x".repeat(300)}`,
  ])("a scanner reads back %s", (url) => {
    expect(decodeQrSvg(qrCodeSvg(url))).toBe(url);
  });

  test("an SVG with a quiet zone, crisp edges, nothing but two paths", () => {
    const svg = qrCodeSvg("https://pay.paytami.example/l/plink_0123456789abcdef01234567");
    expect(svg).toMatch(
      /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 (\d+) \1" shape-rendering="crispEdges"><path fill="#fff" d="M0 0h\1v\1H0z"\/><path fill="#000" d="[^"]+"\/><\/svg>\n$/,
    );
    const modules = svgModules(svg);
    const size = modules.length;
    for (const i of [0, 1, size - 2, size - 1]) {
      expect(modules[i]!.some(Boolean), `row ${i}`).toBe(false);
      expect(
        modules.some((row) => row[i]),
        `column ${i}`,
      ).toBe(false);
    }
    expect(modules[2]![2]).toBe(true); // the top-left finder pattern starts right inside the quiet zone
  });

  test("the decoder is a real check: a symbol with its data area blanked reads nothing", () => {
    const svg = qrCodeSvg("https://pay.paytami.example/l/plink_0123456789abcdef01234567");
    const size = svgModules(svg).length;
    // Keep the three finder patterns (7×7 inside the 2-module quiet zone), clear every other run.
    const finder = (x: number, y: number) => (x < 9 && y < 9) || (x >= size - 9 && y < 9) || (x < 9 && y >= size - 9);
    const blanked = svg.replace(/M(\d+) (\d+)h\d+v1H\d+z/g, (run, x: string, y: string) => (finder(Number(x), Number(y)) ? run : ""));
    expect(blanked).not.toBe(svg);
    expect(decodeQrSvg(blanked)).toBeUndefined();
  });

  test("different text, different symbol", () => {
    expect(qrCodeSvg("https://a.example/l/plink_0")).not.toBe(qrCodeSvg("https://a.example/l/plink_1"));
  });
});
