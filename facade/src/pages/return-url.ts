/** Adds payment_id to a merchant return URL, keeping its own query. */
export function returnUrl(base: string, paymentId: string): string {
  const url = new URL(base);
  url.searchParams.set("payment_id", paymentId);
  return url.toString();
}
