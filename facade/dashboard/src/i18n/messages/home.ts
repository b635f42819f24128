import { defineMessages } from "../messages.ts";

/** The Home page's texts. */
export const homeMessages = defineMessages({
  es: {
    balances: "Saldos",
    pending: "Pendiente",
    available: "Disponible",
    inTransit: "En camino al banco",
    volume: "Volumen de los últimos 30 días",
    volumeTotal: (total: string, count: number) => `${total} en ${count} ${count === 1 ? "pago" : "pagos"}`,
    chartLabel: (currency: string) => `Gráfica del volumen diario en ${currency}`,
    chartAmount: "Monto",
    chartCount: "Pagos",
    chartTable: "Ver los datos de la gráfica",
    chartColumns: { date: "Día", amount: "Monto", count: "Pagos" },
    recent: "Pagos recientes",
    allPayments: "Ver todos los pagos",
    failing: (count: number) =>
      `${count} ${count === 1 ? "entrega de webhook está fallando" : "entregas de webhooks están fallando"}. Revise sus destinos de webhooks.`,
    failingNewest: (type: string, http: string) => `La más reciente: ${type}${http ? `, respuesta HTTP ${http}` : ", sin respuesta"}.`,
  },
  en: {
    balances: "Balances",
    pending: "Pending",
    available: "Available",
    inTransit: "On its way to the bank",
    volume: "Volume over the last 30 days",
    volumeTotal: (total: string, count: number) => `${total} in ${count} ${count === 1 ? "payment" : "payments"}`,
    chartLabel: (currency: string) => `Chart of daily volume in ${currency}`,
    chartAmount: "Amount",
    chartCount: "Payments",
    chartTable: "See the chart's data",
    chartColumns: { date: "Day", amount: "Amount", count: "Payments" },
    recent: "Recent payments",
    allPayments: "See all payments",
    failing: (count: number) => `${count} webhook ${count === 1 ? "delivery is" : "deliveries are"} failing. Check your webhook endpoints.`,
    failingNewest: (type: string, http: string) => `The newest: ${type}${http ? `, HTTP ${http}` : ", no response"}.`,
  },
});
