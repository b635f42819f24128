import { describe, expect, it } from "vitest";
import { makePng } from "./png-fixture.ts";
import { isPng, pngSize } from "./png.ts";

describe("PNG recognition", () => {
  it("reads width and height from IHDR", () => {
    expect(pngSize(makePng(120, 40))).toEqual({ width: 120, height: 40 });
    expect(isPng(makePng(1, 1))).toBe(true);
  });

  it("refuses what only pretends to be a PNG", () => {
    expect(isPng(Buffer.from("GIF89a........"))).toBe(false);
    expect(isPng(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBe(false);
    // The signature alone, or a first chunk other than IHDR, is not a PNG.
    expect(pngSize(makePng(4, 4).subarray(0, 8))).toBeNull();
    const wrongChunk = Buffer.from(makePng(4, 4));
    wrongChunk.write("IDAT", 12, "latin1");
    expect(pngSize(wrongChunk)).toBeNull();
    const zeroWide = Buffer.from(makePng(4, 4));
    zeroWide.writeUInt32BE(0, 16);
    expect(pngSize(zeroWide)).toBeNull();
  });
});
