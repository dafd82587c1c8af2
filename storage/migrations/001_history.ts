/**
 * Migration 1: the history table as the first release wrote it (`if not exists`, so a database
 * made by that release, at `user_version` 0, passes through with its rows).
 */
export const HISTORY_TABLE = `
create table if not exists translation_history (
  id text primary key,
  created integer not null,
  client text,
  engine text not null,
  model text not null,
  source text not null,
  target text not null,
  texts text not null,
  translations text not null
);
create index if not exists translation_history_created on translation_history (created);
`;
