import { Migration } from '@mikro-orm/migrations';

export class Migration20261122031014_drop_refunded_amount extends Migration {

  override name = 'Migration20261122031014_drop_refunded_amount';

  // Refunded amounts will be derived from the ledger; derived state is not stored.
  override up(): void | Promise<void> {
    this.addSql(`alter table "payments" drop constraint "payments_check";`);
    this.addSql(`alter table "payments" drop column "refunded_amount";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "payments" add "refunded_amount" bigint not null default 0;`);
    this.addSql(`alter table "payments" add constraint "payments_check" check (refunded_amount >= 0 and refunded_amount <= amount);`);
  }

}
