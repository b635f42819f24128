import { useEffect, useMemo, useState } from "react";
import { qrModules, qrPath, qrPng, SCREEN_QUIET_ZONE } from "./qr.ts";

/** `text` as a QR code: an SVG on the page (named by `label`), and a PNG for printing to download as `fileName`. */
export function QrCode({ text, label, downloadLabel, fileName }: { text: string; label: string; downloadLabel: string; fileName: string }) {
  const modules = useMemo(() => qrModules(text, SCREEN_QUIET_ZONE), [text]);
  const [pngUrl, setPngUrl] = useState<string>();
  useEffect(() => {
    let url: string | undefined;
    let live = true;
    void qrPng(text).then((blob) => {
      url = URL.createObjectURL(blob);
      if (live) setPngUrl(url);
      else URL.revokeObjectURL(url);
    });
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
      setPngUrl(undefined);
    };
  }, [text]);
  return (
    <figure className="qr">
      <svg
        className="qr-svg"
        xmlns="http://www.w3.org/2000/svg"
        viewBox={`0 0 ${modules.size} ${modules.size}`}
        shapeRendering="crispEdges"
        role="img"
        aria-label={label}
        data-testid="link-qr"
      >
        <path fill="#fff" d={`M0 0h${modules.size}v${modules.size}H0z`} />
        <path fill="#000" d={qrPath(modules)} />
      </svg>
      <figcaption>
        {pngUrl ? (
          <a className="button button-secondary" href={pngUrl} download={fileName} data-testid="qr-png">
            {downloadLabel}
          </a>
        ) : (
          <span className="button button-secondary" aria-disabled="true">
            {downloadLabel}
          </span>
        )}
      </figcaption>
    </figure>
  );
}
