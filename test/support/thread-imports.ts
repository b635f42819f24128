import { Worker } from "node:worker_threads";

// Which packages a worker thread's module loads. A thread is a V8 isolate of its own, and every
// module it imports is loaded (and its code compiled) again there: zod is ~11 MB of resident memory
// in a thread, Kysely ~18. The request-log threads must not pull in what they do not use.

/** How often the thread reports what it has resolved; the same report twice in a row ends the wait. */
const REPORT_EVERY_MS = 500;

/**
 * Starts `module` as a worker thread (with `workerData`), records every module it resolves, and once
 * that list has stopped growing, stops the thread and returns the packages in it (`zod`,
 * `@nats-io/…`). The thread need not finish starting (it may wait for a server that is not there):
 * a module's static imports are all resolved before any of its code runs.
 */
export async function packagesLoadedBy(module: URL, workerData: unknown, timeoutMs = 30_000): Promise<string[]> {
  const source = `
    const { registerHooks } = require("node:module");
    const { parentPort } = require("node:worker_threads");
    const seen = new Set();
    registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); seen.add(r.url); return r; } });
    setInterval(() => parentPort.postMessage([...seen]), ${REPORT_EVERY_MS}).unref();
    import(${JSON.stringify(module.href)}).catch(() => undefined);
  `;
  const worker = new Worker(source, { eval: true, workerData, stdout: true, stderr: true });
  try {
    const urls = await new Promise<string[]>((resolve, reject) => {
      let last = "";
      const timer = setTimeout(() => reject(new Error(`${module.href} was still loading modules after ${timeoutMs} ms`)), timeoutMs);
      worker.on("message", (urls: string[]) => {
        const now = JSON.stringify(urls);
        if (now === last && urls.includes(module.href)) {
          clearTimeout(timer);
          resolve(urls);
        }
        last = now;
      });
      worker.once("error", reject);
    });
    const packages = new Set<string>();
    for (const url of urls) {
      const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
      if (match) packages.add(match[1]!);
    }
    return [...packages].sort();
  } finally {
    await worker.terminate();
  }
}
