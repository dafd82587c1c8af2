/**
 * Migration 2: history rows keep the request's `mode` and `format`. Rows of the first release
 * were all plain text in the default mode, so that is what they get.
 */
export const HISTORY_MODE_FORMAT = `
alter table translation_history add column mode text not null default 'paragraph';
alter table translation_history add column format text not null default 'text';
`;
