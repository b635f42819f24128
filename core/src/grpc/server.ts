import { Server } from "@grpc/grpc-js";
import { HealthImplementation } from "grpc-health-check";
import { serverCredentials } from "../../../proto/core-tls.ts";
import { AdminServiceService } from "../../../proto/gen/paytami/v1/admin.ts";
import { CheckoutServiceService } from "../../../proto/gen/paytami/v1/checkout.ts";
import { DeliveryServiceService } from "../../../proto/gen/paytami/v1/delivery.ts";
import { LedgerServiceService } from "../../../proto/gen/paytami/v1/ledger.ts";
import { LinkServiceService } from "../../../proto/gen/paytami/v1/link.ts";
import { PaymentServiceService } from "../../../proto/gen/paytami/v1/payment.ts";
import { PayoutServiceService } from "../../../proto/gen/paytami/v1/payout.ts";
import { RefundServiceService } from "../../../proto/gen/paytami/v1/refund.ts";
import { WebhookServiceService } from "../../../proto/gen/paytami/v1/webhook.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { adminService } from "./admin-service.ts";
import { checkoutService } from "./checkout-service.ts";
import { deliveryService } from "./delivery-service.ts";
import { ledgerService } from "./ledger-service.ts";
import { linkService } from "./link-service.ts";
import { paymentService } from "./payment-service.ts";
import { payoutService } from "./payout-service.ts";
import { refundService } from "./refund-service.ts";
import { webhookService } from "./webhook-service.ts";
import { addReflection } from "./reflection.ts";
import { serviceCheck } from "../domain/service-credentials.ts";

export interface GrpcServer {
  server: Server;
  health: HealthImplementation;
  port: number;
}

const SERVICES = [
  "paytami.v1.PaymentService",
  "paytami.v1.CheckoutService",
  "paytami.v1.AdminService",
  "paytami.v1.LinkService",
  "paytami.v1.WebhookService",
  "paytami.v1.DeliveryService",
  "paytami.v1.PayoutService",
  "paytami.v1.RefundService",
  "paytami.v1.LedgerService",
];

export async function startGrpcServer(deps: CoreDeps): Promise<GrpcServer> {
  // Channelz off, as on the clients (proto/core-client.ts): per-call bookkeeping nobody reads.
  const server = new Server({ "grpc.max_receive_message_length": 1 << 20, "grpc.enable_channelz": 0 });
  server.addService(PaymentServiceService, paymentService(deps));
  server.addService(CheckoutServiceService, checkoutService(deps));
  server.addService(AdminServiceService, adminService(deps));
  server.addService(WebhookServiceService, webhookService(deps));
  server.addService(DeliveryServiceService, deliveryService(deps));
  server.addService(LinkServiceService, linkService(deps));
  server.addService(PayoutServiceService, payoutService(deps));
  server.addService(RefundServiceService, refundService(deps));
  server.addService(LedgerServiceService, ledgerService(deps));
  // Standard grpc.health.v1.Health: "" is the whole server.
  const health = new HealthImplementation(Object.fromEntries(["", ...SERVICES].map((name) => [name, "SERVING"])));
  health.addToServer(server);
  addReflection(server, serviceCheck(deps.config.serviceTokens));
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(deps.config.grpcAddr, serverCredentials(deps.config.tls), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return { server, health, port };
}

/** Stops taking calls and lets in-flight ones finish, up to `graceMs`. */
export async function drainGrpcServer({ server, health }: GrpcServer, graceMs: number): Promise<void> {
  for (const name of ["", ...SERVICES]) health.setStatus(name, "NOT_SERVING");
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      server.forceShutdown();
      resolve();
    }, graceMs);
    server.tryShutdown(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
