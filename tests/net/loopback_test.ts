import assert from "node:assert/strict";
import {
  bindHostname,
  isLoopbackBind,
  isLoopbackHostHeader,
  isLoopbackUrl,
  urlHostname,
} from "../../net/loopback.ts";

const BINDS: Array<[string, boolean]> = [
  ["127.0.0.1", true],
  ["127.0.0.2", true],
  ["127.1.2.3", true],
  ["127.255.255.255", true],
  ["localhost", true],
  ["LOCALHOST", true],
  ["::1", true],
  ["[::1]", true],
  ["127.0.0.256", false],
  ["127.1", false],
  ["0.0.0.0", false],
  ["192.168.1.4", false],
  ["::", false],
  ["localhost.example", false],
  ["", false],
];

for (const [host, loopback] of BINDS) {
  Deno.test(`isLoopbackBind(${JSON.stringify(host)}) is ${loopback}`, () => {
    assert.equal(isLoopbackBind(host), loopback);
  });
}

const HOST_HEADERS: Array<[string, boolean]> = [
  ["localhost", true],
  ["localhost:8765", true],
  ["127.0.0.1:1", true],
  ["127.0.0.2:8765", true],
  ["[::1]:8765", true],
  ["[::1]", true],
  ["::1", false],
  ["127.0.0.1.nip.io", false],
  ["evil.example:8765", false],
  ["localhost:", false],
  ["localhost:123456", false],
  ["127.0.0.1:80:80", false],
  ["[::2]:80", false],
  ["", false],
];

for (const [host, loopback] of HOST_HEADERS) {
  Deno.test(`isLoopbackHostHeader(${JSON.stringify(host)}) is ${loopback}`, () => {
    assert.equal(isLoopbackHostHeader(host), loopback);
  });
}

const URLS: Array<[string, boolean]> = [
  ["http://127.0.0.1:11434", true],
  ["http://127.0.0.9:1234/", true],
  ["https://localhost/v1", true],
  ["http://[::1]:8080", true],
  ["http://127.1:8080", true], // the URL parser spells it 127.0.0.1
  ["ftp://127.0.0.1", false],
  ["http://10.0.0.1:11434", false],
  ["http://127.0.0.1.nip.io", false],
  ["not a url", false],
];

for (const [url, loopback] of URLS) {
  Deno.test(`isLoopbackUrl(${JSON.stringify(url)}) is ${loopback}`, () => {
    assert.equal(isLoopbackUrl(url), loopback);
  });
}

Deno.test("every accepted bind address is a Host header the check accepts", () => {
  for (const [host, loopback] of BINDS) {
    if (!loopback) continue;
    const shown = bindHostname(host).includes(":") ? `[${bindHostname(host)}]` : host;
    assert.ok(isLoopbackHostHeader(`${shown}:8765`), host);
  }
});

const URL_HOSTS: Array<[string, string]> = [
  ["127.0.0.2", "127.0.0.2"],
  ["localhost", "localhost"],
  ["::1", "[::1]"],
  ["[::1]", "[::1]"],
];

for (const [host, inUrl] of URL_HOSTS) {
  Deno.test(`urlHostname(${JSON.stringify(host)}) is ${inUrl}`, () => {
    assert.equal(urlHostname(host), inUrl);
  });
}
