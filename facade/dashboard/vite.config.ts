// The dashboard's build (DESIGN §5): served by the facade at /dashboard from dist/dashboard, every
// file but index.html content-hashed (cached for good), each page its own chunk so the first load
// carries the shell and the page at hand only. No inline script (the CSP forbids it) and no CDN.
import path from "node:path";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

const root = import.meta.dirname;
const repo = path.resolve(root, "../..");

/**
 * Writes .vite/inputs.json: every source file of the repository the build read, so the next
 * `npm test` / `npm start` skips the build when none changed (core/src/devstack/dashboard-build.ts).
 */
function recordInputs(): Plugin {
  return {
    name: "paytami-record-inputs",
    apply: "build",
    generateBundle() {
      const inputs = [...this.getModuleIds()]
        .filter((id) => path.isAbsolute(id) && !id.includes("/node_modules/") && id.startsWith(`${repo}/`))
        .map((id) => path.relative(repo, id.split("?")[0]!))
        .sort();
      this.emitFile({ type: "asset", fileName: ".vite/inputs.json", source: `${JSON.stringify([...new Set(inputs)], null, 2)}\n` });
    },
  };
}

export default defineConfig({
  root,
  base: "/dashboard/",
  plugins: [react(), recordInputs()],
  // Vite's own cache stays out of the source tree.
  cacheDir: path.resolve(root, "../../node_modules/.vite-dashboard"),
  logLevel: "warn",
  build: {
    outDir: path.resolve(root, "../../dist/dashboard"),
    emptyOutDir: true,
    // .vite/manifest.json: which files each entry and page loads (the size test reads it).
    manifest: true,
    // The polyfill would be inline-free but is only for browsers without modulepreload, which the app does not target.
    modulePreload: { polyfill: false },
    // Nothing inlined as data: URLs: every asset is a hashed file.
    assetsInlineLimit: 0,
    target: "es2022",
    sourcemap: false,
    reportCompressedSize: false,
  },
});
