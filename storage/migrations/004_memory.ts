/**
 * Migration 4: translation memory. \`key\` is the normalised source (NFC, one space per run);
 * \`grams\` holds the few character n-gram hashes the fuzzy lookup indexes for the entry.
 */
export const MEMORY_TABLES = `
create table memory_entries (
  id integer primary key,
  source_lang text not null,
  target_lang text not null,
  key text not null,
  source text not null,
  target text not null,
  origin text not null check (origin in ('user', 'engine')),
  length integer not null,
  created integer not null,
  unique (source_lang, target_lang, key, origin)
);
create table memory_grams (
  gram integer not null,
  length integer not null,
  entry_id integer not null references memory_entries (id) on delete cascade,
  primary key (gram, length, entry_id)
) without rowid;
create index memory_grams_entry on memory_grams (entry_id);
`;
