// One `npm start` per $PAYTAMI_HOME: two would fight over the same cluster, store and ports.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isProcessAlive } from "./processes.ts";
import { SetupError } from "./report.ts";

export function lockHome(home: string): () => void {
  const path = join(home, "start.pid");
  try {
    const pid = Number(readFileSync(path, "utf8").trim());
    if (pid !== process.pid && pid > 0 && isProcessAlive(pid) && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("start.ts")) {
      throw new SetupError(`another \`npm start\` (pid ${pid}) is already using ${home}; stop it or set PAYTAMI_HOME`);
    }
  } catch (error) {
    if (error instanceof SetupError) throw error;
    // no lock, or a stale one from a run that was killed
  }
  writeFileSync(path, `${process.pid}\n`);
  return () => {
    try {
      if (Number(readFileSync(path, "utf8").trim()) === process.pid) rmSync(path);
    } catch {
      // already gone
    }
  };
}
