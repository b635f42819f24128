// `paytami settings get|set --merchant M`: the operator's twin of the dashboard's Settings page, over
// the core's operator tRPC (settings.get, settings.update, settings.uploadLogo): the same operations,
// so the same rules and catalog errors (a colour failing contrast is refused with its ratio).
import { readFile } from "node:fs/promises";
import { InvalidArgumentError, Option, type Command } from "commander";
import type { MerchantSettings } from "../domain/settings/merchant-settings.ts";
import { DESCRIPTIONS, nonBlank, type CommandContext } from "./command.ts";

const LOGO_TYPES: Record<string, string> = { png: "image/png", svg: "image/svg+xml" };

/** The logo's content type, from the file's extension (the core checks the bytes). */
function logoFile(value: string): { file: string; contentType: string } {
  const contentType = LOGO_TYPES[value.slice(value.lastIndexOf(".") + 1).toLowerCase()];
  if (!contentType) throw new InvalidArgumentError(`A logo is a .png or .svg file (got "${value}").`);
  return { file: value, contentType };
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** What the command prints: the settings as the procedures answer them, without the audit log's `id` (the merchant's again). */
function shown(settings: MerchantSettings) {
  const { id: _id, ...json } = settings;
  return json;
}

function text(s: MerchantSettings): string {
  const color = (c: MerchantSettings["brand_color"]) => (c ? `${c.value} (text ${c.text_color}, ${c.contrast}:1)` : "none (the pages' default)");
  return [
    `${s.merchant_id}: ${s.trade_name} (legal name ${s.legal_name})`,
    `brand colour: ${color(s.brand_color)}`,
    `accent colour: ${color(s.accent_color)}`,
    `logo: ${s.logo ? `${s.logo.url} (${s.logo.content_type}, ${s.logo.bytes} bytes)` : "none"}`,
    `embed origins: ${s.embed_origins.length ? s.embed_origins.join(", ") : "none"}`,
    `time zone: ${s.time_zone}${s.time_zone_is_default ? " (the default)" : ""}`,
    `default language: ${s.default_language ?? "none (each browser's)"}`,
  ].join("\n");
}

interface SetOptions {
  merchant: string;
  tradeName?: string;
  brandColor?: string;
  accentColor?: string;
  timezone?: string;
  language?: string;
  embedOrigin?: string[];
  logo?: { file: string; contentType: string };
}

export function addSettingsCommands(program: Command, context: CommandContext): void {
  const settings = program.command("settings").description(DESCRIPTIONS.settings);

  settings
    .command("get")
    .description("a merchant's settings: trade name, brand and accent colours (with their text colour and contrast), logo, embed origins, time zone, language")
    .requiredOption("--merchant <merchant-id>", "the merchant (mer_…)")
    .action(async (options: { merchant: string }) => {
      const { operatorTrpc, called } = await import("./operator-trpc.ts");
      const found = await called(operatorTrpc().settings.get.query({ merchant_id: options.merchant }));
      context.print({ json: shown(found), text: text(found) });
    });

  const set = settings
    .command("set")
    .description(
      "change what is given of a merchant's settings and print them all; every field is checked before any is saved " +
        "(the logo, a separate call, is sent after them: refused, it leaves the other fields saved)",
    )
    .requiredOption("--merchant <merchant-id>", "the merchant (mer_…)")
    .option("--trade-name <name>", "the name customers see on the hosted pages (1–100 characters)", nonBlank)
    .option("--brand-color <#rrggbb>", "the pay button's colour; refused below 4.5:1 contrast with its text")
    .option("--accent-color <#rrggbb>", "the header band's colour; refused below 4.5:1 contrast with its text")
    .option("--timezone <iana-name>", "the dashboard's time zone, e.g. America/Guatemala")
    .addOption(new Option("--language <language>", "the dashboard's default language").choices(["es", "en"]))
    .option("--embed-origin <https-origin>", "an origin allowed to frame the embedded checkout (repeat it for each; replaces the list)", collect)
    .option("--logo <file>", "a .png or .svg file of at most 256 KB (an SVG is stored sanitised)", logoFile);
  // Reported like commander's own usage errors (validation_error, and the message on stderr without --json).
  set.action(async (options: SetOptions) => {
    const fields = {
      trade_name: options.tradeName,
      brand_color: options.brandColor,
      accent_color: options.accentColor,
      time_zone: options.timezone,
      default_language: options.language,
      embed_origins: options.embedOrigin,
    };
    const given = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
    if (Object.keys(given).length === 0 && !options.logo) {
      set.error("Nothing to set: give at least one of --trade-name, --brand-color, --accent-color, --timezone, --language, --embed-origin, --logo.");
    }
    // Read before any call, so a missing file changes nothing.
    const logo = options.logo && { content_type: options.logo.contentType, data_base64: (await readLogo(set, options.logo.file)).toString("base64") };
    const { operatorTrpc, called } = await import("./operator-trpc.ts");
    const trpc = operatorTrpc();
    const acting = { merchant_id: options.merchant };
    let saved = Object.keys(given).length > 0 ? await called(trpc.settings.update.mutate({ ...acting, ...given })) : undefined;
    if (logo) saved = await called(trpc.settings.uploadLogo.mutate({ ...acting, ...logo }));
    context.print({ json: shown(saved!), text: text(saved!) });
  });
}

async function readLogo(command: Command, file: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (error) {
    return command.error(`--logo: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)}).`);
  }
}
