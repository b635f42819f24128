// `paytami settings get|set` (issue 17 item 5, the operator's twin of the Settings page), run as a
// real CLI process against a real stack over the core's operator tRPC: the exact --json output, what
// it changes in PostgreSQL and on the facade (the logo served by its digest), and a colour failing
// contrast refused with the catalog error, exit 1 and nothing changed.
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { makePng } from "../core/src/domain/settings/png-fixture.ts";
import { databaseSnapshot } from "./support/db-snapshot.ts";
import { useStack } from "./support/expect.ts";
import type { Merchant } from "./support/stack.ts";
import { oneJson, runCli } from "./support/cli-run.ts";

const stack = useStack();
const dir = mkdtempSync(path.join(tmpdir(), "paytami-cli-settings-"));
let m: Merchant;

beforeAll(async () => {
  m = await stack().admin.createMerchant({ name: "Ferretería El Tornillo S.A." });
});

const paytami = (...args: string[]) => runCli(stack(), ...args);

const KEYS = [
  "merchant_id",
  "legal_name",
  "trade_name",
  "brand_color",
  "accent_color",
  "logo",
  "embed_origins",
  "time_zone",
  "time_zone_is_default",
  "default_language",
];

const row = async () =>
  (
    await stack().sql("select trade_name, brand_color, accent_color, embed_origins, time_zone, default_language from merchants where id = $1", [m.merchantId])
  )[0];

describe("paytami settings", () => {
  test("get --json is the merchant's settings, the defaults while nothing is chosen", async () => {
    const got = oneJson(await paytami("settings", "get", "--merchant", m.merchantId, "--json"));
    expect(Object.keys(got)).toEqual(KEYS);
    expect(got).toEqual({
      merchant_id: m.merchantId,
      legal_name: "Ferretería El Tornillo S.A.",
      trade_name: "Ferretería El Tornillo S.A.",
      brand_color: null,
      accent_color: null,
      logo: null,
      embed_origins: [],
      time_zone: got.time_zone,
      time_zone_is_default: true,
      default_language: null,
    });
    expect(typeof got.time_zone).toBe("string");
  });

  test("set changes every field given, uploads the logo (served by the facade under its digest) and prints the settings", async () => {
    const png = makePng(120, 40);
    const file = path.join(dir, "logo.png");
    writeFileSync(file, png);
    const sha = createHash("sha256").update(png).digest("hex");
    const set = oneJson(
      await paytami(
        "settings",
        "set",
        "--merchant",
        m.merchantId,
        "--trade-name",
        "El Tornillo",
        "--brand-color",
        "#1D4ED8",
        "--accent-color",
        "#ffd400",
        "--timezone",
        "America/El_Salvador",
        "--language",
        "en",
        "--embed-origin",
        "https://tienda.example",
        "--embed-origin",
        "https://shop.example:8443",
        "--logo",
        file,
        "--json",
      ),
    );
    expect(Object.keys(set)).toEqual(KEYS);
    expect(set).toEqual({
      merchant_id: m.merchantId,
      legal_name: "Ferretería El Tornillo S.A.",
      trade_name: "El Tornillo",
      brand_color: { value: "#1d4ed8", text_color: "#ffffff", contrast: expect.stringMatching(/^\d+\.\d\d$/) },
      accent_color: { value: "#ffd400", text_color: "#1b1f24", contrast: expect.stringMatching(/^\d+\.\d\d$/) },
      logo: { url: `/assets/logos/${sha}.png`, content_type: "image/png", sha256: sha, bytes: png.length, width: 120, height: 40 },
      embed_origins: ["https://tienda.example", "https://shop.example:8443"],
      time_zone: "America/El_Salvador",
      time_zone_is_default: false,
      default_language: "en",
    });
    expect(await row()).toEqual({
      trade_name: "El Tornillo",
      brand_color: "#1d4ed8",
      accent_color: "#ffd400",
      embed_origins: ["https://tienda.example", "https://shop.example:8443"],
      time_zone: "America/El_Salvador",
      default_language: "en",
    });
    const served = await fetch(`${stack().baseUrl}${set.logo.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
    // get reads back what set printed; one field alone changes only that field.
    expect(oneJson(await paytami("settings", "get", "--merchant", m.merchantId, "--json"))).toEqual(set);
    const renamed = oneJson(await paytami("settings", "set", "--merchant", m.merchantId, "--trade-name", "Tornillo GT", "--json"));
    expect(renamed).toEqual({ ...set, trade_name: "Tornillo GT" });
  });

  test("a colour failing contrast prints the catalog error, exits 1 and changes nothing (with --json and without)", async () => {
    const before = await databaseSnapshot(stack());
    const refused = oneJson(
      await paytami("settings", "set", "--merchant", m.merchantId, "--trade-name", "Otro Nombre", "--brand-color", "#808080", "--json"),
      1,
    );
    expect(refused).toEqual({
      error: {
        code: "validation_error",
        message:
          "brand_color: #808080 contrasts only 4.19:1 with the dark (#1b1f24) text the pages put on it; at least 4.5:1 is needed (WCAG AA). Choose a darker or lighter shade.",
      },
    });
    const text = await paytami("settings", "set", "--merchant", m.merchantId, "--accent-color", "#808080");
    expect({ code: text.code, stdout: text.stdout }).toEqual({ code: 1, stdout: "" });
    expect(text.stderr).toBe(
      "paytami: validation_error: accent_color: #808080 contrasts only 4.19:1 with the dark (#1b1f24) text the pages put on it; at least 4.5:1 is needed (WCAG AA). Choose a darker or lighter shade.\n",
    );
    expect(await databaseSnapshot(stack())).toEqual(before);
    expect((await row())!.trade_name).toBe("Tornillo GT");
  });

  test("a refused logo is the core's validation_error; the fields of the same command, sent first, stay saved (as documented)", async () => {
    const file = path.join(dir, "not-a.png");
    writeFileSync(file, "<svg xmlns='http://www.w3.org/2000/svg'/>");
    const before = (await stack().sql("select sha256 from merchant_logos where merchant_id = $1", [m.merchantId]))[0];
    const refused = oneJson(await paytami("settings", "set", "--merchant", m.merchantId, "--trade-name", "Tornillo Nuevo", "--logo", file, "--json"), 1);
    expect(refused.error).toEqual({
      code: "validation_error",
      message: "The logo is not a PNG file (its first bytes are not a PNG signature and IHDR).",
    });
    expect((await stack().sql("select sha256 from merchant_logos where merchant_id = $1", [m.merchantId]))[0]).toEqual(before);
    expect((await row())!.trade_name).toBe("Tornillo Nuevo");
    oneJson(await paytami("settings", "set", "--merchant", m.merchantId, "--trade-name", "Tornillo GT", "--json"));
  });

  test("usage mistakes are validation_error without a call; an unknown merchant is the core's validation_error", async () => {
    const before = await databaseSnapshot(stack());
    const nothing = oneJson(await paytami("settings", "set", "--merchant", m.merchantId, "--json"), 1);
    expect(nothing.error).toEqual({
      code: "validation_error",
      message: "Nothing to set: give at least one of --trade-name, --brand-color, --accent-color, --timezone, --language, --embed-origin, --logo.",
    });
    const gif = oneJson(await paytami("settings", "set", "--merchant", m.merchantId, "--logo", path.join(dir, "logo.gif"), "--json"), 1);
    expect(gif.error.code).toBe("validation_error");
    expect(gif.error.message).toContain("A logo is a .png or .svg file");
    const missing = oneJson(await paytami("settings", "set", "--merchant", m.merchantId, "--logo", path.join(dir, "none.svg"), "--json"), 1);
    expect(missing.error).toEqual({ code: "validation_error", message: `--logo: cannot read ${path.join(dir, "none.svg")} (ENOENT).` });
    const language = oneJson(await paytami("settings", "set", "--merchant", m.merchantId, "--language", "fr", "--json"), 1);
    expect(language.error.code).toBe("validation_error");
    const unknown = oneJson(await paytami("settings", "get", "--merchant", "mer_000000000000000000000000", "--json"), 1);
    expect(unknown.error).toEqual({ code: "validation_error", message: "merchant: no merchant mer_000000000000000000000000." });
    expect(await databaseSnapshot(stack())).toEqual(before);
  });

  test("get without --json prints the settings as text", async () => {
    const r = await paytami("settings", "get", "--merchant", m.merchantId);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    expect(r.stdout).toContain(`${m.merchantId}: Tornillo GT (legal name Ferretería El Tornillo S.A.)`);
    expect(r.stdout).toMatch(/^brand colour: #1d4ed8 \(text #ffffff, \d+\.\d\d:1\)$/m);
    expect(r.stdout).toContain("time zone: America/El_Salvador\n");
    expect(r.stdout).toContain("default language: en\n");
  });
});
