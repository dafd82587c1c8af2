/**
 * Migration 8: glossary terms stored before the zero-width rule (translation/glossary/
 * entries_text.ts, `INVISIBLE`) lose their zero-width spaces, word joiners and U+FEFF, as a new
 * upload's do: "data\u200Bbase" matched no text that looks like "database", and a target with one
 * was never found in a translation. Then, as an upload is refused for them, a term left empty is
 * removed, and so is a second spelling of a term now alike (the first in the dictionary's order is
 * kept; `lower` folds ASCII, and two terms differing otherwise were two terms before too), and a
 * dictionary left with no term.
 *
 * `trim` takes what JavaScript's `trim` took when the term was stored: a term's own white space
 * before an invisible character at its start or end ("\u200B New York").
 */
/** A column without the invisible characters, trimmed. */
const INVISIBLE_OUT = (column: string) =>
  `trim(replace(replace(replace(${column}, char(8203), ''), char(8288), ''), char(65279), ''),
    char(9, 10, 11, 12, 13, 32, 160, 5760, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8199, 8200,
      8201, 8202, 8232, 8233, 8239, 8287, 12288, 65279))`;

/** Whether a column holds one of them. */
const HAS_INVISIBLE = (column: string) =>
  `(instr(${column}, char(8203)) > 0 or instr(${column}, char(8288)) > 0
    or instr(${column}, char(65279)) > 0)`;

/** Migration 8's SQL (the file's comment says what it does and why). */
export const GLOSSARY_INVISIBLE = `
update glossary_entries set source = ${INVISIBLE_OUT("source")}, target = ${INVISIBLE_OUT("target")}
  where ${HAS_INVISIBLE("source")} or ${HAS_INVISIBLE("target")};
delete from glossary_entries where source = '';
delete from glossary_entries where (glossary_id, source_lang, target_lang, position) in (
  select glossary_id, source_lang, target_lang, position from (
    select glossary_id, source_lang, target_lang, position, row_number() over (
      partition by glossary_id, source_lang, target_lang, lower(source) order by position
    ) as nth from glossary_entries
  ) where nth > 1
);
delete from glossary_dictionaries as d where not exists (
  select 1 from glossary_entries as e where e.glossary_id = d.glossary_id
    and e.source_lang = d.source_lang and e.target_lang = d.target_lang
);
`;
