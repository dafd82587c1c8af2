/**
 * Migration 7: memory entry ids come from AUTOINCREMENT, which never hands one out twice. With
 * the plain rowid, an entry added after the newest ones were deleted took a deleted entry's id:
 * a client holding that id deleted another entry, and a page cursor (the last id a reader saw)
 * showed the new entry on the next, "older" page. As migration 6 did for history, the table is
 * rebuilt with every entry at its old id.
 *
 * `memory_grams` references the entries with `on delete cascade`: it runs with foreign keys off
 * (`rebuildsReferencedTable`), or dropping the old table would delete every gram with its entry.
 * The grams keep their entry ids and reference the table by name, so they are left as they are
 * (copying them as well made the migration of 200,000 entries take 10.4 s instead of 0.9 s).
 */
export const MEMORY_SEQUENCE = `
create table memory_entries_sequenced (
  id integer primary key autoincrement,
  source_lang text not null,
  target_lang text not null,
  key text not null,
  source text not null,
  target text not null,
  origin text not null check (origin in ('user', 'engine')),
  length integer not null,
  created integer not null,
  steering text not null default '',
  unique (source_lang, target_lang, key, origin)
);
insert into memory_entries_sequenced
  (id, source_lang, target_lang, key, source, target, origin, length, created, steering)
  select id, source_lang, target_lang, key, source, target, origin, length, created, steering
  from memory_entries order by id;
drop table memory_entries;
alter table memory_entries_sequenced rename to memory_entries;
`;
