// A payment link's QR code in the app: the modules from uqr (the encoder the hosted /l/{id}/qr.svg
// uses, facade/src/pages/qr-svg.ts, with the same error correction) as one SVG path, and a PNG
// drawn on a canvas for printing. No HTML string is ever built: the SVG is React elements.
import { encode } from "uqr";

/** Error correction M: a printed code survives about 15 % smudged or covered (as qr-svg.ts). */
const ERROR_CORRECTION = "M";

/** On screen: two light modules around the symbol, as the hosted SVG has. */
export const SCREEN_QUIET_ZONE = 2;
/** In print: the four modules ISO/IEC 18004 asks for, since the paper's edge may be anything. */
export const PRINT_QUIET_ZONE = 4;
/**
 * The PNG's side in pixels, at least: 1200 px is 10 cm at 300 dpi, a counter sign's size. Each
 * module is a whole number of pixels, so the edges stay sharp however it is scaled down.
 */
export const PRINT_MIN_PIXELS = 1200;

export interface QrModules {
  size: number;
  dark: boolean[][];
}

export function qrModules(text: string, quietZone: number): QrModules {
  const { data, size } = encode(text, { ecc: ERROR_CORRECTION, border: quietZone });
  return { size, dark: data };
}

/** The dark modules as one path: a `M{x} {y}h{w}v1H{x}z` per run of dark modules in a row. */
export function qrPath({ size, dark }: QrModules): string {
  let path = "";
  dark.forEach((row, y) => {
    for (let x = 0; x < size; x++) {
      if (!row[x]) continue;
      const start = x;
      while (x + 1 < size && row[x + 1]) x++;
      path += `M${start} ${y}h${x + 1 - start}v1H${start}z`;
    }
  });
  return path;
}

/** The PNG for printing: black on white, whole pixels per module, at least PRINT_MIN_PIXELS wide. */
export async function qrPng(text: string): Promise<Blob> {
  const modules = qrModules(text, PRINT_QUIET_ZONE);
  const scale = Math.ceil(PRINT_MIN_PIXELS / modules.size);
  const side = modules.size * scale;
  const canvas = document.createElement("canvas");
  canvas.width = side;
  canvas.height = side;
  const context = canvas.getContext("2d");
  if (!context) throw new Error("no 2D canvas");
  context.fillStyle = "#ffffff";
  context.fillRect(0, 0, side, side);
  context.fillStyle = "#000000";
  modules.dark.forEach((row, y) => row.forEach((isDark, x) => isDark && context.fillRect(x * scale, y * scale, scale, scale)));
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("the canvas made no PNG"))), "image/png"));
}
