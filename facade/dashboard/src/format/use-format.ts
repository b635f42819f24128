import { useLang } from "../i18n/i18n.tsx";
import { useSession } from "../session.tsx";
import { formatDecimal, formatMinor } from "./money.ts";
import { formatDate, formatDateTime } from "./time.ts";

/** The formatters a session page needs, bound to the language and the merchant's time zone. */
export function useFormat() {
  const { lang } = useLang();
  const { timeZone } = useSession();
  return {
    /** Minor units (integer string, bigint or safe integer) → "Q 1,500.00". */
    money: formatMinor,
    /** A decimal string in major units → "Q 1,500.00". */
    decimal: formatDecimal,
    dateTime: (iso: string) => formatDateTime(iso, lang, timeZone),
    date: (iso: string) => formatDate(iso, lang, timeZone),
  };
}
