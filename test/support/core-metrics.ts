// What the cores' /metrics say, for tests that watch a counter move.
import { HttpClient } from "./http.ts";

/** Every sample of the cores at `urls` (their HTTP URLs), by name with its labels as written (`name{label="v"}`), summed over the cores. */
export async function coreMetricSamples(urls: string[], internalToken: string): Promise<Map<string, number>> {
  const sums = new Map<string, number>();
  for (const url of urls) {
    const res = await new HttpClient(url).get("/metrics", { headers: { authorization: `Bearer ${internalToken}` } });
    if (res.status !== 200) throw new Error(`${url}/metrics answered ${res.status}`);
    for (const line of res.text.split("\n")) {
      if (line === "" || line.startsWith("#")) continue;
      const at = line.lastIndexOf(" ");
      const sample = line.slice(0, at);
      sums.set(sample, (sums.get(sample) ?? 0) + Number(line.slice(at + 1)));
    }
  }
  return sums;
}
