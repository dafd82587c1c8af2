/**
 * Migration 3: glossaries, one dictionary per language pair, entries in their given order.
 */
export const GLOSSARY_TABLES = `
create table glossaries (
  id text primary key,
  name text not null,
  created integer not null
);
create table glossary_dictionaries (
  glossary_id text not null references glossaries (id) on delete cascade,
  source_lang text not null,
  target_lang text not null,
  primary key (glossary_id, source_lang, target_lang)
) without rowid;
create table glossary_entries (
  glossary_id text not null,
  source_lang text not null,
  target_lang text not null,
  position integer not null,
  source text not null,
  target text not null,
  primary key (glossary_id, source_lang, target_lang, position),
  foreign key (glossary_id, source_lang, target_lang)
    references glossary_dictionaries (glossary_id, source_lang, target_lang) on delete cascade
) without rowid;
`;
