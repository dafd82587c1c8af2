/**
 * Migration 6: history rows are ordered by `seq`, which AUTOINCREMENT never hands out twice. The
 * list's cursor is the position of the last row a reader saw; with the table's plain rowid, a
 * row recorded after the newest rows were deleted (or after a clear) took a position that had
 * been used, below that cursor, and showed up on the reader's next, "older" page. The table is
 * rebuilt with every row at its old position, so order and cursors handed out before still hold.
 */
export const HISTORY_SEQUENCE = `
create table translation_history_sequenced (
  seq integer primary key autoincrement,
  id text not null unique,
  created integer not null,
  client text,
  engine text not null,
  model text not null,
  source text not null,
  target text not null,
  texts text not null,
  translations text not null,
  mode text not null default 'paragraph',
  format text not null default 'text'
);
insert into translation_history_sequenced
  (seq, id, created, client, engine, model, source, target, texts, translations, mode, format)
  select rowid, id, created, client, engine, model, source, target, texts, translations, mode, format
  from translation_history order by rowid;
drop table translation_history;
alter table translation_history_sequenced rename to translation_history;
create index translation_history_created on translation_history (created);
`;
