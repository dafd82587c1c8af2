/**
 * `format: "html"` over HTTP on what a CMS sends: WordPress's shortcodes and BBCode are run by
 * the site after translation, so they come back as written and reach the engine as
 * placeholders (`[CAPTION ID=…]` is no shortcode); Gutenberg's block comments are kept as
 * comments are. Brackets prose writes (`[sic]`, `[1]`) are text. The stand-in upper-cases.
 */
import { assertShapes, type Shape } from "../../support/format_requests.ts";

const SHAPES: Shape[] = [
  {
    item: '[caption id="attachment_5" align="alignnone" width="300"]<img src="a.jpg" alt="Dog" />' +
      " A dog running.[/caption]",
    expected:
      '[caption id="attachment_5" align="alignnone" width="300"]<img src="a.jpg" alt="DOG" />' +
      " A DOG RUNNING.[/caption]",
    sent: ["Dog", "<x1/> A dog running.<x2/>"],
  },
  {
    item: "<!-- wp:paragraph --><p>Our photos [gallery ids='1,2,3' size=large] from the trip " +
      'and [video src="trip.mp4"][/video] the film.</p><!-- /wp:paragraph -->',
    expected: "<!-- wp:paragraph --><p>OUR PHOTOS [gallery ids='1,2,3' size=large] FROM THE TRIP " +
      'AND [video src="trip.mp4"][/video] THE FILM.</p><!-- /wp:paragraph -->',
    sent: ["Our photos <x1/> from the trip and <x2/> the film."],
  },
  {
    item: "<p>He wrote [sic] twice [1] and [see note] and [b]bold[/b] words.</p>",
    expected: "<p>HE WROTE [SIC] TWICE [1] AND [SEE NOTE] AND [b]BOLD[/b] WORDS.</p>",
    sent: ["He wrote [sic] twice [1] and [see note] and <x1/>bold<x2/> words."],
  },
];

for (const mode of ["webpage", "document"]) {
  Deno.test(`html in ${mode} mode keeps WordPress shortcodes and BBCode as written`, async () => {
    await assertShapes(SHAPES, { mode, format: "html" });
  });
}
