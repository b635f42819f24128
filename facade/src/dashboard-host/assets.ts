import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

export interface DashboardAsset {
  type: string;
  body: Buffer;
  /** Sent instead of `body` to a browser that accepts gzip (and when it is smaller). */
  gzip: Buffer | undefined;
}

export interface DashboardBuild {
  index: Buffer;
  /** By path under /dashboard/ (e.g. "assets/index-3f9a1c.js"). */
  assets: ReadonlyMap<string, DashboardAsset>;
}

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
};

/**
 * The built app, read once into memory (a few hundred KB, compressed once here rather than on every
 * request). Only `assets/` is served as files: Vite's manifest and anything else in the folder stay private.
 * undefined when the app is not built (the facade still serves the API; /dashboard says so).
 */
export function loadDashboardBuild(dir: string): DashboardBuild | undefined {
  let index: Buffer;
  try {
    index = readFileSync(path.join(dir, "index.html"));
  } catch {
    return undefined;
  }
  const assets = new Map<string, DashboardAsset>();
  const assetDir = path.join(dir, "assets");
  let names: string[] = [];
  try {
    names = readdirSync(assetDir, { recursive: true, encoding: "utf8" });
  } catch {
    // an app with no assets at all is only its index
  }
  for (const name of names) {
    const file = path.join(assetDir, name);
    if (!statSync(file).isFile()) continue;
    const body = readFileSync(file);
    const type = TYPES[path.extname(name).toLowerCase()] ?? "application/octet-stream";
    const compressible = /^(text\/|image\/svg)/.test(type);
    const gzip = compressible ? gzipSync(body) : undefined;
    assets.set(`assets/${name.split(path.sep).join("/")}`, { type, body, gzip: gzip && gzip.length < body.length ? gzip : undefined });
  }
  return { index, assets };
}
