import { Layout } from "./layout.tsx";
import type { Locale } from "./locale.ts";

/** A page that only says what happened: unknown payment, expired embed link, service down. */
export function MessagePage({ locale, title, message }: { locale: Locale; title: string; message: string }) {
  return (
    <Layout locale={locale} title={title}>
      <h1>{title}</h1>
      <p>{message}</p>
    </Layout>
  );
}
