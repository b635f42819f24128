// A merchant's shop on another loopback origin, for the browser tests: the return URLs the
// checkout sends customers back to (every visit recorded), and a page that frames the embedded
// checkout and keeps every postMessage it receives (window.received).
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";

export interface Shop {
  origin: string;
  /** Every URL the shop was asked for, in order. */
  visits: URL[];
  /** A page of the shop that frames `src`. */
  framePageUrl(src: string): string;
}

const escapeAttr = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

export function useShop(): () => Shop {
  let server: http.Server | undefined;
  let shop: Shop | undefined;
  beforeAll(async () => {
    const visits: URL[] = [];
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? "/", shop!.origin);
      visits.push(url);
      res.setHeader("content-type", "text/html; charset=utf-8");
      res.setHeader("cache-control", "no-store");
      if (url.pathname === "/frame") {
        const src = url.searchParams.get("src") ?? "";
        res.end(`<!doctype html><html lang="en"><head><title>Shop checkout</title></head><body><h1>Shop checkout</h1>
<script>window.received = []; window.addEventListener("message", function (e) { window.received.push({ origin: e.origin, data: e.data }); });</script>
<iframe id="checkout" title="Checkout" src="${escapeAttr(src)}" width="380" height="900"></iframe></body></html>`);
        return;
      }
      res.end(`<!doctype html><html lang="en"><head><title>Shop</title></head><body><h1>Back at the shop</h1></body></html>`);
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    shop = { origin, visits, framePageUrl: (src) => `${origin}/frame?src=${encodeURIComponent(src)}` };
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });
  return () => {
    if (!shop) throw new Error("useShop(): the shop starts in beforeAll");
    return shop;
  };
}
