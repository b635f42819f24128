// The SDK as a package: its types are what @hey-api/openapi-ts generates from the live document
// (so the committed file cannot drift from the API), and its built dist/ runs on plain Node with
// nothing but the platform (no dependency, no Node-only module).
import { execFile, execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "vitest";
import { REPO_ROOT } from "../core/src/devstack/services.ts";
import { GENERATED_TYPES, generateTypes } from "../facade/sdk/generate-types.ts";
import { ERROR_CODES } from "../facade/sdk/src/index.ts";
import { useStack } from "./support/expect.ts";
import { nodeBinary } from "./support/stack.ts";

const getStack = useStack();
const SDK = join(REPO_ROOT, "facade/sdk");

/** Whether the Node at `node` is one the package supports (engines: >= 20). */
function supported(node: string): boolean {
  const major = Number(/^v(\d+)\./.exec(execFileSync(node, ["--version"], { encoding: "utf8" }))?.[1]);
  return major >= 20;
}

test("regenerating the types from the live /v1/openapi.json gives the committed file, byte for byte", async () => {
  const res = await getStack().http.get("/v1/openapi.json");
  expect(res.status).toBe(200);
  const regenerated = await generateTypes(res.json as Record<string, unknown>);
  expect(regenerated).toBe(readFileSync(GENERATED_TYPES, "utf8"));
  // The generated file carries the API's objects (a document without them would generate an empty file).
  for (const name of ["Payment", "PaymentLink", "Refund", "Event", "Balance", "Payout", "Chargeback", "CreatePaymentErrors"]) {
    expect(regenerated).toContain(`export type ${name} = {`);
  }
});

test("the SDK's error codes are exactly the codes the document's operations answer", async () => {
  const document = (await getStack().http.get("/v1/openapi.json")).json as { paths: Record<string, Record<string, { responses: Record<string, any> }>> };
  const answered = new Set<string>();
  for (const item of Object.values(document.paths)) {
    for (const op of Object.values(item))
      for (const response of Object.values(op.responses)) for (const code of response["x-error-codes"] ?? []) answered.add(code);
  }
  expect([...ERROR_CODES].sort()).toEqual([...answered].sort());
});

test("package.json: ESM with types, Node >= 20, no dependencies of any kind at run time", () => {
  const pkg = JSON.parse(readFileSync(join(SDK, "package.json"), "utf8"));
  expect(pkg).toMatchObject({
    name: "@paytami/sdk",
    type: "module",
    engines: { node: ">=20" },
    exports: { ".": { types: "./dist/index.d.ts", import: "./dist/index.js" } },
  });
  expect(pkg.dependencies ?? {}).toEqual({});
  expect(pkg.peerDependencies ?? {}).toEqual({});
});

test("dist/ imports nothing but itself, and runs on plain Node (24, and the machine's own Node >= 20) against the stack", async () => {
  const dist = join(SDK, "dist");
  const files = readdirSync(dist).filter((f) => f.endsWith(".js"));
  expect(files).toContain("index.js");
  for (const file of files) {
    const imports = [...readFileSync(join(dist, file), "utf8").matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)].map((m) => m[1]!);
    for (const specifier of imports) expect(specifier, `${file} imports ${specifier}`).toMatch(/^\.\/[a-z-]+(\/[a-z.-]+)?\.js$/);
  }
  const merchant = await getStack().admin.createMerchant({ name: "Tienda Paquete" });
  const script = `
    const { Paytami } = await import(${JSON.stringify(pathToFileURL(join(dist, "index.js")).href)});
    const paytami = new Paytami(process.env.KEY, { baseUrl: process.env.BASE });
    const payment = await paytami.payments.create({ amount: "5000", currency: "GTQ", method_type: "card",
      success_url: "https://shop.example.com/ok", cancel_url: "https://shop.example.com/no" });
    const page = await paytami.payments.list({ limit: 1 });
    console.log(JSON.stringify({ created: payment.id, listed: page.data[0].id, version: process.version }));`;
  const run = (node: string) =>
    new Promise<string>((resolve, reject) =>
      execFile(
        node,
        ["--input-type=module", "-e", script],
        { env: { PATH: process.env.PATH, KEY: merchant.testApiKey, BASE: getStack().baseUrl }, cwd: "/" },
        (error, stdout, stderr) => (error ? reject(new Error(stderr || error.message)) : resolve(stdout)),
      ),
    );
  // The project's Node (24), and the machine's own when it is a Node the package supports (>= 20).
  const nodes = [nodeBinary(), ...["/usr/bin/node", "/usr/local/bin/node"].filter((node) => existsSync(node) && supported(node))];
  const ran: string[] = [];
  for (const node of nodes) {
    const { created, listed, version } = JSON.parse((await run(node)).trim());
    expect(created, node).toMatch(/^pay_[0-9a-f]{24}$/);
    expect(listed, node).toBe(created);
    ran.push(version);
  }
  expect(ran.length).toBe(nodes.length);
  expect(ran[0]).toMatch(/^v24\./);
});
