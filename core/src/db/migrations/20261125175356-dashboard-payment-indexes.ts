import { Migration } from '@mikro-orm/migrations';

export class Migration20261125175356_dashboard_payment_indexes extends Migration {

  override name = 'Migration20261125175356_dashboard_payment_indexes';

  override up(): void | Promise<void> {
    this.addSql(`create index "outbox_events_payment_idx" on "outbox_events" ((coalesce(envelope -> 'data' ->> 'payment_id', envelope -> 'data' ->> 'id')));`);

    this.addSql(`create index "payments_customer_email_idx" on "payments" ("merchant_id", "mode", lower("customer_email") text_pattern_ops, "created_at" desc, "seq" desc) where "customer_email" is not null;`);
    this.addSql(`create index "payments_link_idx" on "payments" ("link_id", "created_at" DESC, "seq" DESC) where link_id is not null;`);

    this.addSql(`create index "webhook_deliveries_failing_idx" on "webhook_deliveries" ("merchant_id", "mode", "last_attempt_at" DESC) where status = 'failed' or (status = 'pending' and attempt_count > 0);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "outbox_events_payment_idx";`);

    this.addSql(`drop index "payments_customer_email_idx";`);
    this.addSql(`drop index "payments_link_idx";`);

    this.addSql(`drop index "webhook_deliveries_failing_idx";`);
  }

}
