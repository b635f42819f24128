import { Migration } from '@mikro-orm/migrations';

export class Migration20261125175144_chargebacks_list extends Migration {

  override name = 'Migration20261125175144_chargebacks_list';

  override up(): void | Promise<void> {
    this.addSql(`alter table "chargebacks" add "seq" bigint generated always as identity not null;`);
    this.addSql(`alter table "chargebacks" add constraint "chargebacks_seq_key" unique ("seq");`);
    this.addSql(`create index "chargebacks_list_idx" on "chargebacks" ("merchant_id", "mode", "created_at" DESC, "seq" DESC);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "chargebacks" drop constraint "chargebacks_seq_key";`);
    this.addSql(`drop index "chargebacks_list_idx";`);
    this.addSql(`alter table "chargebacks" drop column "seq";`);
  }

}
