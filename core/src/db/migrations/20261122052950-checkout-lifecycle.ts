import { Migration } from '@mikro-orm/migrations';

export class Migration20261122052950_checkout_lifecycle extends Migration {

  override name = 'Migration20261122052950_checkout_lifecycle';

  override up(): void | Promise<void> {
    this.addSql(`alter table "merchants" add "embed_origins" text[] not null default '{}';`);

    this.addSql(`alter table "payments" add "card_brand" text null, add "card_last4" text null, add "challenge_pending" boolean not null default false, add "attempt_expires_at" timestamptz(3) null, add "bank_reference" text null;`);
    this.addSql(`alter table "payments" add constraint "payments_bank_reference_key" unique ("bank_reference");`);
    this.addSql(`create index "payments_bank_transfer_confirm_idx" on "payments" ("processing_at") where status = 'processing' and method_type = 'bank_transfer' and mode = 'test';`);
    this.addSql(`create index "payments_settle_captured_idx" on "payments" ("captured_at") where status = 'captured' and mode = 'test';`);
    this.addSql(`create index "payments_settle_pending_idx" on "payments" ("pending_settlement_at") where status = 'pending_settlement' and mode = 'test';`);
    this.addSql(`create index "payments_settle_received_idx" on "payments" ("settled_to_paytami_at") where status = 'settled_to_paytami' and mode = 'test';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "merchants" drop column "embed_origins";`);

    this.addSql(`alter table "payments" drop constraint "payments_bank_reference_key";`);
    this.addSql(`drop index "payments_bank_transfer_confirm_idx";`);
    this.addSql(`drop index "payments_settle_captured_idx";`);
    this.addSql(`drop index "payments_settle_pending_idx";`);
    this.addSql(`drop index "payments_settle_received_idx";`);
    this.addSql(`alter table "payments" drop column "card_brand", drop column "card_last4", drop column "challenge_pending", drop column "attempt_expires_at", drop column "bank_reference";`);
  }

}
