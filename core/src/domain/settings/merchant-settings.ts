import { createHash } from "node:crypto";
import { z } from "zod";
import { db } from "../../db/orm.ts";
import type { OperatorCaller, SessionCaller } from "../caller.ts";
import type { CoreDeps } from "../deps.ts";
import { fail } from "../errors.ts";
import { MAX_MERCHANT_ORIGINS, readOrigin } from "../merchant-origins.ts";
import { parseOrFail } from "../payment-input.ts";
import { withoutEvents, type Changes, type Tx } from "../unit-of-work.ts";
import { HEX_COLOR, MIN_CONTRAST, shownRatio, textOn } from "../../../../proto/contrast.ts";
import { pngSize } from "./png.ts";
import { sanitizeSvg } from "./svg-sanitize.ts";

// A merchant's settings (issue 17 item 5): the trade name its customers see (the legal name stays
// the operator's), the colours and logo of its hosted payment and link pages, the origins allowed
// to frame its embedded checkout, and the time zone and language its dashboard starts in. An
// operator names the merchant; a session (admin and up) changes its own.

export const LANGUAGES = ["es", "en"] as const;
export type Language = (typeof LANGUAGES)[number];

export interface ColorView {
  value: string;
  /** The text the pages write on it: white or their dark #1b1f24, whichever contrasts more. */
  text_color: string;
  /** That contrast, e.g. "7.12" (WCAG, rounded down). */
  contrast: string;
}

export interface LogoView {
  url: string;
  content_type: string;
  sha256: string;
  bytes: number;
  width: number | null;
  height: number | null;
}

export interface MerchantSettings {
  /** The merchant's id (what the audit log records a change as made on). */
  id: string;
  merchant_id: string;
  legal_name: string;
  trade_name: string;
  brand_color: ColorView | null;
  accent_color: ColorView | null;
  logo: LogoView | null;
  embed_origins: string[];
  /** The merchant's own zone, or DASHBOARD_TIME_ZONE while it has none (`time_zone_is_default`). */
  time_zone: string;
  time_zone_is_default: boolean;
  /** null: none chosen (the dashboard follows each browser's language). */
  default_language: Language | null;
}

type Caller = OperatorCaller | SessionCaller;

function merchantOf(caller: Caller, named: string | undefined): string {
  return caller.kind === "merchant" ? caller.merchantId : (named ?? "");
}

/** The served path of a logo: its digest names it, so it is cached for good and changes with it. */
export function logoPath(sha256: string, contentType: string): string {
  return `/assets/logos/${sha256}.${contentType === "image/png" ? "png" : "svg"}`;
}

function colorView(value: string | null): ColorView | null {
  if (value === null) return null;
  const on = textOn(value);
  return { value, text_color: on.text, contrast: shownRatio(on.ratio) };
}

async function readSettings(deps: CoreDeps, tx: Tx, merchantId: string): Promise<MerchantSettings> {
  const merchant = await db(tx)
    .selectFrom("merchants")
    .select(["id", "name", "trade_name", "brand_color", "accent_color", "embed_origins", "time_zone", "default_language"])
    .where("id", "=", merchantId)
    .executeTakeFirst();
  if (!merchant) return fail("validation_error", `merchant: no merchant ${merchantId.slice(0, 60)}.`);
  const logo = await db(tx)
    .selectFrom("merchant_logos")
    .select(["content_type", "sha256", "width", "height", (eb) => eb.fn<number>("octet_length", ["content"]).as("bytes")])
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
  return {
    id: merchant.id,
    merchant_id: merchant.id,
    legal_name: merchant.name,
    trade_name: merchant.trade_name,
    brand_color: colorView(merchant.brand_color),
    accent_color: colorView(merchant.accent_color),
    logo: logo
      ? {
          url: logoPath(logo.sha256, logo.content_type),
          content_type: logo.content_type,
          sha256: logo.sha256,
          bytes: Number(logo.bytes),
          width: logo.width,
          height: logo.height,
        }
      : null,
    embed_origins: merchant.embed_origins,
    time_zone: merchant.time_zone ?? deps.config.dashboardViews.timeZone,
    time_zone_is_default: merchant.time_zone === null,
    default_language: merchant.default_language as Language | null,
  };
}

export async function getSettings(deps: CoreDeps, tx: Tx, caller: Caller, input: { merchantId?: string | undefined }): Promise<MerchantSettings> {
  return readSettings(deps, tx, merchantOf(caller, input.merchantId));
}

/** A #rrggbb (any case) the pages can write readable text on, lower-cased; refused with the ratio otherwise. */
export function readBrandColor(field: string, text: string): string {
  const value = text.trim().toLowerCase();
  if (!HEX_COLOR.test(value)) fail("validation_error", `${field}: must be a colour written #rrggbb, such as #1d4ed8.`);
  const on = textOn(value);
  if (on.ratio < MIN_CONTRAST) {
    const which = on.text === "#ffffff" ? "white" : "dark (#1b1f24)";
    fail(
      "validation_error",
      `${field}: ${value} contrasts only ${shownRatio(on.ratio)}:1 with the ${which} text the pages put on it; at least ${MIN_CONTRAST}:1 is needed (WCAG AA). Choose a darker or lighter shade.`,
    );
  }
  return value;
}

/** IANA names only, in the spelling Intl (and PostgreSQL) resolve them to. */
export function readTimeZone(text: string): string {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/.test(text) || text.length > 64)
    fail("validation_error", `time_zone: "${text.slice(0, 64)}" is not an IANA time zone such as America/Guatemala.`);
  try {
    return new Intl.DateTimeFormat("en", { timeZone: text }).resolvedOptions().timeZone;
  } catch {
    return fail("validation_error", `time_zone: "${text}" is not an IANA time zone such as America/Guatemala.`);
  }
}

const updateSchema = z.strictObject({
  trade_name: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(100, "must be at most 100 characters")
    .regex(/^[^\p{Cc}]*$/u, "must not contain control characters")
    .optional(),
  brand_color: z.string().max(20).nullable().optional(),
  accent_color: z.string().max(20).nullable().optional(),
  embed_origins: z.array(z.string().max(300)).max(MAX_MERCHANT_ORIGINS, `must list at most ${MAX_MERCHANT_ORIGINS} origins`).optional(),
  time_zone: z.string().max(64).nullable().optional(),
  default_language: z.enum(LANGUAGES, { error: "must be es or en" }).nullable().optional(),
});

export interface SettingsUpdate {
  merchantId?: string | undefined;
  trade_name?: string | undefined;
  brand_color?: string | null | undefined;
  accent_color?: string | null | undefined;
  embed_origins?: string[] | undefined;
  time_zone?: string | null | undefined;
  default_language?: string | null | undefined;
}

/** Changes what is given (null clears a colour or the time zone); every field is checked before anything is written. */
export async function updateSettings(deps: CoreDeps, tx: Tx, caller: Caller, command: SettingsUpdate): Promise<Changes<MerchantSettings>> {
  const { merchantId: named, ...fields } = command;
  const input = parseOrFail(updateSchema, fields);
  const merchantId = merchantOf(caller, named);
  const set: {
    trade_name?: string;
    brand_color?: string | null;
    accent_color?: string | null;
    embed_origins?: string[];
    time_zone?: string | null;
    default_language?: string | null;
  } = {};
  if (input.trade_name !== undefined) set.trade_name = input.trade_name;
  if (input.brand_color !== undefined) set.brand_color = input.brand_color === null ? null : readBrandColor("brand_color", input.brand_color);
  if (input.accent_color !== undefined) set.accent_color = input.accent_color === null ? null : readBrandColor("accent_color", input.accent_color);
  if (input.embed_origins !== undefined) set.embed_origins = [...new Set(input.embed_origins.map((text) => readOrigin(text, false)))];
  if (input.time_zone !== undefined) set.time_zone = input.time_zone === null ? null : readTimeZone(input.time_zone);
  if (input.default_language !== undefined) set.default_language = input.default_language;
  const found = await db(tx).selectFrom("merchants").select("id").where("id", "=", merchantId).forUpdate().executeTakeFirst();
  if (!found) fail("validation_error", `merchant: no merchant ${merchantId.slice(0, 60)}.`);
  if (Object.keys(set).length > 0) await db(tx).updateTable("merchants").set(set).where("id", "=", merchantId).execute();
  return withoutEvents(await readSettings(deps, tx, merchantId));
}

export interface LogoUpload {
  merchantId?: string | undefined;
  content_type: string;
  /** The file, base64 (the dashboard sends it inside JSON). */
  data_base64: string;
}

/** The bytes to store and what is known of them, or a validation_error saying what is wrong with the file. */
export function checkLogo(deps: CoreDeps, contentType: string, bytes: Buffer): { content: Buffer; width: number | null; height: number | null } {
  const policy = deps.config.logo;
  if (!(policy.types as readonly string[]).includes(contentType)) fail("validation_error", `content_type: a logo must be ${policy.types.join(" or ")}.`);
  if (bytes.length === 0) fail("validation_error", "The logo file is empty.");
  if (bytes.length > policy.maxBytes)
    fail("validation_error", `The logo is ${Math.ceil(bytes.length / 1024)} KB; at most ${policy.maxBytes / 1024} KB is accepted.`);
  if (contentType === "image/png") {
    const size = pngSize(bytes);
    if (!size) return fail("validation_error", "The logo is not a PNG file (its first bytes are not a PNG signature and IHDR).");
    if (size.width > policy.maxPixels || size.height > policy.maxPixels) {
      fail("validation_error", `The logo is ${size.width}×${size.height} pixels; at most ${policy.maxPixels} a side is accepted.`);
    }
    return { content: bytes, ...size };
  }
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  if (text.includes("\uFFFD")) fail("validation_error", "The SVG logo is not UTF-8 text.");
  return { content: Buffer.from(sanitizeSvg(text), "utf8"), width: null, height: null };
}

/** Replaces the merchant's logo (a PNG as uploaded, an SVG as sanitised). */
export async function uploadLogo(deps: CoreDeps, tx: Tx, caller: Caller, command: LogoUpload): Promise<Changes<MerchantSettings>> {
  const merchantId = merchantOf(caller, command.merchantId);
  // Base64 of the largest logo allowed is 4/3 its size; anything longer is refused before decoding.
  if (command.data_base64.length > Math.ceil(deps.config.logo.maxBytes / 3) * 4 + 4) {
    fail("validation_error", `The logo is larger than ${deps.config.logo.maxBytes / 1024} KB.`);
  }
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(command.data_base64)) fail("validation_error", "data_base64: must be the file in base64.");
  const logo = checkLogo(deps, command.content_type, Buffer.from(command.data_base64, "base64"));
  const found = await db(tx).selectFrom("merchants").select("id").where("id", "=", merchantId).forUpdate().executeTakeFirst();
  if (!found) fail("validation_error", `merchant: no merchant ${merchantId.slice(0, 60)}.`);
  const row = {
    content_type: command.content_type,
    content: logo.content,
    sha256: createHash("sha256").update(logo.content).digest("hex"),
    width: logo.width,
    height: logo.height,
    updated_at: deps.now(),
  };
  await db(tx)
    .insertInto("merchant_logos")
    .values({ merchant_id: merchantId, ...row })
    .onConflict((oc) => oc.column("merchant_id").doUpdateSet(row))
    .execute();
  return withoutEvents(await readSettings(deps, tx, merchantId));
}

export async function removeLogo(deps: CoreDeps, tx: Tx, caller: Caller, input: { merchantId?: string | undefined }): Promise<Changes<MerchantSettings>> {
  const merchantId = merchantOf(caller, input.merchantId);
  await db(tx).deleteFrom("merchant_logos").where("merchant_id", "=", merchantId).execute();
  return withoutEvents(await readSettings(deps, tx, merchantId));
}
