import { Migration } from '@mikro-orm/migrations';

export class Migration20261125155154_payments_status_check extends Migration {

  override name = 'Migration20261125155154_payments_status_check';

  override up(): void | Promise<void> {
    this.addSql(`alter table "payments" add constraint "payments_status_check" check ("status" in ('created', 'processing', 'authorized', 'captured', 'pending_settlement', 'settled_to_paytami', 'available_to_merchant', 'partially_refunded', 'refunded', 'chargeback', 'failed', 'canceled', 'expired'));`);
    this.addSql(`alter table "payments" add constraint "payments_status_before_chargeback_check" check ("status_before_chargeback" in ('created', 'processing', 'authorized', 'captured', 'pending_settlement', 'settled_to_paytami', 'available_to_merchant', 'partially_refunded', 'refunded', 'chargeback', 'failed', 'canceled', 'expired'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "payments" drop constraint "payments_status_check";`);
    this.addSql(`alter table "payments" drop constraint "payments_status_before_chargeback_check";`);
  }

}
