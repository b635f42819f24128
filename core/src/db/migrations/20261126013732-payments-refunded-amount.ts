import { Migration } from '@mikro-orm/migrations';

export class Migration20261126013732_payments_refunded_amount extends Migration {

  override name = 'Migration20261126013732_payments_refunded_amount';

  override up(): void | Promise<void> {
    this.addSql(`alter table "payments" add "refunded_amount" bigint not null default '0';`);
    // Backfill (hand-written): each payment's running total is the sum of the refunds it already has.
    this.addSql(`update "payments" p set "refunded_amount" = r.total from (select payment_id, sum(amount) as total from "refunds" group by payment_id) r where p.id = r.payment_id;`);
    this.addSql(`alter table "payments" add constraint "payments_refunded_amount_check" check (refunded_amount >= 0 and refunded_amount <= amount);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "payments" drop constraint "payments_refunded_amount_check";`);
    this.addSql(`alter table "payments" drop column "refunded_amount";`);
  }

}
