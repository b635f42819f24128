import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { REPO_ROOT, SERVICE_V8_FLAGS, serviceCommand, serviceV8Flags, type ServiceName } from "./services.ts";

const SERVICES: ServiceName[] = ["core", "facade", "dispatcher"];

describe("the services' V8 flags", () => {
  test.each(SERVICES)("%s: package.json's script launches with the same flags as the dev stack, tests and bench", (name) => {
    const scripts = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
    expect(scripts[name]).toContain(`exec node ${SERVICE_V8_FLAGS[name].join(" ")} --enable-source-maps dist/${name}/src/main.js`);
  });

  test("<NAME>_V8_FLAGS replaces a service's defaults, and only that service's", () => {
    const env = { FACADE_V8_FLAGS: "  --max-semi-space-size=16   --max-old-space-size=96 " };
    expect(serviceV8Flags("facade", env)).toEqual(["--max-semi-space-size=16", "--max-old-space-size=96"]);
    expect(serviceV8Flags("core", env)).toEqual(SERVICE_V8_FLAGS.core);
    expect(serviceV8Flags("facade", { FACADE_V8_FLAGS: " " })).toEqual(SERVICE_V8_FLAGS.facade);
  });

  test("the launch command puts the flags before the entry point", () => {
    const { args } = serviceCommand("core");
    expect(args.slice(0, -2)).toEqual(serviceV8Flags("core"));
    expect(args[args.length - 1]).toBe(join(REPO_ROOT, "dist", "core", "src", "main.js"));
  });
});
