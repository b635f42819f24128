// The QR code of a payment link as SVG, from uqr's module matrix (a dependency-free encoder). One
// path with a run per row of dark modules keeps it small (a link's code is about 4 KB).
import { encode } from "uqr";

/** Error correction M: about 15 % of the symbol may be smudged or covered on a printed code. */
const ERROR_CORRECTION = "M";
/** Light modules around the symbol, so a scanner finds its edge on any background. */
const QUIET_ZONE = 2;

/** An SVG of `text` as a QR code, one unit per module; the viewer scales it. */
export function qrCodeSvg(text: string): string {
  const { data, size } = encode(text, { ecc: ERROR_CORRECTION, border: QUIET_ZONE });
  let dark = "";
  data.forEach((row, y) => {
    for (let x = 0; x < size; x++) {
      if (!row[x]) continue;
      const start = x;
      while (x + 1 < size && row[x + 1]) x++;
      dark += `M${start} ${y}h${x + 1 - start}v1H${start}z`;
    }
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" shape-rendering="crispEdges">` +
    `<path fill="#fff" d="M0 0h${size}v${size}H0z"/><path fill="#000" d="${dark}"/></svg>\n`
  );
}
