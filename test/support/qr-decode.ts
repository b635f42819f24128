// Reads back what a QR code SVG of ours says, with an independent decoder (jsQR, a dev dependency):
// the SVG's module runs (facade/src/pages/qr-svg.ts draws one `M{x} {y}h{w}v1H{x}z` per run) are
// painted into a bitmap, which jsQR scans as it would a camera frame.
import jsQR from "jsqr";

const PIXELS_PER_MODULE = 4;

/** The modules of the SVG, `true` for dark; throws if the SVG is not shaped as qr-svg.ts draws it. */
export function svgModules(svg: string): boolean[][] {
  const size = Number(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 (\d+) \1"/.exec(svg)?.[1]);
  const dark = /<path fill="#000" d="([^"]*)"\/>/.exec(svg)?.[1];
  if (!size || dark === undefined) throw new Error(`not a QR code SVG: ${svg.slice(0, 120)}`);
  const modules = Array.from({ length: size }, () => new Array<boolean>(size).fill(false));
  const runs = dark.match(/M\d+ \d+h\d+v1H\d+z/g) ?? [];
  if (runs.join("") !== dark) throw new Error("unexpected path data in the QR code SVG");
  for (const run of runs) {
    const [x, y, width] = /^M(\d+) (\d+)h(\d+)/.exec(run)!.slice(1).map(Number) as [number, number, number];
    for (let i = 0; i < width; i++) modules[y]![x + i] = true;
  }
  return modules;
}

/** The text a QR code SVG encodes, as a scanner reads it, or undefined if it reads nothing. */
export function decodeQrSvg(svg: string): string | undefined {
  const modules = svgModules(svg);
  const side = modules.length * PIXELS_PER_MODULE;
  const rgba = new Uint8ClampedArray(side * side * 4).fill(255);
  modules.forEach((row, y) =>
    row.forEach((isDark, x) => {
      if (!isDark) return;
      for (let dy = 0; dy < PIXELS_PER_MODULE; dy++) {
        for (let dx = 0; dx < PIXELS_PER_MODULE; dx++) {
          const at = ((y * PIXELS_PER_MODULE + dy) * side + x * PIXELS_PER_MODULE + dx) * 4;
          rgba[at] = rgba[at + 1] = rgba[at + 2] = 0;
        }
      }
    }),
  );
  return jsQR.default(rgba, side, side, { inversionAttempts: "dontInvert" })?.data;
}
