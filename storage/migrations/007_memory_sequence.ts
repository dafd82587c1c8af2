/**
 * Migration 7: memory entry ids come from AUTOINCREMENT, which never hands one out twice. With
 * the plain rowid, an entry added after the newest ones were deleted took a deleted entry's id:
 * a client holding that id deleted another entry, and a page cursor (the last id a reader saw)
 * showed the new entry on the next, "older" page. As migration 6 did for history, the table is
 * rebuilt with every entry at its old id.
 *
 * `memory_grams` references the entries with `on delete cascade`, and foreign keys are on (a
 * pragma that cannot change inside the migration's transaction): dropping the old entries table
 * deletes its rows first, which would take every gram with them. So the grams are copied into
 * a new table that references the new entries table (a rename carries the reference along),
 * and the old grams table is dropped before the old entries table.
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
create table memory_grams_sequenced (
  gram integer not null,
  length integer not null,
  entry_id integer not null references memory_entries_sequenced (id) on delete cascade,
  primary key (gram, length, entry_id)
) without rowid;
insert into memory_grams_sequenced (gram, length, entry_id)
  select gram, length, entry_id from memory_grams;
drop table memory_grams;
drop table memory_entries;
alter table memory_entries_sequenced rename to memory_entries;
alter table memory_grams_sequenced rename to memory_grams;
create index memory_grams_entry on memory_grams (entry_id);
`;
