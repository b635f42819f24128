import { useLang, useMessages } from "../i18n/i18n.tsx";
import { shellMessages } from "../i18n/messages/shell.ts";

/** Switches to the other language; remembered in this browser. Written in the language it switches to. */
export function LanguageSwitch() {
  const { lang, setLang } = useLang();
  const m = useMessages(shellMessages);
  const other = lang === "es" ? "en" : "es";
  return (
    <button
      type="button"
      className="button button-secondary"
      lang={other}
      onClick={() => setLang(other)}
      aria-label={`${m.languageLabel}: ${m.languages[other]}`}
    >
      {m.languages[other]}
    </button>
  );
}
