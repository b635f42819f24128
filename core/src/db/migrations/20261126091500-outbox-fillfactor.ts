import { Migration } from '@mikro-orm/migrations';

export class Migration20261126091500_outbox_fillfactor extends Migration {

  override name = 'Migration20261126091500_outbox_fillfactor';

  override up(): void | Promise<void> {
    // The relay writes every event's row twice after its insert: the claim's lease, then published_at.
    // Room left on each page lets the claim, which changes no indexed column, be a HOT update: no new
    // entry in the table's seven indexes (one an expression over the JSON envelope) and ~150 bytes of
    // WAL instead of ~1 KB (test/bench/HISTORY.md, session 28). Applies to the pages written from now on.
    this.addSql(`alter table "outbox_events" set (fillfactor = 50);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "outbox_events" reset (fillfactor);`);
  }

}
