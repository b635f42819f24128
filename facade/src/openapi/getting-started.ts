// The document's info.description (Markdown, rendered by /docs): the four steps of an integration,
// in English and Spanish. Kept short: the operations below it say the rest.

const VERIFY = `\`\`\`js
import { createHmac, timingSafeEqual } from "node:crypto";

// rawBody: the request body bytes, before any JSON parsing.
function verify(rawBody, header, secret, toleranceSeconds = 300) {
  const parts = header.split(",").map((p) => p.split("="));
  const t = Number(parts.find(([k]) => k === "t")?.[1]);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceSeconds) return false;
  const expected = createHmac("sha256", secret).update(\`\${t}.\`).update(rawBody).digest();
  return parts.some(([k, v]) => k === "v1" && v.length === 64 && timingSafeEqual(Buffer.from(v, "hex"), expected));
}
\`\`\``;

const CREATE = `\`\`\`sh
curl -X POST "$PAYTAMI_URL/v1/payments" \\
  -H "Authorization: Bearer $PAYTAMI_KEY" \\
  -H "Idempotency-Key: $(uuidgen)" \\
  -H "Content-Type: application/json" \\
  -d '{"amount":"15000","currency":"GTQ","method_type":"card","success_url":"https://shop.example/ok","cancel_url":"https://shop.example/cancel"}'
\`\`\``;

/** A code block inside a list item: indented to the item's text, so the numbering goes on after it. */
const inItem = (block: string) => block.replace(/^/gm, "   ");

export const GETTING_STARTED = `Accept card and bank-transfer payments in GTQ and USD. / Cobre con tarjeta y transferencia bancaria en GTQ y USD.

Amounts are strings holding an integer in the minor unit (\`"15000"\` is Q 150.00). Every error is \`{"error":{"code","message"}}\` with a code of the closed catalog; program against \`error.code\`.

# Getting started

1. **Get a key.** Your test key \`sk_test_…\` comes with your merchant account (\`npx paytami keys create --merchant mer_… --mode test\` makes another). Send it as \`Authorization: Bearer sk_test_…\`; test keys never move real money.
2. **Create a payment** with a fresh \`Idempotency-Key\` per charge (reuse it only to retry the same request: a retry never charges twice):

${inItem(CREATE)}

   The answer (201) is the Payment; keep its \`id\`.
3. **Redirect** the customer's browser to the payment's \`checkout_url\`. After paying (or canceling) they come back to your \`success_url\` (or \`cancel_url\`). Do not trust the return alone: read \`GET /v1/payments/{id}\` or wait for the webhook.
4. **Verify webhooks.** Each event arrives as a POST with \`Service-Signature: t=<unix>,v1=<hex>\`, the HMAC-SHA256 of \`"<t>.<raw body>"\` keyed with your endpoint's secret \`whsec_…\`. Accept it when any \`v1=\` matches (two during a secret rotation) and \`t\` is within 300 s; deduplicate by the event \`id\`:

${inItem(VERIFY)}

<div lang="es">

# Primeros pasos

1. **Obtenga una llave.** Su llave de prueba \`sk_test_…\` viene con su cuenta de comercio (\`npx paytami keys create --merchant mer_… --mode test\` crea otra). Envíela como \`Authorization: Bearer sk_test_…\`; las llaves de prueba nunca mueven dinero real.
2. **Cree un pago** con un \`Idempotency-Key\` nuevo por cobro (reutilícelo solo para reintentar la misma solicitud: un reintento nunca cobra dos veces):

${inItem(CREATE)}

   La respuesta (201) es el pago; guarde su \`id\`.
3. **Redirija** el navegador del cliente al \`checkout_url\` del pago. Después de pagar (o cancelar) vuelve a su \`success_url\` (o \`cancel_url\`). No confíe solo en ese regreso: consulte \`GET /v1/payments/{id}\` o espere el webhook.
4. **Verifique los webhooks.** Cada evento llega como un POST con \`Service-Signature: t=<unix>,v1=<hex>\`, el HMAC-SHA256 de \`"<t>.<cuerpo crudo>"\` con el secreto \`whsec_…\` de su endpoint como llave. Acéptelo si algún \`v1=\` coincide (hay dos mientras rota el secreto) y \`t\` está a menos de 300 s; descarte duplicados por el \`id\` del evento:

${inItem(VERIFY)}

</div>
`;
