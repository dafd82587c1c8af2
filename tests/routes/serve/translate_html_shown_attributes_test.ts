/**
 * `format: "html"` over HTTP: attributes a reader sees beyond `alt`, `title`, `placeholder` and
 * `aria-label` — the `label` a drop-down or a caption menu shows, the description a search
 * engine or a link preview shows — are translated; the same names where nobody reads them are
 * kept. The stand-in upper-cases what it is sent.
 */
import { assertShapes, type Shape } from "../../support/format_requests.ts";

function assertHtmlShapes(shapes: Shape[], mode: string): Promise<void> {
  return assertShapes(shapes, { mode, format: "html" });
}

const SHAPES: Shape[] = [
  {
    // A drop-down shows an `optgroup`'s label as its heading and an `option`'s in its place.
    item: '<select><optgroup label="Fruits"><option value="a" label="Apple">Apple, 1 kg</option>' +
      "</optgroup></select>",
    expected:
      '<select><optgroup label="FRUITS"><option value="a" label="APPLE">APPLE, 1 KG</option>' +
      "</optgroup></select>",
    sent: ["Fruits", "Apple", "Apple, 1 kg"],
  },
  {
    // A video's caption menu lists the tracks by their label.
    item: '<video src="v.mp4"><track kind="captions" src="en.vtt" label="English captions">' +
      "</video>",
    expected: '<video src="v.mp4"><track kind="captions" src="en.vtt" label="ENGLISH CAPTIONS">' +
      "</video>",
    sent: ["English captions"],
  },
  {
    // What a search result and a link preview show; a keyword list, a charset, a site's
    // verification code and a `label` on an element that shows none are data.
    item: '<head><meta charset="utf-8"><meta name="description" content="A page about cats.">' +
      "<meta property='og:title' content='Cats page'><meta content=\"All about cats\" " +
      'name="twitter:description"><meta name="keywords" content="cats, dogs">' +
      '<meta name="google-site-verification" content="abc Token"></head>' +
      '<p><span label="Note">Body text.</span></p>',
    expected: '<head><meta charset="utf-8"><meta name="description" content="A PAGE ABOUT CATS.">' +
      "<meta property='og:title' content='CATS PAGE'><meta content=\"ALL ABOUT CATS\" " +
      'name="twitter:description"><meta name="keywords" content="cats, dogs">' +
      '<meta name="google-site-verification" content="abc Token"></head>' +
      '<p><span label="Note">BODY TEXT.</span></p>',
    sent: ["A page about cats.", "Cats page", "All about cats", "Body text."],
  },
];

for (const mode of ["webpage", "document"]) {
  Deno.test(`html in ${mode} mode: an option's, optgroup's and track's label and a page's description are translated`, async () => {
    await assertHtmlShapes(SHAPES, mode);
  });
}
