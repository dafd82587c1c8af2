/**
 * Interpolation variables in HTML and Markdown over HTTP: an Angular or Vue template
 * (`{{ user.name }}`), a Handlebars, Jinja or ERB page or an ICU message rendered into markup is filled in
 * after translation, so its variables reach the engine as placeholders and come back byte for
 * byte, as in `format: "text"` (translate_text_variables_test.ts). The stand-in upper-cases.
 */
import { assertShapes, type Shape } from "../../support/format_requests.ts";

const HTML: Shape[] = [
  {
    item: "<p>Hello {{ user.name }}, you have {count} new <b>{0}</b> items.</p>",
    expected: "<p>HELLO {{ user.name }}, YOU HAVE {count} NEW <b>{0}</b> ITEMS.</p>",
    sent: ["Hello <x1/>, you have <x2/> new <x3><x4/></x3> items."],
  },
  {
    item: '<input placeholder="Search {count} items"><img alt="Photo of {{ name }}">',
    expected: '<input placeholder="SEARCH {count} ITEMS"><img alt="PHOTO OF {{ name }}">',
    sent: ["Search <x1/> items", "Photo of <x1/>"],
  },
  {
    // Prose that only looks like one is text, as in `text`.
    item: "<p>50% off, 100% sure {not closed</p>",
    expected: "<p>50% OFF, 100% SURE {NOT CLOSED</p>",
    sent: ["50% off, 100% sure {not closed"],
  },
  {
    // A Jinja, Django, Liquid or Twig page's tags and comments, an ERB or EJS page's code: the
    // template engine runs them after translation (`{% IF USER %}` is no tag), and `<%` is
    // text to HTML, which an upper-cased answer wrote back as `&lt;%`.
    item: "{% if user %}<p>Welcome back, {{ user.name }}.</p>{% else %}<p>Please log in.</p>" +
      "{% endif %}<p>{% trans %}Hello world{% endtrans %} {# note #}</p>" +
      "<p>Hello <%= user.name %>, welcome.</p><% if (admin) { %><p>Admin area</p><% } %>",
    expected: "{% if user %}<p>WELCOME BACK, {{ user.name }}.</p>{% else %}<p>PLEASE LOG IN.</p>" +
      "{% endif %}<p>{% trans %}HELLO WORLD{% endtrans %} {# note #}</p>" +
      "<p>HELLO <%= user.name %>, WELCOME.</p><% if (admin) { %><p>ADMIN AREA</p><% } %>",
    sent: [
      "Welcome back, <x1/>.",
      "Please log in.",
      "<x1/>Hello world<x2/> <x3/>",
      "Hello <x1/>, welcome.",
      "Admin area",
    ],
  },
];

const MARKDOWN: Shape[] = [
  {
    item: "# Hello {name}\n\nYou have {count} items, *{0} new*, {{ user.name }}.\n",
    expected: "# HELLO {name}\n\nYOU HAVE {count} ITEMS, *{0} NEW*, {{ user.name }}.\n",
    sent: ["Hello <x1/>", "You have <x1/> items, <x2><x3/> new</x2>, <x4/>."],
  },
  {
    item: "- Saved %s files for ${user}\n",
    expected: "- SAVED %s FILES FOR ${user}\n",
    sent: ["Saved <x1/> files for <x2/>"],
  },
  {
    // Inline HTML's translated attributes and a link's title follow the same rule.
    item: '<img alt="{count} files"> <abbr title="Hi {{ name }}">ID</abbr> [a](u "%s left")\n',
    expected: '<img alt="{count} FILES"> <abbr title="HI {{ name }}">ID</abbr> [A](u "%s LEFT")\n',
    sent: ["<x1/> files", "Hi <x1/>", "<x1/> left", "<x1/> <x2>ID</x2> <x3>a</x3>"],
  },
];

for (const mode of ["paragraph", "message", "webpage"]) {
  Deno.test(`format html in ${mode} mode keeps interpolation variables as written`, async () => {
    await assertShapes(HTML, { mode, format: "html" });
  });

  Deno.test(`format markdown in ${mode} mode keeps interpolation variables as written`, async () => {
    await assertShapes(MARKDOWN, { mode, format: "markdown" });
  });
}
