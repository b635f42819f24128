// One `npm start` or `npm run cluster` per $PAYTAMI_HOME: two would fight over the same cluster, store and ports.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { livePidFromFile } from "./processes.ts";
import { SetupError } from "./report.ts";

export function lockHome(home: string): () => void {
  const path = join(home, "start.pid");
  const other = livePidFromFile(path, ["start.ts"]) ?? livePidFromFile(path, ["cluster.ts"]);
  if (other !== null && other !== process.pid) {
    throw new SetupError(`another \`npm start\` or \`npm run cluster\` (pid ${other}) is already using ${home}; stop it or set PAYTAMI_HOME`);
  }
  // Otherwise there is no lock, or a stale one from a run that was killed.
  writeFileSync(path, `${process.pid}\n`);
  return () => {
    try {
      if (Number(readFileSync(path, "utf8").trim()) === process.pid) rmSync(path);
    } catch {
      // already gone
    }
  };
}
