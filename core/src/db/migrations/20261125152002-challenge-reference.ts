import { Migration } from '@mikro-orm/migrations';

export class Migration20261125152002_challenge_reference extends Migration {

  override name = 'Migration20261125152002_challenge_reference';

  override up(): void | Promise<void> {
    this.addSql(`alter table "payments" add "challenge_reference" text null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "payments" drop column "challenge_reference";`);
  }

}
