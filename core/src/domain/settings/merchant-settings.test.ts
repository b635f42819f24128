// Merchant settings against a real migrated database: what is checked, what is stored, and that a
// refused change leaves everything as it was.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../../test/support/database.ts";
import { db } from "../../db/orm.ts";
import { OPERATOR } from "../caller.ts";
import type { CoreDeps } from "../deps.ts";
import { DomainError } from "../errors.ts";
import { createMerchant } from "../merchants.ts";
import { inTransaction, withoutTransaction } from "../unit-of-work.ts";
import { getSettings, removeLogo, updateSettings, uploadLogo, type SettingsUpdate } from "./merchant-settings.ts";
import { makePng } from "./png-fixture.ts";

let database: MigratedDatabase | undefined;
let deps: CoreDeps;
let merchantId: string;

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 2, now: () => new Date("2026-11-25T12:00:00.000Z") });
  ({ deps } = database);
  ({ merchantId } = await inTransaction(deps, (tx) => createMerchant(deps, tx, OPERATOR, { name: "Comercial Tienda S.A.", currencies: ["GTQ"], methods: [] })));
});

afterAll(() => database?.close());

const read = () => withoutTransaction(deps, (tx) => getSettings(deps, tx, OPERATOR, { merchantId }));
const update = (input: Omit<SettingsUpdate, "merchantId">) => inTransaction(deps, (tx) => updateSettings(deps, tx, OPERATOR, { merchantId, ...input }));
const upload = (content_type: string, bytes: Buffer) =>
  inTransaction(deps, (tx) => uploadLogo(deps, tx, OPERATOR, { merchantId, content_type, data_base64: bytes.toString("base64") }));

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).code).toBe("validation_error");
  return (error as DomainError).message;
}

describe("merchant settings", () => {
  test("start from the merchant's name, the configured zone and Spanish", async () => {
    expect(await read()).toMatchObject({
      merchant_id: merchantId,
      legal_name: "Comercial Tienda S.A.",
      trade_name: "Comercial Tienda S.A.",
      brand_color: null,
      accent_color: null,
      logo: null,
      embed_origins: [],
      time_zone: deps.config.dashboardViews.timeZone,
      time_zone_is_default: true,
      default_language: null,
    });
  });

  test("change the trade name (the legal name stays), colours, origins, zone and language", async () => {
    const settings = await update({
      trade_name: "  Tienda  ",
      brand_color: "#1D4ED8",
      accent_color: "#ffd400",
      embed_origins: ["https://shop.example", "https://shop.example/"],
      time_zone: "America/El_Salvador",
      default_language: "en",
    });
    expect(settings).toMatchObject({
      legal_name: "Comercial Tienda S.A.",
      trade_name: "Tienda",
      brand_color: { value: "#1d4ed8", text_color: "#ffffff", contrast: "6.70" },
      accent_color: { value: "#ffd400", text_color: "#1b1f24" },
      embed_origins: ["https://shop.example"],
      time_zone: "America/El_Salvador",
      time_zone_is_default: false,
      default_language: "en",
    });
    expect(await read()).toEqual(settings);
  });

  test("refuse a colour failing contrast, naming the ratio, and change nothing", async () => {
    const before = await read();
    const message = await refusal(update({ trade_name: "Otro nombre", brand_color: "#808080" }));
    expect(message).toBe(
      "brand_color: #808080 contrasts only 4.19:1 with the dark (#1b1f24) text the pages put on it; at least 4.5:1 is needed (WCAG AA). Choose a darker or lighter shade.",
    );
    expect(await refusal(update({ accent_color: "#ff0000" }))).toContain("4.14:1");
    expect(await refusal(update({ accent_color: "blue" }))).toContain("#rrggbb");
    expect(await read()).toEqual(before);
  });

  test("refuse an unknown zone, language or origin, and change nothing", async () => {
    const before = await read();
    expect(await refusal(update({ time_zone: "Mars/Olympus" }))).toContain("IANA");
    expect(await refusal(update({ time_zone: "../../etc/passwd" }))).toContain("IANA");
    expect(await refusal(update({ default_language: "fr" }))).toContain("es or en");
    expect(await refusal(update({ embed_origins: ["http://shop.example"] }))).toContain("https origin");
    expect(await refusal(update({ trade_name: "   " }))).toContain("trade_name");
    expect(await read()).toEqual(before);
  });

  test("store a PNG as uploaded with its SHA-256 and dimensions", async () => {
    const png = makePng(64, 32);
    const settings = await upload("image/png", png);
    const sha256 = createHash("sha256").update(png).digest("hex");
    expect(settings.logo).toEqual({ url: `/assets/logos/${sha256}.png`, content_type: "image/png", sha256, bytes: png.length, width: 64, height: 32 });
    const row = await db(deps.orm.em.fork())
      .selectFrom("merchant_logos")
      .select(["content", "sha256"])
      .where("merchant_id", "=", merchantId)
      .executeTakeFirstOrThrow();
    expect(Buffer.compare(row.content, png)).toBe(0);
    expect(row.sha256).toBe(sha256);
  });

  test("store an SVG sanitised, hashed as stored", async () => {
    const settings = await upload(
      "image/svg+xml",
      Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script><rect width="4" height="4"/></svg>`),
    );
    const row = await db(deps.orm.em.fork())
      .selectFrom("merchant_logos")
      .select(["content", "sha256"])
      .where("merchant_id", "=", merchantId)
      .executeTakeFirstOrThrow();
    const stored = row.content.toString("utf8");
    expect(stored).not.toMatch(/script|onload/);
    expect(stored).toContain('<rect width="4" height="4"/>');
    expect(settings.logo?.sha256).toBe(createHash("sha256").update(row.content).digest("hex"));
    expect(settings.logo?.url.endsWith(".svg")).toBe(true);
  });

  test("refuse a file too large, of the wrong type or not what it claims, keeping the logo there was", async () => {
    const before = await read();
    const big = makePng(8, 8);
    const padded = Buffer.concat([big, Buffer.alloc(deps.config.logo.maxBytes - big.length + 1)]);
    expect(await refusal(upload("image/png", padded))).toContain("256 KB");
    expect(await refusal(upload("image/png", Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>")))).toContain("not a PNG");
    expect(await refusal(upload("image/gif", Buffer.from("GIF89a")))).toContain("image/png or image/svg+xml");
    expect(await refusal(upload("image/png", makePng(5000, 10)))).toContain("5000×10");
    expect(await refusal(upload("image/svg+xml", Buffer.from(`<!DOCTYPE svg [<!ENTITY a "b">]><svg/>`)))).toContain("DOCTYPE");
    expect(
      await refusal(inTransaction(deps, (tx) => uploadLogo(deps, tx, OPERATOR, { merchantId, content_type: "image/png", data_base64: "not base64!" }))),
    ).toContain("base64");
    expect(await read()).toEqual(before);
  });

  test("remove the logo", async () => {
    expect((await inTransaction(deps, (tx) => removeLogo(deps, tx, OPERATOR, { merchantId }))).logo).toBeNull();
    expect((await read()).logo).toBeNull();
  });
});
