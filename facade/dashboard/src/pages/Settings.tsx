import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type ChangeEvent, type FormEvent } from "react";
import { HEX_COLOR, MIN_CONTRAST, shownRatio, textOn, LIGHT_TEXT } from "../../../../proto/contrast.ts";
import { SelectField, TextField } from "../components/Field.tsx";
import { Notice } from "../components/Notice.tsx";
import { Loading, Page } from "../components/Page.tsx";
import { errorText } from "../errors.ts";
import { useLang, useMessages } from "../i18n/i18n.tsx";
import { settingsMessages } from "../i18n/messages/settings.ts";
import { shellMessages } from "../i18n/messages/shell.ts";
import { useTRPC, type RouterOutputs } from "../trpc.ts";

type Settings = RouterOutputs["dashboard"]["settings"]["get"];

/** The merchant's settings (admins and owners): profile, branding with a live preview, logo, embed origins, zone and language. */
export default function SettingsPage() {
  const m = useMessages(settingsMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const trpc = useTRPC();
  const settings = useQuery(trpc.dashboard.settings.get.queryOptions(undefined));
  return (
    <Page title={m.title}>
      {settings.isPending ? (
        <Loading />
      ) : settings.isError ? (
        <Notice tone="danger">{errorText(settings.error, shell, lang)}</Notice>
      ) : (
        <>
          <SettingsForm settings={settings.data} />
          <LogoPanel settings={settings.data} />
        </>
      )}
    </Page>
  );
}

function useRefresh() {
  const trpc = useTRPC();
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: trpc.dashboard.settings.get.queryKey() });
}

/** What the pages will do with a typed colour: its text colour and contrast, or why it cannot be used. */
function ColorCheck({ value }: { value: string }) {
  const m = useMessages(settingsMessages);
  const color = value.trim().toLowerCase();
  if (!color) return null;
  if (!HEX_COLOR.test(color)) return <p className="field-hint">{m.notAColor}</p>;
  const on = textOn(color);
  const ratio = shownRatio(on.ratio);
  return (
    <p className={on.ratio < MIN_CONTRAST ? "field-error" : "field-hint"} data-contrast={ratio}>
      {on.ratio < MIN_CONTRAST ? m.contrastLow(ratio) : m.contrast(ratio, on.text === LIGHT_TEXT ? m.white : m.dark)}
    </p>
  );
}

function Preview({ name, brand, accent, logoUrl }: { name: string; brand: string; accent: string; logoUrl: string | undefined }) {
  const m = useMessages(settingsMessages);
  const valid = (color: string) => (HEX_COLOR.test(color.trim().toLowerCase()) ? color.trim().toLowerCase() : undefined);
  const b = valid(brand);
  const a = valid(accent);
  // Styles set through the DOM (React's style prop), which the app's CSP (style-src 'self') allows; only validated #rrggbb reach them.
  return (
    <figure className="panel settings-preview" aria-label={m.preview}>
      <figcaption>{m.preview}</figcaption>
      <div className="settings-preview-band" style={a ? { background: a, color: textOn(a).text } : undefined}>
        {logoUrl && <img src={logoUrl} alt="" className="settings-preview-logo" />}
        <span>{name}</span>
      </div>
      <span className="settings-preview-button" style={b ? { background: b, color: textOn(b).text } : undefined}>
        {m.previewButton}
      </span>
    </figure>
  );
}

function SettingsForm({ settings }: { settings: Settings }) {
  const m = useMessages(settingsMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const trpc = useTRPC();
  const refresh = useRefresh();
  const originsId = useId();
  const [tradeName, setTradeName] = useState(settings.trade_name);
  const [brand, setBrand] = useState(settings.brand_color?.value ?? "");
  const [accent, setAccent] = useState(settings.accent_color?.value ?? "");
  const [origins, setOrigins] = useState(settings.embed_origins.join("\n"));
  const [timeZone, setTimeZone] = useState(settings.time_zone_is_default ? "" : settings.time_zone);
  const [language, setLanguage] = useState<string>(settings.default_language ?? "");
  const client = useQueryClient();
  // The app's zone and default language come with `me`: read it again so they apply at once.
  const update = useMutation(
    trpc.dashboard.settings.update.mutationOptions({
      onSuccess: () => Promise.all([refresh(), client.invalidateQueries({ queryKey: trpc.dashboard.auth.me.queryKey() })]),
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({
      trade_name: tradeName,
      brand_color: brand.trim() ? brand.trim() : null,
      accent_color: accent.trim() ? accent.trim() : null,
      embed_origins: origins
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean),
      time_zone: timeZone.trim() ? timeZone.trim() : null,
      default_language: language || null,
    });
  };
  return (
    <form onSubmit={submit} noValidate data-settings-form="">
      {update.isSuccess && <Notice tone="success">{m.saved}</Notice>}
      {update.isError && <Notice tone="danger">{errorText(update.error, shell, lang)}</Notice>}
      <section className="panel" aria-labelledby="settings-profile">
        <h2 id="settings-profile">{m.profile}</h2>
        <TextField label={m.legalName} name="legal_name" readOnly value={settings.legal_name} hint={m.legalNameHint} />
        <TextField label={m.tradeName} name="trade_name" value={tradeName} hint={m.tradeNameHint} onChange={(e) => setTradeName(e.target.value)} />
      </section>
      <section className="panel" aria-labelledby="settings-branding">
        <h2 id="settings-branding">{m.branding}</h2>
        <TextField
          label={m.brandColor}
          name="brand_color"
          placeholder="#1d4ed8"
          spellCheck={false}
          value={brand}
          hint={m.brandColorHint}
          onChange={(e) => setBrand(e.target.value)}
        />
        <ColorCheck value={brand} />
        <TextField
          label={m.accentColor}
          name="accent_color"
          placeholder="#ffd400"
          spellCheck={false}
          value={accent}
          hint={m.accentColorHint}
          onChange={(e) => setAccent(e.target.value)}
        />
        <ColorCheck value={accent} />
        <Preview name={tradeName} brand={brand} accent={accent} logoUrl={settings.logo?.url} />
      </section>
      <section className="panel" aria-labelledby="settings-embed">
        <h2 id="settings-embed">{m.embedOrigins}</h2>
        <div className="field">
          <label htmlFor={originsId}>{m.embedOrigins}</label>
          <p className="field-hint" id={`${originsId}-hint`}>
            {m.embedOriginsHint}
          </p>
          <textarea
            id={originsId}
            name="embed_origins"
            rows={3}
            aria-describedby={`${originsId}-hint`}
            value={origins}
            onChange={(e) => setOrigins(e.target.value)}
          />
        </div>
      </section>
      <section className="panel" aria-labelledby="settings-regional">
        <h2 id="settings-regional">{m.regional}</h2>
        <TextField
          label={m.timeZone}
          name="time_zone"
          placeholder={settings.time_zone}
          value={timeZone}
          hint={m.timeZoneHint(settings.time_zone_is_default ? settings.time_zone : "America/Guatemala")}
          onChange={(e) => setTimeZone(e.target.value)}
        />
        <SelectField
          label={m.defaultLanguage}
          name="default_language"
          value={language}
          onChange={(e) => setLanguage(e.target.value)}
          options={[
            { value: "", label: m.browserLanguage },
            { value: "es", label: shell.languages.es },
            { value: "en", label: shell.languages.en },
          ]}
        />
      </section>
      <button type="submit" className="button button-primary" disabled={update.isPending}>
        {m.save}
      </button>
    </form>
  );
}

function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === "string" ? reader.result.replace(/^data:[^,]*,/, "") : "");
    reader.onerror = () => reject(reader.error ?? new Error("unreadable file"));
    reader.readAsDataURL(file);
  });
}

function LogoPanel({ settings }: { settings: Settings }) {
  const m = useMessages(settingsMessages);
  const shell = useMessages(shellMessages);
  const { lang } = useLang();
  const trpc = useTRPC();
  const refresh = useRefresh();
  const fileId = useId();
  const [notice, setNotice] = useState<string>();
  const upload = useMutation(trpc.dashboard.settings.uploadLogo.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.dashboard.settings.removeLogo.mutationOptions({ onSuccess: refresh }));
  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    const content_type = file.type === "image/svg+xml" || file.name.toLowerCase().endsWith(".svg") ? "image/svg+xml" : "image/png";
    setNotice(undefined);
    upload.mutate({ content_type, data_base64: await readBase64(file) }, { onSuccess: () => setNotice(m.logoUploaded) });
    event.target.value = "";
  };
  const failure = upload.error ?? remove.error;
  return (
    <section className="panel" aria-labelledby="settings-logo">
      <h2 id="settings-logo">{m.logo}</h2>
      {notice && <Notice tone="success">{notice}</Notice>}
      {failure && <Notice tone="danger">{errorText(failure, shell, lang)}</Notice>}
      {settings.logo ? (
        <p>
          <img src={settings.logo.url} alt={m.currentLogo} className="settings-logo" data-logo-url={settings.logo.url} />
        </p>
      ) : (
        <p>{m.noLogo}</p>
      )}
      <div className="field">
        <label htmlFor={fileId}>{m.logoFile}</label>
        <p className="field-hint" id={`${fileId}-hint`}>
          {m.logoHint}
        </p>
        <input
          id={fileId}
          name="logo"
          type="file"
          accept="image/png,image/svg+xml"
          aria-describedby={`${fileId}-hint`}
          disabled={upload.isPending}
          onChange={(event) => void choose(event)}
        />
      </div>
      {settings.logo && (
        <button
          type="button"
          className="button button-danger"
          disabled={remove.isPending}
          onClick={() => remove.mutate(undefined, { onSuccess: () => setNotice(m.logoRemoved) })}
        >
          {m.removeLogo}
        </button>
      )}
    </section>
  );
}
