// The signed POST against a real loopback receiver: headers, no redirects followed, the deadline,
// the response excerpt, and the refusal of destinations the rule does not allow (literal or resolved).
import { once } from "node:events";
import * as http from "node:http";
import * as net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { WebhookReceiver } from "../test/support/webhook-receiver.ts";
import { verifySignature } from "./webhook-signature.ts";
import { sendWebhook } from "./send-webhook.ts";

let receiver: WebhookReceiver;
let answer: ReturnType<WebhookReceiver["behaviour"]> = { status: 200 };
beforeAll(async () => {
  receiver = await new WebhookReceiver(() => answer).start();
});
afterAll(() => receiver.stop());

const body = Buffer.from('{"id":"evt_0123456789abcdef01234567","type":"payment.succeeded"}');
const send = (over: Partial<Parameters<typeof sendWebhook>[0]> = {}) =>
  sendWebhook({
    url: receiver.url,
    eventId: "evt_0123456789abcdef01234567",
    body,
    secrets: ["whsec_a", "whsec_b"],
    destinations: "public-or-loopback",
    timeoutMs: 500,
    ...over,
  });

describe("sendWebhook", () => {
  test("POSTs the body as given with the spec's headers and one v1 per secret", async () => {
    answer = { status: 201, body: "é".repeat(1100), headers: { "retry-after": "7" } };
    const outcome = await send();
    expect(outcome.httpStatus).toBe(201);
    expect(outcome.retryAfterMs).toBe(7000);
    // 1024 characters, however many bytes each takes.
    expect(outcome.responseExcerpt).toBe("é".repeat(1024));
    const req = receiver.requests.at(-1)!;
    expect(req.body.equals(body)).toBe(true);
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.headers["user-agent"]).toBe("Service-Webhooks/1.0");
    expect(req.headers["service-event-id"]).toBe("evt_0123456789abcdef01234567");
    const header = String(req.headers["service-signature"]);
    expect(verifySignature(header, req.body, "whsec_a")).toBe(true);
    expect(verifySignature(header, req.body, "whsec_b")).toBe(true);
  });

  test("a redirect is answered as is, never followed; a hang ends at the deadline", async () => {
    answer = { status: 301, headers: { location: "http://127.0.0.1:1/elsewhere" } };
    const before = receiver.requests.length;
    expect((await send()).httpStatus).toBe(301);
    expect(receiver.requests.length).toBe(before + 1);
    answer = "hang";
    const hung = await send();
    expect(hung.httpStatus).toBeUndefined();
    expect(hung.error).toBe("no response within 500 ms");
  });

  test("public only (live mode; test mode without WEBHOOK_ALLOW_LOOPBACK) refuses loopback, literal or by name, without sending anything", async () => {
    answer = { status: 200 };
    const before = receiver.requests.length;
    const literal = await send({ destinations: "public" });
    expect(literal.httpStatus).toBeUndefined();
    expect(literal.error).toMatch(/127\.0\.0\.1 is not a public address/);
    const named = await send({ destinations: "public", url: receiver.url.replace("127.0.0.1", "localhost") });
    expect(named.httpStatus).toBeUndefined();
    expect(named.error).toMatch(/not a public address/);
    expect(receiver.requests.length).toBe(before);
  });

  test("loopback allowed (test mode with WEBHOOK_ALLOW_LOOPBACK): loopback by literal or name is sent; private and link-local still refused", async () => {
    answer = { status: 200 };
    const before = receiver.requests.length;
    expect((await send({ url: receiver.url.replace("127.0.0.1", "localhost") })).httpStatus).toBe(200);
    expect(receiver.requests.length).toBe(before + 1);
    // Refused before any connection is attempted: nothing leaves this machine.
    for (const url of [
      "http://169.254.169.254/latest/meta-data/",
      "http://10.0.0.5/hook",
      "http://[::ffff:169.254.169.254]/",
      "http://2852039166/",
      "http://[2002:a9fe:a9fe::1]/",
    ]) {
      const refused = await send({ url });
      expect(refused, url).toMatchObject({ latencyMs: 0, responseExcerpt: "" });
      expect(refused.httpStatus, url).toBeUndefined();
      expect(refused.error, url).toMatch(/is not a public address/);
    }
  });
});

describe("the response excerpt", () => {
  test("NUL and other control characters are escaped visibly; tab, newline and CR are kept", async () => {
    answer = { status: 200, body: "ok\0" };
    expect((await send()).responseExcerpt).toBe("ok\\u0000");
    answer = { status: 500, body: "\x1b[31mred\x07\tline\r\n\x85\x7f" };
    const outcome = await send();
    expect(outcome.httpStatus).toBe(500);
    expect(outcome.responseExcerpt).toBe("\\u001b[31mred\\u0007\tline\r\n\\u0085\\u007f");
  });

  test("invalid UTF-8 becomes U+FFFD, a truncated last character included", async () => {
    answer = { status: 200, body: Buffer.from([0x6f, 0x6b, 0xff, 0x00, 0xc3, 0x28, 0xe2, 0x82]) };
    expect((await send()).responseExcerpt).toBe("ok\uFFFD\\u0000\uFFFD(\uFFFD");
  });

  test("of a body that does not end only the excerpt is read, then the connection is closed", async () => {
    const cap = 64 << 20;
    let written = 0;
    let closed = false;
    const endless = http.createServer((req, res) => {
      req.resume();
      res.on("close", () => (closed = true));
      res.writeHead(200, { "content-type": "text/plain" });
      const piece = Buffer.alloc(16 * 1024, "a");
      const more = () => {
        while (!closed && written < cap) {
          written += piece.length;
          if (!res.write(piece)) return void res.once("drain", more);
        }
        res.end();
      };
      more();
    });
    endless.listen(0, "127.0.0.1");
    await once(endless, "listening");
    try {
      const outcome = await send({ url: `http://127.0.0.1:${(endless.address() as AddressInfo).port}/endless`, timeoutMs: 10_000 });
      expect(outcome.httpStatus).toBe(200);
      expect(outcome.error).toBeUndefined();
      expect(outcome.responseExcerpt).toBe("a".repeat(1024));
      // The dispatcher hung up instead of draining: the server saw the response closed early.
      for (let i = 0; i < 50 && !closed; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(closed).toBe(true);
      expect(written).toBeLessThan(cap);
    } finally {
      endless.closeAllConnections();
      endless.close();
    }
  });
});

describe("kept-alive connections the receiver closes", () => {
  test("a socket the receiver reset while it waited in the pool: the delivery is sent again at once on a new connection", async () => {
    // Like nginx or a proxy: keep-alive with no announced timeout, and an idle connection closed on
    // the receiver's own schedule; here the second request on a connection meets that close (a reset).
    const seen: number[] = [];
    const raw = net.createServer((socket) => {
      const connection = seen.push(0) - 1;
      socket.on("data", (chunk) => {
        if (!chunk.toString("latin1").startsWith("POST ")) return;
        if (++seen[connection]! > 1) return void socket.resetAndDestroy();
        socket.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok");
      });
    });
    raw.listen(0, "127.0.0.1");
    await once(raw, "listening");
    const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/hooks`;
    try {
      expect((await send({ url })).httpStatus).toBe(200);
      const second = await send({ url });
      expect(second.error).toBeUndefined();
      expect(second.httpStatus).toBe(200);
      expect(second.responseExcerpt).toBe("ok");
      // The first connection carried the first request and the one it reset; the second request came again on a connection of its own.
      expect(seen).toEqual([2, 1]);
    } finally {
      raw.close();
    }
  });

  test("a socket that failed on its first use is not retried: the attempt fails as it did", async () => {
    const raw = net.createServer((socket) => socket.on("data", () => socket.resetAndDestroy()));
    raw.listen(0, "127.0.0.1");
    await once(raw, "listening");
    let connections = 0;
    raw.on("connection", () => connections++);
    try {
      const outcome = await send({ url: `http://127.0.0.1:${(raw.address() as AddressInfo).port}/hooks` });
      expect(outcome.httpStatus).toBeUndefined();
      expect(outcome.error).toMatch(/^ECONNRESET/);
      expect(connections).toBe(1);
    } finally {
      raw.close();
    }
  });

  test("a receiver's Keep-Alive timeout is honoured: a socket idle past it, less a second, is not reused", async () => {
    // Node's server announces `Keep-Alive: timeout=2`; the pool drops the socket after 1 s idle.
    const server = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => res.end("ok"));
    });
    server.keepAliveTimeout = 2_000;
    let connections = 0;
    server.on("connection", () => connections++);
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    try {
      expect((await send({ url })).httpStatus).toBe(200);
      expect((await send({ url })).httpStatus).toBe(200);
      expect(connections).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 1_300));
      expect((await send({ url })).httpStatus).toBe(200);
      expect(connections).toBe(2);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
