// The signed POST against a real loopback receiver: headers, no redirects followed, the deadline,
// the response excerpt, and the refusal of destinations the rule does not allow (literal or resolved).
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
  sendWebhook({ url: receiver.url, eventId: "evt_0123456789abcdef01234567", body, secrets: ["whsec_a", "whsec_b"], destinations: "public-or-loopback", timeoutMs: 500, ...over });

describe("sendWebhook", () => {
  test("POSTs the body as given with the spec's headers and one v1 per secret", async () => {
    answer = { status: 201, body: "é".repeat(600), headers: { "retry-after": "7" } };
    const outcome = await send();
    expect(outcome.httpStatus).toBe(201);
    expect(outcome.retryAfterMs).toBe(7000);
    expect(Buffer.byteLength(outcome.responseExcerpt)).toBeLessThanOrEqual(1024);
    expect(outcome.responseExcerpt).toBe("é".repeat(512));
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
    for (const url of ["http://169.254.169.254/latest/meta-data/", "http://10.0.0.5/hook", "http://[::ffff:169.254.169.254]/", "http://2852039166/", "http://[2002:a9fe:a9fe::1]/"]) {
      const refused = await send({ url });
      expect(refused, url).toMatchObject({ latencyMs: 0, responseExcerpt: "" });
      expect(refused.httpStatus, url).toBeUndefined();
      expect(refused.error, url).toMatch(/is not a public address/);
    }
  });
});
