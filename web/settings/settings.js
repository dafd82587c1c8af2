// tolk settings page: a client of /settings/api/* (session cookie) and of the real /v1 API.
// Text from servers (engine and model names) is only ever set with textContent, never as HTML:
// a model name comes from a local server we do not control, and this page can show the token.
"use strict";

const MASK = "•".repeat(24);
let state = null;
let revealed = false;

const $ = (id) => document.getElementById(id);

function element(tag, properties = {}, children = []) {
  const node = Object.assign(document.createElement(tag), properties);
  for (const child of children) node.append(child);
  return node;
}

/**
 * A message at the foot of the window. One that says an action was not done (`failed`) stays
 * until the next message: a toast that fades in 2 s is missed by whoever looked away or reads
 * slowly, and was the only place such a failure was told (WCAG 2.2.1).
 */
function toast(text, { failed = false } = {}) {
  const node = $("toast");
  node.textContent = text;
  node.classList.add("shown");
  node.classList.toggle("failed", failed);
  clearTimeout(toast.timer);
  if (!failed) toast.timer = setTimeout(() => node.classList.remove("shown"), 2200);
}

/** Changes sent, and how many are still waiting for their answer (see refresh). */
const changes = { sent: 0, pending: 0 };

/** Calls a page endpoint; throws an Error with the service's message on failure. */
async function call(path, body) {
  const post = body !== undefined;
  if (post) {
    changes.sent++;
    changes.pending++;
  }
  const response = await fetch(`/settings/api/${path}`, {
    method: post ? "POST" : "GET",
    headers: post ? { "content-type": "application/json" } : {},
    body: post ? JSON.stringify(body) : undefined,
  }).catch(() => {
    // The browser's own words ("Failed to fetch") do not say what happened nor what was lost.
    throw new Error(
      `Cannot reach tolk serve (stopped or restarting?)${post ? ": nothing was saved" : ""}`,
    );
  }).finally(() => {
    if (post) changes.pending--;
  });
  if (response.status === 204) return null;
  const json = await response.json().catch(() => ({}));
  if (response.status === 401) {
    // The session ended (signed out in another tab, expired). A reload would show how to get a
    // new link but drop what is typed here, unsaved: the page stays and says so at its top.
    $("session-ended").hidden = false;
    throw new Error("The session has ended: nothing was saved (see the top of the page)");
  }
  if (!response.ok) {
    const param = json.error?.param ?? null;
    const error = new Error(withoutField(json.error?.message ?? `HTTP ${response.status}`, param));
    error.param = param;
    throw error;
  }
  return json;
}

/**
 * The message without the field name a refused body field's message starts with ("engines.
 * local-llm.model must not be empty"): the page names the field in its own words.
 */
function withoutField(message, param) {
  if (param === null) return message;
  const lead = [`${param}: `, `${param} `].find((start) => message.startsWith(start));
  return lead ? message.slice(lead.length) : message;
}

async function revealToken() {
  return (await call("token/reveal", {})).token;
}

function renderApi() {
  $("api-enabled").checked = state.api.enabled;
  $("api-hint").textContent = !state.api.enabled
    ? "The API is off: every token-protected request is refused. Turn it on to use it."
    : state.api.has_token
    ? "Clients on this computer can use the API with the token below."
    : "The API is on but has no token: every token-protected request is refused until Rotate makes one.";
  const token = $("token");
  if (!state.api.has_token) {
    token.textContent = "no token (Rotate makes one)";
    revealed = false;
  } else if (!revealed) {
    token.textContent = MASK;
  }
  $("reveal").textContent = revealed ? "Hide" : "Reveal";
  const focused = document.activeElement;
  for (const id of ["reveal", "copy", "revoke"]) $(id).disabled = !state.api.has_token;
  // A button that disabled itself (no token left) drops the focus on the body, and the next Tab
  // skips the token row: a keyboard user goes on from Rotate, the way to a new token.
  if (focused?.disabled) $("rotate").focus();
}

function renderModels() {
  $("models-dir").textContent = state.models_dir;
  const items = state.local_models.map((model) =>
    element("li", {}, [
      element("code", { textContent: model.id }),
      ` ${(model.size_bytes / 1e6).toFixed(1)} MB`,
      ...(model.valid ? [] : [
        element("div", { className: "problem", textContent: model.problems.join("; ") }),
      ]),
    ])
  );
  if (items.length === 0) items.push(element("li", { textContent: "No model installed yet." }));
  $("model-list").replaceChildren(...items);
}

function snippet(title, text) {
  const copy = element("button", { type: "button", className: "quiet", textContent: "Copy" });
  copy.setAttribute("aria-label", `Copy ${title}`); // one Copy per snippet: the name says which
  copy.addEventListener("click", async () => {
    await navigator.clipboard.writeText(text);
    toast("Copied");
  });
  // The button beside the heading, not in it: a heading is named by all its text, and a screen
  // reader's list of headings read "curl Copy curl".
  return element("div", { className: "snippet" }, [
    element("div", { className: "snippet-head" }, [element("h3", { textContent: title }), copy]),
    element("pre", {}, [element("code", { textContent: text })]),
  ]);
}

function renderSnippets() {
  const base = state.base_url;
  const ws = base.replace(/^http/, "ws");
  const list = [
    snippet(
      "curl",
      // The command as the service was started (its --config), put in the page by the service.
      `export TOLK_TOKEN="$(${document.querySelector("main").dataset.tokenShow})"\n` +
        `curl -s ${base}/v1/translate \\\n  -H "X-Svc-Token: $TOLK_TOKEN" ` +
        `-H "Content-Type: application/json" \\\n  -d '{"target": "fr", "texts": ["Good morning."]}'`,
    ),
    snippet(
      "Browser WebSocket",
      `const socket = new WebSocket("${ws}/v1/ws/translate", ["bearer", TOLK_TOKEN]);\n` +
        `socket.onmessage = (event) => console.log(JSON.parse(event.data));\n` +
        `socket.onopen = () => socket.send(JSON.stringify({ target: "fr", texts: ["Good morning."] }));`,
    ),
    snippet("API description (OpenAPI 3.1)", `${base}/v1/openapi.json`),
  ];
  for (const compat of state.compat_base_urls) {
    const family = compat.name.split("/").pop();
    // DeepLX clients take the whole address of its one endpoint, not a base.
    if (family === "deeplx") {
      list.push(snippet("URL for DeepLX clients (key: the token)", `${compat.base_url}/translate`));
      continue;
    }
    const title = { deepl: "DeepL", libre: "LibreTranslate" }[family] ?? family;
    list.push(snippet(`Base URL for ${title} clients (key: the token)`, compat.base_url));
  }
  $("snippet-list").replaceChildren(...list);
}

function render() {
  // The service keeps its last good settings while the file is broken; the page says so, as
  // what it shows is then not what the file says, and every change is refused until it is fixed.
  $("file-problem").hidden = state.settings_file_problem === null;
  $("file-problem").textContent = state.settings_file_problem ?? "";
  renderApi();
  $("history-enabled").checked = state.history.enabled;
  renderEngines();
  renderModels();
  renderSnippets();
}

async function update(action, done) {
  try {
    state = await action();
    render();
    if (done) toast(done);
  } catch (error) {
    // Nothing changed: the switch the user flipped goes back to what the service does, and a
    // refusal of the file itself (broken by hand meanwhile) shows as the page's warning.
    const fresh = await call("state").catch(() => null);
    if (fresh) state = fresh;
    if (state) render();
    // A refused value of the settings file (edited by hand) is named, as no field shows it.
    toast(error.param ? `${error.param} ${error.message}` : error.message, { failed: true });
  }
}

/**
 * The token, or null after a message when there is none any more (revoked in another tab or by
 * `tolk token revoke`): the page then shows that, and nothing is copied or shown.
 */
async function currentToken() {
  const token = await revealToken();
  if (token !== null) return token;
  state.api = (await call("state")).api;
  revealed = false;
  renderApi();
  toast("There is no token now (revoked elsewhere): Rotate makes one", { failed: true });
  return null;
}

async function translate(event) {
  event.preventDefault();
  const output = $("try-output");
  const box = $("try-text");
  if (box.value.trim() === "") {
    output.className = "error";
    output.textContent = "Type a text to translate first.";
    // The focus moves to the box: what a screen reader says there is its description, and the
    // status message announced meanwhile may be cut off by that.
    box.setAttribute("aria-invalid", "true");
    box.setAttribute("aria-describedby", output.id);
    box.focus();
    return;
  }
  box.removeAttribute("aria-invalid");
  box.removeAttribute("aria-describedby");
  output.className = "";
  output.textContent = "Translating…";
  try {
    if (!state.api.enabled) throw new Error("Turn the local API on first.");
    const token = await revealToken();
    if (!token) throw new Error("There is no token: Rotate makes one.");
    const response = await fetch("/v1/translate", {
      method: "POST",
      headers: { "content-type": "application/json", "x-svc-token": token },
      body: JSON.stringify({ target: $("try-target").value, texts: [$("try-text").value] }),
    });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error?.message ?? `HTTP ${response.status}`);
    output.replaceChildren(
      // In the target language: a screen reader reads it with that language's voice, not the
      // page's English one (WCAG 3.1.2).
      element("div", { textContent: body.results[0].text, lang: body.target }),
      element("div", {
        className: "meta",
        textContent: `${body.source} → ${body.target} · ${body.engine} · ${body.model} · ` +
          `${body.usage.latency_ms} ms`,
      }),
    );
  } catch (error) {
    output.className = "error";
    output.textContent = error.message;
  }
}

async function loadLanguages() {
  const response = await fetch("/v1/capabilities");
  const { languages } = await response.json();
  $("try-target").replaceChildren(
    ...languages.map((code) => element("option", { value: code, textContent: code })),
  );
  $("try-target").value = languages.includes("fr") ? "fr" : languages[0];
}

/** A click handler whose failure (the service unreachable, say) is told, not lost. */
function reporting(handler) {
  return (event) => handler(event).catch((error) => toast(error.message, { failed: true }));
}

function wire() {
  $("api-enabled").addEventListener("change", (event) => {
    const enabled = event.target.checked;
    update(() => call("api", { enabled }), enabled ? "Local API on" : "Local API off");
  });
  $("history-enabled").addEventListener("change", (event) => {
    const enabled = event.target.checked;
    update(() => call("history", { enabled }), enabled ? "History on" : "History off");
  });
  $("reveal").addEventListener(
    "click",
    reporting(async () => {
      if (revealed) {
        revealed = false;
        renderApi();
        return;
      }
      const token = await currentToken();
      if (token === null) return;
      revealed = true;
      $("token").textContent = token;
      renderApi();
    }),
  );
  $("copy").addEventListener(
    "click",
    reporting(async () => {
      const token = await currentToken();
      if (token === null) return;
      // Rotated elsewhere since it was revealed: the page shows the token it copies.
      if (revealed) $("token").textContent = token;
      await navigator.clipboard.writeText(token);
      toast("Token copied");
    }),
  );
  $("rotate").addEventListener("click", () => {
    if (!confirm("Make a new token? Clients using the old one stop working.")) return;
    revealed = false;
    update(() => call("token/rotate", {}), "New token made");
  });
  $("revoke").addEventListener("click", () => {
    if (!confirm("Revoke the token? Every client stops working until you Rotate.")) return;
    revealed = false;
    update(() => call("token/revoke", {}), "Token revoked");
  });
  $("logout").addEventListener("click", async () => {
    // Already ended elsewhere (401): signed out all the same, and the reload shows it.
    await call("logout", {}).catch(() => {});
    location.reload();
  });
  $("try-form").addEventListener("submit", translate);
}

/**
 * Shows the service's state again when the user comes back to the tab: an engine's server
 * started or stopped meanwhile, or a change made elsewhere. Skipped while a change of this page
 * is on its way, and dropped when one was sent meanwhile: its answer is the newer state.
 */
async function refresh() {
  if (document.visibilityState !== "visible" || changes.pending > 0 || state === null) return;
  const sent = changes.sent;
  const fresh = await call("state").catch(() => null);
  if (!fresh || changes.sent !== sent) return;
  if (JSON.stringify(fresh) !== JSON.stringify(state)) {
    state = fresh;
    render();
  }
  // The state does not carry the token: one revealed here may have been rotated meanwhile
  // (`tolk token rotate`, another tab), and every client now gets 401 with the one shown.
  if (!revealed) return;
  const token = await revealToken().catch(() => undefined);
  if (!revealed || token === undefined) return;
  if (token === null) {
    await currentToken().catch(() => {});
    return;
  }
  $("token").textContent = token;
}

async function start() {
  wire();
  document.addEventListener("visibilitychange", refresh);
  await Promise.all([
    update(() => call("state")),
    loadLanguages().catch(() => {}),
  ]);
  document.body.dataset.ready = "true";
}

start();
