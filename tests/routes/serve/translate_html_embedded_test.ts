/**
 * `format: "html"` over HTTP: an element whose content is shown in place of the element, not as
 * part of the text around it (a `select`'s options, the fallback of `video`, `audio`, `object`
 * or `canvas`), stays one placeholder of its sentence, and its own text is translated apart.
 * The stand-in upper-cases what it is sent.
 */
import { assertShapes, type Shape } from "../../support/format_requests.ts";

function assertHtmlShapes(shapes: Shape[]): Promise<void> {
  return assertShapes(shapes, { mode: "webpage", format: "html" });
}

Deno.test("html: a select inside a sentence is one placeholder, its options are sent apart", async () => {
  await assertHtmlShapes([
    {
      item:
        "<p>Choose <select><option>red</option><option>blue</option></select> as your color.</p>",
      expected:
        "<p>CHOOSE <select><option>RED</option><option>BLUE</option></select> AS YOUR COLOR.</p>",
      sent: ["Choose <x1/> as your color.", "red", "blue"],
    },
    {
      // Options without end tags, closed by the paragraph's end tag.
      item: '<p>Ship to <select title="Country"><option>France<option>Spain</p>',
      expected: '<p>SHIP TO <select title="COUNTRY"><option>FRANCE<option>SPAIN</p>',
      sent: ["Ship to", "Country", "France", "Spain"],
    },
  ]);
});

Deno.test("html: video, audio, object and canvas fallbacks inside a sentence keep it whole", async () => {
  await assertHtmlShapes([
    {
      item: '<p>Watch <video src="a.mp4">Your browser cannot play <a href="a.mp4" ' +
        'title="The file">this video</a>.</video> now please.</p>',
      expected: '<p>WATCH <video src="a.mp4">YOUR BROWSER CANNOT PLAY <a href="a.mp4" ' +
        'title="THE FILE">THIS VIDEO</a>.</video> NOW PLEASE.</p>',
      sent: [
        "Watch <x1/> now please.",
        "Your browser cannot play <x1>this video</x1>.",
        "The file",
      ],
    },
    {
      item: "<p>Hear <audio src=a.mp3>No audio</audio> here, see <object data=x.pdf>the PDF " +
        "<object data=x.png>picture</object></object> and draw <canvas>No canvas</canvas> it.</p>",
      expected: "<p>HEAR <audio src=a.mp3>NO AUDIO</audio> HERE, SEE <object data=x.pdf>THE PDF " +
        "<object data=x.png>PICTURE</object></object> AND DRAW <canvas>NO CANVAS</canvas> IT.</p>",
      sent: [
        "Hear <x1/> here, see <x2/> and draw <x3/> it.",
        "No audio",
        "the PDF",
        "picture",
        "No canvas",
      ],
    },
    {
      // Alone in its block, and with a track's label, as before.
      item: '<div><video controls><track kind="captions" src="c.vtt"><p>Download ' +
        '<a href="v.mp4">the video</a>.</p></video></div>',
      expected: '<div><video controls><track kind="captions" src="c.vtt"><p>DOWNLOAD ' +
        '<a href="v.mp4">THE VIDEO</a>.</p></video></div>',
      sent: ["Download <x1>the video</x1>."],
    },
  ]);
});

Deno.test("html: a template or datalist inside a sentence is one placeholder of it", async () => {
  await assertHtmlShapes([
    {
      // A template's content is shown elsewhere, when a script clones it.
      item: "<p>Hello <template><b>Hi</b> there</template> world today.</p>",
      expected: "<p>HELLO <template><b>HI</b> THERE</template> WORLD TODAY.</p>",
      sent: ["Hello <x1/> world today.", "<x1>Hi</x1> there"],
    },
    {
      item: '<p>Type <input list=l><datalist id=l><option value="Apple"></datalist> a fruit.</p>',
      expected:
        '<p>TYPE <input list=l><datalist id=l><option value="Apple"></datalist> A FRUIT.</p>',
      sent: ["Type <x1/> a fruit."],
    },
    {
      // Alone, as before.
      item: "<template><p>Hello there.</p></template><p>Next.</p>",
      expected: "<template><p>HELLO THERE.</p></template><p>NEXT.</p>",
      sent: ["Hello there.", "Next."],
    },
  ]);
});
