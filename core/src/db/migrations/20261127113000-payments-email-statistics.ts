import { Migration } from '@mikro-orm/migrations';

export class Migration20261127113000_payments_email_statistics extends Migration {

  override name = 'Migration20261127113000_payments_email_statistics';

  override up(): void | Promise<void> {
    // The dashboard's search by e-mail prefix (core/src/domain/payment-filters.ts). PostgreSQL ignores
    // the statistics of a partial index's expression (payments_customer_email_idx is partial), so it
    // guessed every prefix matched 0.5 % of the merchant's e-mails and walked payments_list_idx in
    // date order filtering on the e-mail: 210-300 ms for a rare prefix at 1 000 000 payments (the
    // bench's plan). Statistics on the expression itself let it tell a rare prefix (the e-mail index,
    // well under a millisecond) from a common one (the walk, which finds a page at once).
    // Extended statistics are not something the entities can declare; this migration is their one
    // definition (core/src/db/entities/payment.ts says so beside the index).
    this.addSql(`create statistics "payments_customer_email_stats" on (lower("customer_email")) from "payments";`);
    this.addSql(`analyze "payments";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop statistics "payments_customer_email_stats";`);
  }

}
