// tolk settings page: the engine cards (address, model, order). Loaded before settings.js, which
// renders them (renderEngines) and holds what they use: state, call, update, render, element, $.
"use strict";

function engineCard(engine, index) {
  const message = element("p", { className: "message", role: "alert" });
  const fields = [];
  if (engine.base_url !== null || engine.id !== "local-llm") {
    fields.push(labelled(
      "Address",
      engine,
      element("input", {
        name: "base_url",
        defaultValue: engine.base_url ?? "",
        placeholder: "http://127.0.0.1:PORT",
        inputMode: "url",
        spellcheck: false,
      }),
    ));
  }
  const modelInput = element("input", {
    name: "model",
    defaultValue: engine.model ?? "",
    placeholder: engine.id === "local-llm" ? "org/name" : "first model the server lists",
    spellcheck: false,
  });
  if (engine.models?.length) {
    const list = element("datalist", { id: `models-${engine.id}` });
    for (const model of engine.models) list.append(element("option", { value: model }));
    modelInput.setAttribute("list", list.id);
    fields.push(list);
  }
  fields.push(labelled("Model", engine, modelInput));
  if (engine.id === "compatible-api") fields.push(labelled("API key", engine, keyInput(engine)));

  const save = element("button", { type: "button", className: "primary", textContent: "Save" });
  // One Save per card: the name says whose (a screen reader lists buttons by name).
  save.setAttribute("aria-label", `Save ${engine.name}`);
  const card = element("li", { className: "engine" }, [
    element("div", { className: "engine-head" }, [
      element("strong", { textContent: `${index + 1}. ${engine.name}` }),
      element("code", { textContent: engine.id }),
      element("span", {
        className: `badge ${engine.ready ? "ready" : "not-ready"}`,
        textContent: engine.ready ? "ready" : "not ready",
      }),
      orderButton("↑", `Move ${engine.name} up`, index, -1),
      orderButton("↓", `Move ${engine.name} down`, index, 1),
    ]),
    // Why it is not ready, in the engine's words ("cannot reach …"): what the user can fix.
    ...(engine.ready || !engine.hint ? [] : [
      element("p", { className: "why", textContent: engine.hint }),
    ]),
    element("div", { className: "fields" }, fields),
    element("div", { className: "row-end" }, [save, message]),
  ]);
  card.dataset.engine = engine.id;
  if (engine.id === "compatible-api") card.lastChild.before(keyLine(card, engine, message));
  save.addEventListener("click", () => saveEngine(card, engine, message));
  // No form around the fields (nothing is posted by navigation): Enter saves as Save does.
  for (const input of card.querySelectorAll("input[name]")) {
    input.addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      event.preventDefault();
      saveEngine(card, engine, message);
    });
  }
  return card;
}

/**
 * The key field is write-only: it starts empty whatever is stored, a key typed there is sent by
 * Save (or Enter) and the field is emptied again, so a key is never shown nor sent twice.
 */
function keyInput(engine) {
  return element("input", {
    name: "api_key",
    type: "password",
    // Not "off", which Chromium ignores for passwords: it could fill in a saved password of
    // this origin, which the next Save of the card would then send to the server as its key.
    autocomplete: "new-password",
    spellcheck: false,
    placeholder: engine.has_api_key ? "type a new key to replace it" : "none",
  });
}

/** Whether a key is set (never the key), and a way to remove it. */
function keyLine(card, engine, message) {
  const remove = element("button", {
    type: "button",
    className: "quiet remove-key",
    textContent: "Remove key",
    disabled: !engine.has_api_key,
  });
  remove.setAttribute("aria-label", `Remove the API key of ${engine.name}`);
  remove.addEventListener("click", async () => {
    await saveEngine(card, engine, message, { api_key: null });
    document.querySelector(`[data-engine="${engine.id}"] input[name="api_key"]`)?.focus();
  });
  return element("p", { className: "key hint" }, [
    "API key: ",
    element("strong", {
      className: "key-state",
      textContent: engine.has_api_key ? "set" : "not set",
    }),
    " (sent as a bearer key if the server needs one; never shown here) ",
    remove,
  ]);
}

/** A field's visible label; its name says whose it is (every card has an Address and a Model). */
function labelled(text, engine, input) {
  input.setAttribute("aria-label", `${text} of ${engine.name}`);
  return element("label", {}, [text, input]);
}

function orderButton(text, label, index, step) {
  const target = index + step;
  const button = element("button", { type: "button", className: "quiet", textContent: text });
  button.setAttribute("aria-label", label);
  button.dataset.move = String(step);
  button.disabled = target < 0 || target >= state.engines.length;
  button.addEventListener("click", async () => {
    const shown = state.engines.map((engine) => engine.id);
    // The move is sent as a whole order: one built on an order changed meanwhile (another tab,
    // the file by hand) would undo that change, so the page shows the current order instead.
    const fresh = await call("state").catch(() => null);
    if (fresh && fresh.engines.map((engine) => engine.id).join() !== shown.join()) {
      state = fresh;
      render();
      toast("The order was changed elsewhere (another tab or the file): here it is now", {
        failed: true,
      });
      return;
    }
    const order = [...shown];
    [order[index], order[target]] = [order[target], order[index]];
    await update(() => call("engines", { order }), "Order saved");
  });
  return button;
}

/** What the user changed in a card: a field left as shown is not sent (see saveEngine). */
function typedChange(card, engine) {
  const change = {};
  for (const input of card.querySelectorAll("input[name]")) {
    const value = input.value.trim();
    // Only what the user changed here: a field left as shown keeps whatever another tab or a
    // hand edit of the file set since this page loaded it. The key field is shown empty.
    if (value === (engine[input.name] ?? "")) continue;
    change[input.name] = value === "" && engine.id !== "local-llm" ? null : value;
  }
  return change;
}

async function saveEngine(card, engine, message, change = typedChange(card, engine)) {
  const id = engine.id;
  message.className = "message";
  message.textContent = "";
  for (const input of card.querySelectorAll("input[aria-invalid]")) {
    input.removeAttribute("aria-invalid");
    input.removeAttribute("aria-describedby");
  }
  try {
    state = await call("engines", { engines: { [id]: change } });
    // A key sent is not put back in the new card (renderEngines keeps what is typed, unsaved).
    const key = card.querySelector('input[name="api_key"]');
    if (key) key.value = "";
    render();
    const fresh = document.querySelector(`[data-engine="${id}"] .message`);
    fresh.className = "message ok";
    fresh.textContent = "Saved";
  } catch (error) {
    const name = error.param?.split(".").pop();
    const field = { base_url: "The address", model: "The model", api_key: "The API key" }[name];
    message.className = "message error";
    message.textContent = field ? `${field} ${error.message}` : error.message;
    // The message sits under the card's fields: the field at fault is marked, described by it
    // and focused, so a keyboard user who pressed Save lands where the correction is typed.
    const input = field && card.querySelector(`input[name="${name}"]`);
    if (!input) return;
    message.id = `message-${id}`;
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", message.id);
    input.focus();
  }
}

/** The fields a refused save marked (see saveEngine), with their message and refused value. */
function refusedFields() {
  return [...$("engine-list").querySelectorAll("input[aria-invalid]")].map((input) => ({
    id: input.closest("[data-engine]").dataset.engine,
    name: input.name,
    value: input.value,
    message: input.closest("[data-engine]").querySelector(".message").textContent,
  }));
}

/**
 * Marks again, in the new cards, the fields whose refused value is still typed: a render for
 * another reason (a switch, the tab shown again) once dropped the message and the mark, and the
 * value stayed, unsaved, with nothing saying why.
 */
function markRefused(refused) {
  for (const { id, name, value, message } of refused) {
    const card = document.querySelector(`[data-engine="${id}"]`);
    const input = card?.querySelector(`input[name="${name}"]`);
    if (input?.value !== value) continue;
    const node = card.querySelector(".message");
    node.className = "message error";
    node.textContent = message;
    node.id = `message-${id}`;
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", node.id);
  }
}

// Called by settings.js (classic scripts share one global scope; the linter sees one file).
// deno-lint-ignore no-unused-vars
function renderEngines() {
  // New cards replace the old ones: the control that had the focus (a keyboard user's place,
  // say a Move button pressed twice) gets it back in its engine's new card, or that card's
  // other Move button when this one is now disabled (the engine reached an end of the list).
  const focused = document.activeElement;
  const card = focused?.closest?.("[data-engine]");
  const key = card &&
    (focused.dataset.move !== undefined
      ? `[data-move="${focused.dataset.move}"]`
      : focused.name
      ? `input[name="${focused.name}"]`
      : "button.primary");
  // What is typed and not saved (a field whose value is not the one shown, its defaultValue)
  // is put back, unless that field's saved value changed meanwhile (saved now, or elsewhere).
  const typed = [...$("engine-list").querySelectorAll("input[name]")]
    .filter((input) => input.value !== input.defaultValue)
    .map((input) => [input.closest("[data-engine]").dataset.engine, input]);
  const refused = refusedFields();
  $("engine-list").replaceChildren(...state.engines.map(engineCard));
  for (const [id, old] of typed) {
    const input = document.querySelector(`[data-engine="${id}"] input[name="${old.name}"]`);
    if (input?.defaultValue === old.defaultValue) input.value = old.value;
  }
  markRefused(refused);
  if (!key) return;
  const fresh = document.querySelector(`[data-engine="${card.dataset.engine}"]`);
  const control = fresh?.querySelector(key);
  (control?.disabled ? fresh.querySelector("[data-move]:not(:disabled)") : control)?.focus();
}
