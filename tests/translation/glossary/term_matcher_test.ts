import assert from "node:assert/strict";
import { type GlossaryTerm, TermMatcher } from "../../../translation/glossary/term_matcher.ts";
import { termApplied } from "../../../translation/glossary/term_check.ts";

function found(terms: [string, string][], language: string, text: string): string[] {
  const matcher = new TermMatcher(terms.map(([source, target]) => ({ source, target })), language);
  const nfc = text.normalize("NFC");
  return matcher.match(text).map((m) => `${nfc.slice(m.start, m.end)}→${m.term.target}`);
}

const MATCHING = [
  {
    name: "whole words only, case-insensitive",
    language: "en",
    terms: [["cat", "Katze"]],
    text: "Cat and cats, a CAT; concatenate.",
    found: ["Cat→Katze", "CAT→Katze"],
  },
  {
    name: "longest match first",
    language: "en",
    terms: [["data", "Daten"], ["data base", "Datenbank"], ["base", "Basis"]],
    text: "The data base and the data.",
    found: ["data base→Datenbank", "data→Daten"],
  },
  {
    name: "longest wins even when it starts later",
    language: "en",
    terms: [["new york", "NY"], ["york city", "YC"], ["new", "neu"]],
    text: "new york city",
    found: ["new→neu", "york city→YC"],
  },
  {
    name: "terms with punctuation inside",
    language: "en",
    terms: [["node.js", ""], ["c++", ""]],
    text: "Node.js and C++ code",
    found: ["Node.js→", "C++→"],
  },
  {
    name: "NFC on both sides",
    language: "fr",
    terms: [["cafe\u0301", "coffee"]],
    text: "Un caf\u00e9 noir",
    found: ["café→coffee"],
  },
  {
    name: "substring in Chinese",
    language: "zh-Hans",
    terms: [["数据库", "database"], ["数据", "data"]],
    text: "我们的数据库和数据",
    found: ["数据库→database", "数据→data"],
  },
  {
    name: "substring in Japanese",
    language: "ja",
    terms: [["東京", "Tokyo"]],
    text: "東京都に住む",
    found: ["東京→Tokyo"],
  },
  {
    name: "substring in Thai",
    language: "th",
    terms: [["ฐานข้อมูล", "database"]],
    text: "ระบบฐานข้อมูลของเรา",
    found: ["ฐานข้อมูล→database"],
  },
  {
    name: "no word boundary needed in Khmer, Lao, Burmese",
    language: "km",
    terms: [["កុំព្យូទ័រ", "computer"]],
    text: "ខ្ញុំមានកុំព្យូទ័រ",
    found: ["កុំព្យូទ័រ→computer"],
  },
  {
    name: "Latin term inside a Chinese text",
    language: "zh-Hant",
    terms: [["api", "API"]],
    text: "使用API接口",
    found: ["API→API"],
  },
  {
    name: "Korean terms followed by particles, not inside derived words",
    language: "ko",
    terms: [["데이터베이스", "database"], ["api", "API"], ["서버", "server"]],
    text: "데이터베이스를 APIs와 API로 데이터베이스에서는 데이터베이스화 서버들이 서버입니다",
    found: [
      "데이터베이스→database",
      "API→API",
      "데이터베이스→database",
      "서버→server",
      "서버→server",
    ],
  },
  {
    name: "dotted capital I keeps offsets",
    language: "en",
    terms: [["istanbul", "İstanbul"]],
    text: "İzmir and Istanbul",
    found: ["Istanbul→İstanbul"],
  },
] as const;

for (const { name, language, terms, text, found: expected } of MATCHING) {
  Deno.test(`TermMatcher matches ${name}`, () => {
    assert.deepEqual(found(terms as unknown as [string, string][], language, text), expected);
  });
}

const term = (source: string, target: string): GlossaryTerm => ({ source, target });

const CHECKS = [
  {
    name: "target present as a word",
    language: "en",
    translation: "Open the Database now",
    term: term("Datenbank", "database"),
    applied: true,
  },
  {
    name: "target only inside another word (en)",
    language: "en",
    translation: "the databases",
    term: term("Datenbank", "database"),
    applied: false,
  },
  {
    name: "German inflection by prefix",
    language: "de",
    translation: "Die Datenbanken laufen",
    term: term("database", "Datenbank"),
    applied: true,
  },
  {
    name: "French inflection by prefix",
    language: "fr",
    translation: "Les serveurs tournent",
    term: term("server", "serveur"),
    applied: true,
  },
  {
    name: "Spanish term missing",
    language: "es",
    translation: "La base de datos",
    term: term("database", "almacén"),
    applied: false,
  },
  {
    name: "prefix must start a word (de compound)",
    language: "de",
    translation: "Die Kundendatenbank",
    term: term("database", "Datenbank"),
    applied: false,
  },
  {
    name: "kept source term (do not translate)",
    language: "de",
    translation: "Mit tolk übersetzen",
    term: term("tolk", ""),
    applied: true,
  },
  {
    name: "kept source term may not be inflected",
    language: "de",
    translation: "Mit tolks übersetzen",
    term: term("tolk", ""),
    applied: false,
  },
  {
    name: "Korean particles after the term",
    language: "ko",
    translation: "관계형 데이터베이스에서는",
    term: term("database", "데이터베이스"),
    applied: true,
  },
  {
    name: "Korean derived word is not the term",
    language: "ko",
    translation: "데이터베이스화",
    term: term("database", "데이터베이스"),
    applied: false,
  },
  {
    name: "substring in Japanese",
    language: "ja",
    translation: "データベースを開く",
    term: term("database", "データベース"),
    applied: true,
  },
  {
    name: "NFC on both sides",
    language: "fr",
    translation: "un cafe\u0301",
    term: term("coffee", "caf\u00e9"),
    applied: true,
  },
] as const;

for (const { name, language, translation, term: t, applied } of CHECKS) {
  Deno.test(`termApplied: ${name} → ${applied}`, () => {
    assert.equal(termApplied(translation, t, language), applied);
  });
}
