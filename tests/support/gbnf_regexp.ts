/**
 * Reads one rule of a GBNF grammar (as llama.cpp parses it) as a JavaScript RegExp, so a test
 * can ask which texts the rule accepts. Covers the non-recursive subset JSON grammars use for
 * their terminals: literals, character classes, groups, alternatives, `?`, `*`, `+`, `{m,n}`,
 * comments and references to other such rules.
 */

/** The rules of `grammar` by name, each rule's body as written (continuation lines joined). */
function rulesOf(grammar: string): Map<string, string> {
  const rules = new Map<string, string>();
  let current: string | undefined;
  for (const line of grammar.split("\n")) {
    const start = /^([\w-]+)\s*::=(.*)$/.exec(line);
    if (start) {
      current = start[1];
      rules.set(current, start[2]);
    } else if (current !== undefined) rules.set(current, `${rules.get(current)}\n${line}`);
  }
  return rules;
}

/**
 * The RegExp source of `body`, references resolved through `rules` (a recursive rule would never
 * end: these rules are not).
 */
function regexpSource(body: string, rules: Map<string, string>): string {
  let out = "";
  let at = 0;
  while (at < body.length) {
    const char = body[at];
    if (char === "#") {
      at = body.indexOf("\n", at) === -1 ? body.length : body.indexOf("\n", at);
    } else if (char === '"') {
      let literal = "";
      at++;
      while (body[at] !== '"') {
        // GBNF's escapes in a literal (`\\`, `\"`, `\n`, `\t`, …) are JavaScript's own.
        if (body[at] === "\\") literal += JSON.parse(`"\\${body[++at]}"`);
        else literal += body[at];
        at++;
      }
      out += literal.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
      at++;
    } else if (char === "[") {
      const end = classEnd(body, at);
      out += body.slice(at, end + 1);
      at = end + 1;
    } else if (/[\w-]/.test(char)) {
      const name = /^[\w-]+/.exec(body.slice(at))![0];
      const rule = rules.get(name);
      if (rule === undefined) throw new Error(`no rule ${name}`);
      out += `(?:${regexpSource(rule, rules)})`;
      at += name.length;
    } else if (char === "(") {
      out += "(?:";
      at++;
    } else if (char === "{") {
      const end = body.indexOf("}", at);
      out += body.slice(at, end + 1);
      at = end + 1;
    } else if (/\s/.test(char)) at++;
    else {
      out += char; // | ) ? * +
      at++;
    }
  }
  return out;
}

function classEnd(body: string, start: number): number {
  let at = start + 1;
  while (body[at] !== "]") at += body[at] === "\\" ? 2 : 1;
  return at;
}

/**
 * Rule `name` of `grammar` as a RegExp matching a whole text.
 *
 * @throws {Error} when the grammar has no such rule (or it refers to a missing one).
 * @example
 * ```ts
 * gbnfRuleRegExp(grammar.grammar, "string-rule").test('"a"'); // true
 * ```
 */
export function gbnfRuleRegExp(grammar: string, name: string): RegExp {
  const rules = rulesOf(grammar);
  const body = rules.get(name);
  if (body === undefined) throw new Error(`no rule ${name} in the grammar`);
  return new RegExp(`^(?:${regexpSource(body, rules)})$`);
}
