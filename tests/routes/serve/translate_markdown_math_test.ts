/**
 * Dollars in Markdown over HTTP: Pandoc's rule for inline math (markdown_math_dollars.ts), so a
 * price is text the engine translates while `$x$` and `$$…$$` stay math, kept byte for byte.
 */
import assert from "node:assert/strict";
import { translateThrough, translateUpperCased } from "../../support/format_requests.ts";

const MARKDOWN = { format: "markdown", mode: "document" };

Deno.test("markdown: prices are text the engine gets, while $x$ and $$…$$ stay math", async () => {
  // `$5 and $` was read as inline math: the words between two prices never reached the engine.
  const item = "It costs $5 and $10 today.\n\n" +
    "- Price $5.99 or $6 each.\n- US$ 10 or 5 $ each.\n\n" +
    "> It costs $5, then $x^2$ later, and $$E = mc^2$$ too.\n\n" +
    "| Plan | Price |\n|---|---|\n| Basic | $5/month |\n| Pro | $10 or $n$ seats |\n\n" +
    "$$\nx = $5\n$$\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, [
    "It costs $5 and $10 today.",
    "Price $5.99 or $6 each.",
    "US$ 10 or 5 $ each.",
    "It costs $5, then <x1/> later, and <x2/> too.",
    "Plan",
    "Price",
    "Basic",
    "$5/month",
    "Pro",
    "$10 or <x1/> seats",
  ]);
  assert.equal(
    texts[0],
    "IT COSTS $5 AND $10 TODAY.\n\n" +
      // `S$ ` could close math after a `$` before it: written as text.
      "- PRICE $5.99 OR $6 EACH.\n- US\\$ 10 OR 5 $ EACH.\n\n" +
      "> IT COSTS $5, THEN $x^2$ LATER, AND $$E = mc^2$$ TOO.\n\n" +
      "| PLAN | PRICE |\n|---|---|\n| BASIC | $5/MONTH |\n| PRO | $10 OR $n$ SEATS |\n\n" +
      "$$\nx = $5\n$$\n",
  );
});

Deno.test("markdown: dollars an engine leaves alone come back byte for byte", async () => {
  const item = "It costs $5 and $10.\n\nSee $a$b, $x$5 and $ y$ or US$ 10, then $$z$$.\n";
  const { texts, sent } = await translateThrough([item], MARKDOWN, (text) => text);
  assert.deepEqual(sent, [
    "It costs $5 and $10.",
    // `$x$5`: a closing `$` before a digit closes nothing; `$ y$`: no math opens before a space.
    "See <x1/>b, $x$5 and $ y$ or US$ 10, then <x2/>.",
  ]);
  assert.equal(texts[0], item);
});

Deno.test("markdown: an engine's dollars that could pair as math are escaped, a price's are not", async () => {
  // Unescaped, `5$ and $x$` would make `$ and $` math; `$$` display math.
  const item = "It costs five dollars.\n";
  const answer = () => "It costs $5, 5$ and x$y$ or $$z.";
  const { texts } = await translateThrough([item], MARKDOWN, answer);
  assert.equal(texts[0], "It costs $5, 5\\$ and x\\$y\\$ or \\$\\$z.\n");
});

Deno.test("markdown: LaTeX's \\( \\) and \\[ \\] math (MathJax, MkDocs' arithmatex) stays as written", async () => {
  // Its content was sent as words (`\text{Speed}`, `\frac{d}{t}`) and an engine's answer was
  // written back into the formula. A bracket escaped in prose (`\[Enter\]`) is still text.
  const item = "The speed \\(v = \\frac{d}{t}\\) is constant.\n\n" +
    "\\[\n\\text{Speed} = \\frac{d}{t}\n\\]\n\nPress \\[Enter\\] twice.\n";
  const { texts, sent } = await translateUpperCased([item], MARKDOWN);
  assert.deepEqual(sent, ["The speed <x1/> is constant.", "Press <x1/>Enter<x2/> twice."]);
  assert.equal(
    texts[0],
    "THE SPEED \\(v = \\frac{d}{t}\\) IS CONSTANT.\n\n" +
      "\\[\n\\text{Speed} = \\frac{d}{t}\n\\]\n\nPRESS \\[ENTER\\] TWICE.\n",
  );
  const { texts: echoed } = await translateThrough([item], MARKDOWN, (text) => text);
  assert.deepEqual(echoed, [item]);
});
