// Request logs end to end (issue 17 item 4): the facade records each /v1 request of a merchant key
// off the request path, publishes batches on NATS, the core writes them; a burst shows up within
// 5 s, nothing secret is stored or logged, errors carry their catalog code, the dashboard's filters
// work, `paytami logs tail` prints new requests, and with NATS stopped the API answers as before.
// This file runs its own nats-server, since it stops it.
import { randomUUID } from "node:crypto";
import { getPriority } from "node:os";
import { createInterface } from "node:readline";
import { connect } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freePort } from "../core/src/devstack/free-port.ts";
import { threadsOf } from "./bench/process-cpu.ts";
import { apiKeyDigest } from "../proto/api-key-digest.ts";
import { dashQuery, seedUser, signedIn } from "./support/dashboard.ts";
import { validBody } from "./support/expect.ts";
import { eventually } from "./support/eventually.ts";
import { newIdemKey } from "./support/http.ts";
import { privateNats, type PrivateNats } from "./support/private-nats.ts";
import { startStack, type Merchant, type Stack } from "./support/stack.ts";
import { spawnCli } from "./support/cli-run.ts";

const CARD = "4000000000000077";
const CVC = "739";
const WEBHOOK_SECRET = `whsec_${"Kq7_x".repeat(8)}`;

let nats: PrivateNats;
let stack: Stack;
let m: Merchant;
let metricsPort: number;

beforeAll(async () => {
  nats = await privateNats();
  metricsPort = await freePort();
  stack = await startStack({ env: { NATS_URL: nats.url, REQUEST_LOG_FLUSH: "100ms", REQUEST_LOG_PURGE_INTERVAL: "300ms", METRICS_PORT: String(metricsPort) } });
  m = await stack.admin.createMerchant({ name: "Tienda Registros" });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await nats?.dispose();
});

/** The stored rows of these request ids. */
async function rowsOf(requestIds: string[]) {
  return stack.sql<Record<string, any>>("select * from request_logs where request_id = any($1) order by seq", [requestIds]);
}

async function loggedRow(requestId: string): Promise<Record<string, any>> {
  return eventually(async () => (await rowsOf([requestId]))[0], 10_000, `the log of ${requestId}`);
}

/** The stack's request-log subject (the harness gives each stack its own). */
async function logSubject(): Promise<string> {
  return `paytami.request_logs.${(await stack.sql<{ name: string }>("select current_database() as name"))[0]!.name}`;
}

/** A well-formed record of the merchant's, as a facade publishes it. */
function publishedRecord(requestId: string) {
  return {
    at: new Date().toISOString(),
    key_digest: apiKeyDigest(m.testApiKey),
    method: "GET",
    path: "/v1/payments",
    status: 200,
    code: null,
    latency_ms: 3,
    request_id: requestId,
    idempotency_key: null,
    replayed: false,
    client_ip: "127.0.0.1",
    request_body: null,
    response_body: null,
  };
}

async function droppedWhileDown(): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith('paytami_facade_request_logs_dropped_total{reason="nats_down"}'));
  return line ? Number(line.split(" ").at(-1)) : 0;
}

/** The cores' writers' count of one outcome (paytami_core_request_log_records_total), over every core of the stack. */
async function coreRecords(outcome: string): Promise<number> {
  let total = 0;
  for (const url of stack.coreHttpUrls()) {
    const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${stack.internalToken}` } })).text();
    const line = text.split("\n").find((l) => l.startsWith(`paytami_core_request_log_records_total{outcome="${outcome}"}`));
    total += line ? Number(line.split(" ").at(-1)) : 0;
  }
  return total;
}

describe("request logs", () => {
  test("a burst of 2 000 API requests is stored completely within 5 s of the last answer", async () => {
    const prefix = `burst-${randomUUID()}`;
    const ids = Array.from({ length: 2_000 }, (_, i) => `${prefix}-${i}`);
    let next = 0;
    // 32 at a time: reads and creates mixed, as an integration makes them.
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < ids.length) {
          const i = next++;
          const headers = { "Request-Id": ids[i]! };
          const res =
            i % 10 === 0
              ? await stack.http.createPayment(m.testApiKey, validBody(), { headers })
              : await stack.http.listPayments(m.testApiKey, { limit: "1" }, { headers });
          expect(res.status, res.text).toBe(i % 10 === 0 ? 201 : 200);
        }
      }),
    );
    const answered = performance.now();
    await eventually(
      async () => {
        const [row] = await stack.sql<{ n: string }>("select count(*)::text as n from request_logs where request_id like $1", [`${prefix}-%`]);
        return Number(row!.n) === ids.length || undefined;
      },
      5_000,
      "all 2 000 logs",
      50,
    );
    expect(performance.now() - answered).toBeLessThan(5_000);
    const sample = ((await rowsOf([ids[0]!, ids[1]!])) as any[]).sort((a, b) => (a.request_id === ids[0] ? -1 : b.request_id === ids[0] ? 1 : 0));
    expect(sample.map((r) => [r.method, r.path, r.status, r.code, r.merchant_id, r.mode])).toEqual([
      ["POST", "/v1/payments", 201, null, m.merchantId, "test"],
      ["GET", "/v1/payments", 200, null, m.merchantId, "test"],
    ]);
  }, 120_000);

  test("the logging threads run at the lowest CPU priority (nice 19); the threads that answer requests keep theirs", () => {
    const pids = stack.pids();
    for (const [pid, thread] of [
      [pids.facade!, "request-log-pub"],
      [pids.core!, "request-log-wri"],
    ] as const) {
      const threads = threadsOf(pid);
      expect(
        threads.filter((t) => t.comm.startsWith(thread)).map((t) => t.nice),
        `${thread} in ${pid}`,
      ).toEqual([19]);
      // The stack's processes inherit this process's nice value.
      expect(threads.find((t) => t.tid === pid)?.nice, `the main thread of ${pid}`).toBe(getPriority());
    }
  });

  test("one record holds what the request was: key id, idempotency key, replayed, client IP, redacted bodies", async () => {
    const [key] = await stack.sql<{ id: string }>("select id from api_keys where merchant_id = $1 and mode = 'test'", [m.merchantId]);
    const idem = newIdemKey();
    const first = `rec-${randomUUID()}`;
    const again = `rec-${randomUUID()}`;
    const body = validBody({ description: "Pedido 17" });
    expect((await stack.http.createPayment(m.testApiKey, body, { idem, headers: { "Request-Id": first } })).status).toBe(201);
    const replay = await stack.http.createPayment(m.testApiKey, body, { idem, headers: { "Request-Id": again } });
    expect(replay.header("idempotent-replayed")).toBe("true");
    const row = await loggedRow(first);
    expect(row).toMatchObject({ api_key_id: key!.id, idempotency_key: idem, replayed: false, client_ip: "127.0.0.1", method: "POST", status: 201 });
    expect(JSON.parse(row.request_body)).toEqual(body);
    expect(JSON.parse(row.response_body)).toMatchObject({ id: expect.stringMatching(/^pay_/), description: "Pedido 17" });
    expect(row.latency_ms).toBeGreaterThanOrEqual(0);
    expect((await loggedRow(again)).replayed).toBe(true);
  });

  test("no card number, CVC, API key or webhook secret is stored or written to any process's log", async () => {
    const requestId = `secret-${randomUUID()}`;
    const res = await stack.http.createPayment(
      m.testApiKey,
      validBody({
        card: { number: CARD, cvc: CVC, exp_month: 12, exp_year: 2031 },
        description: `tarjeta ${CARD.replace(/(\d{4})(?=\d)/g, "$1 ")}`,
        metadata: { secret: WEBHOOK_SECRET, note: `key ${m.liveApiKey}` },
      }),
      { headers: { "Request-Id": requestId } },
    );
    expect(res.status).toBe(400);
    const row = await loggedRow(requestId);
    expect(row.code).toBe("validation_error");
    // Every stored text of the whole table, and every process's log.
    const [table] = await stack.sql<{ text: string }>("select coalesce(string_agg(row_to_json(r)::text, ''), '') as text from request_logs r");
    const logs = (["core", "facade"] as const).map((p) => stack.logText(p)).join("\n");
    for (const secret of [CARD, WEBHOOK_SECRET, m.testApiKey, m.liveApiKey]) {
      expect(table!.text, secret).not.toContain(secret);
      expect(logs, secret).not.toContain(secret);
    }
    // A CVC is three digits, found in any amount: what must not be kept is the value of a CVC field (and the expiry's).
    expect(JSON.parse(row.request_body).card).toEqual({ number: "[redacted]", cvc: "[redacted]", exp_month: "[redacted]", exp_year: "[redacted]" });
    expect(row.request_body).not.toContain(CVC);
    expect(row.request_body).not.toContain("2031");
  });

  test("4xx answers are logged with their catalog code; a revoked key's 401 under its key id; requests without a key are not logged", async () => {
    const noIdem = `e-${randomUUID()}`;
    const unknown = `e-${randomUUID()}`;
    const revoked = `e-${randomUUID()}`;
    const anonymous = `e-${randomUUID()}`;
    const created = await stack.admin.createKey(m.merchantId, "test");
    await stack.admin.revokeKey(created.id);
    expect((await stack.http.post("/v1/payments", { key: m.testApiKey, body: validBody(), headers: { "Request-Id": noIdem } })).status).toBe(400);
    expect((await stack.http.getPayment(m.testApiKey, "pay_000000000000000000000000", { headers: { "Request-Id": unknown } })).status).toBe(404);
    expect((await stack.http.listPayments(created.apiKey, {}, { headers: { "Request-Id": revoked } })).status).toBe(401);
    expect((await stack.http.listPayments(undefined, {}, { headers: { "Request-Id": anonymous } })).status).toBe(401);
    expect((await loggedRow(noIdem)).code).toBe("idempotency_key_required");
    expect(await loggedRow(unknown)).toMatchObject({ status: 404, code: "unknown_payment" });
    expect(await loggedRow(revoked)).toMatchObject({ status: 401, code: "unauthorized", api_key_id: created.id, merchant_id: m.merchantId });
    expect(await rowsOf([anonymous])).toEqual([]);
  });

  test("5xx answers are logged with their catalog code (the core unreachable; another core writes the log)", async () => {
    const second = await stack.addInstance({ METRICS_PORT: String(await freePort()) });
    const requestId = `down-${randomUUID()}`;
    await stack.stopProcess("core");
    try {
      const res = await stack.http.listPayments(m.testApiKey, {}, { headers: { "Request-Id": requestId } });
      expect(res.status).toBe(503);
      expect(await loggedRow(requestId)).toMatchObject({ status: 503, code: "processor_unavailable" });
    } finally {
      await stack.startProcess("core");
    }
    expect((await second.listPayments(m.testApiKey)).status).toBe(200);
    // The first facade's channel reconnects after its back-off.
    await eventually(
      async () => ((await stack.http.listPayments(m.testApiKey)).status === 200 ? true : undefined),
      60_000,
      "the first facade answering again",
      250,
    );
  }, 120_000);

  test("dashboard.requestLogs: developers filter by status class, path, key and request id, page, and open one; viewers may not", async () => {
    const other = await stack.admin.createMerchant({ name: "Otra Tienda" });
    const dev = await signedIn(stack, await seedUser(stack, m.merchantId, "developer"));
    const viewer = await signedIn(stack, await seedUser(stack, m.merchantId, "viewer"));
    const marker = `f-${randomUUID()}`;
    const failed = `${marker}-400`;
    const ok = `${marker}-200`;
    const foreign = `${marker}-other`;
    await stack.http.post("/v1/payments", { key: m.testApiKey, body: validBody(), headers: { "Request-Id": failed } });
    await stack.http.listPayments(m.testApiKey, {}, { headers: { "Request-Id": ok } });
    await stack.http.listPayments(other.testApiKey, {}, { headers: { "Request-Id": foreign } });
    for (const id of [failed, ok, foreign]) await loggedRow(id);

    const list = (input: Record<string, unknown>) => dashQuery(stack, "requestLogs.list", input, { session: dev });
    const byId = await list({ request_id: failed });
    expect(byId.data.data.map((l: any) => [l.request_id, l.status, l.code])).toEqual([[failed, 400, "idempotency_key_required"]]);
    expect((await list({ request_id: foreign })).data.data).toEqual([]);
    const fours = (await list({ status_class: "4xx", limit: 100 })).data.data;
    expect(fours.length).toBeGreaterThan(0);
    expect(fours.every((l: any) => l.status >= 400 && l.status < 500)).toBe(true);
    const twos = (await list({ status_class: "2xx", path: "/v1/payments", limit: 5 })).data;
    expect(twos.data.every((l: any) => l.status >= 200 && l.status < 300 && l.path === "/v1/payments")).toBe(true);
    expect(twos.has_more).toBe(true);
    const page2 = (await list({ status_class: "2xx", path: "/v1/payments", limit: 5, starting_after: twos.data.at(-1).id })).data;
    expect(page2.data[0].id < twos.data.at(-1).id || Number(page2.data[0].id) < Number(twos.data.at(-1).id)).toBe(true);
    const [key] = await stack.sql<{ id: string }>("select id from api_keys where merchant_id = $1 and mode = 'test' and revoked_at is null", [m.merchantId]);
    const keyed = (await list({ api_key_id: key!.id, limit: 100 })).data.data;
    expect(keyed.every((l: any) => l.api_key_id === key!.id)).toBe(true);
    expect((await list({ api_key_id: "key_nope" })).data.data).toEqual([]);
    expect((await list({ status_class: "1xx" })).code).toBe("validation_error");

    const one = await dashQuery(stack, "requestLogs.get", { id: byId.data.data[0].id }, { session: dev });
    expect(one.data).toMatchObject({ request_id: failed, mode: "test", status: 400, code: "idempotency_key_required" });
    expect(JSON.parse(one.data.response_body)).toEqual({ error: { code: "idempotency_key_required", message: expect.any(String) } });
    const foreignRow = (await rowsOf([foreign]))[0]!;
    expect((await dashQuery(stack, "requestLogs.get", { id: String(foreignRow.seq) }, { session: dev })).code).toBe("validation_error");

    expect((await dashQuery(stack, "requestLogs.list", {}, { session: viewer })).code).toBe("unauthorized");
    expect((await dashQuery(stack, "requestLogs.get", { id: byId.data.data[0].id }, { session: viewer })).code).toBe("unauthorized");
  });

  test("the retention purge deletes logs older than REQUEST_LOG_RETENTION and nothing newer", async () => {
    const old = `old-${randomUUID()}`;
    const fresh = `fresh-${randomUUID()}`;
    await stack.http.listPayments(m.testApiKey, {}, { headers: { "Request-Id": old } });
    await stack.http.listPayments(m.testApiKey, {}, { headers: { "Request-Id": fresh } });
    await loggedRow(old);
    await loggedRow(fresh);
    await stack.sql("update request_logs set created_at = now() - interval '30 days 1 minute' where request_id = $1", [old]);
    // REQUEST_LOG_PURGE_INTERVAL is 300ms in this file.
    await eventually(async () => ((await rowsOf([old])).length === 0 ? true : undefined), 20_000, "the old log purged");
    expect((await rowsOf([fresh])).length).toBe(1);
  });

  test("the core's writer (a thread of its own) drops and counts what is not a batch, writes nothing of it, and goes on writing", async () => {
    const subject = await logSubject();
    const nc = await connect({ servers: nats.url });
    try {
      const malformedBefore = await coreRecords("malformed");
      const badId = `bad-${randomUUID()}`;
      const goodId = `good-${randomUUID()}`;
      const record = publishedRecord(badId);
      nc.publish(subject, "not json at all");
      // Well-formed JSON, but one record breaks the contract (a status no HTTP answer has): the whole batch is refused.
      nc.publish(subject, JSON.stringify({ records: [record, { ...record, status: 1000 }] }));
      nc.publish(subject, JSON.stringify({ records: [{ ...record, extra: "field" }] }));
      nc.publish(subject, JSON.stringify({ records: [{ ...record, request_id: goodId }] }));
      await nc.flush();
      await eventually(async () => ((await rowsOf([goodId])).length === 1 ? true : undefined), 10_000, "the good batch written");
      // Two cores run by now (an earlier test added one), and the subject is a queue group: the four
      // messages may go to different writers, and the good one may be written before the other core's
      // writer (at nice 19) has refused its share (a CI run read /metrics after one of the three).
      await eventually(async () => ((await coreRecords("malformed")) - malformedBefore >= 3 ? true : undefined), 10_000, "the three refused batches counted");
      expect((await coreRecords("malformed")) - malformedBefore).toBe(3);
      expect(await rowsOf([badId])).toEqual([]);
    } finally {
      await nc.close();
    }
  });

  test("a core that answers has subscribed: a batch published the moment it is healthy again is written", async () => {
    const nc = await connect({ servers: nats.url });
    try {
      // The only core restarts; facades publish to whoever subscribes, and nobody does until its writer has.
      await stack.restart("core");
      const requestId = `after-restart-${randomUUID()}`;
      nc.publish(await logSubject(), JSON.stringify({ records: [publishedRecord(requestId)] }));
      await nc.flush();
      await eventually(async () => ((await rowsOf([requestId])).length === 1 ? true : undefined), 10_000, "the batch published right after the restart");
    } finally {
      await nc.close();
    }
  });

  test("with NATS stopped every request is answered correctly and at once, the facade stays healthy, and the logs are dropped and counted", async () => {
    await nats.stop();
    try {
      // Once the facade has noticed (a closed loopback connection is noticed at once), every record is dropped.
      await eventually(
        async () => {
          const seen = await droppedWhileDown();
          await stack.http.listPayments(m.testApiKey);
          return (await eventually(async () => ((await droppedWhileDown()) > seen ? true : undefined), 2_000, "a drop").catch(() => undefined)) ?? undefined;
        },
        10_000,
        "the facade dropping logs",
      );
      const before = await droppedWhileDown();
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          i % 4 === 0 ? stack.http.createPayment(m.testApiKey, validBody()) : stack.http.listPayments(m.testApiKey, { limit: "1" }),
        ),
      );
      answers.forEach((res, i) => {
        expect(res.status, res.text).toBe(i % 4 === 0 ? 201 : 200);
        if (i % 4 === 0) expect(res.json.id).toMatch(/^pay_/);
        else expect(Object.keys(res.json)).toEqual(["data", "has_more"]);
      });
      expect((await stack.http.get("/healthz")).status).toBe(200);
      // Every one of them was recorded and then dropped (not queued, not awaited): the counter says so.
      await eventually(async () => ((await droppedWhileDown()) - before >= 200 ? true : undefined), 5_000, "200 drops counted");
    } finally {
      await nats.start();
    }
    // NATS back: logging resumes on its own.
    const after = `back-${randomUUID()}`;
    await eventually(
      async () => {
        await stack.http.listPayments(m.testApiKey, {}, { headers: { "Request-Id": after } });
        return (await rowsOf([after])).length > 0 || undefined;
      },
      30_000,
      "logs again after NATS came back",
      1_000,
    );
  }, 120_000);

  test("`paytami logs tail --merchant M --status 4xx` prints one line per new request of that class, and Ctrl-C ends it cleanly", async () => {
    const cli = spawnCli(stack, ["logs", "tail", "--merchant", m.merchantId, "--status", "4xx"]);
    const lines: string[] = [];
    createInterface({ input: cli.stdout }).on("line", (l) => lines.push(l));
    let stderr = "";
    cli.stderr.on("data", (d) => (stderr += String(d)));
    const exited = new Promise<number | null>((resolve) => cli.once("exit", (code) => resolve(code)));
    try {
      await eventually(async () => (lines.length > 0 ? true : undefined), 20_000, "the tail's first line");
      expect(lines[0]).toBe(`Tailing test request logs of ${m.merchantId} (4xx) (Ctrl-C to stop)`);
      const good = `tail-ok-${randomUUID()}`;
      const bad = `tail-bad-${randomUUID()}`;
      await stack.http.listPayments(m.testApiKey, {}, { headers: { "Request-Id": good } });
      await stack.http.post("/v1/payments", { key: m.testApiKey, body: validBody(), headers: { "Request-Id": bad } });
      const line = await eventually(async () => lines.find((l) => l.includes(bad)), 15_000, "the 4xx request's line").catch((error: unknown) => {
        throw new Error(`${String(error)}; stdout: ${lines.join("\n")}; stderr: ${stderr}`);
      });
      expect(line).toMatch(new RegExp(`^\\S+Z  400 idempotency_key_required  POST /v1/payments  \\d+ ms  ${bad}  key_\\S+$`));
      expect(lines.some((l) => l.includes(good))).toBe(false);
    } finally {
      cli.kill("SIGINT");
    }
    expect(await exited).toBe(0);
    expect(stderr).toBe("");
  }, 60_000);
});
