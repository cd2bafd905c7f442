// The playground: a scenario in, the in-browser engine's transcript out, stepped through
// message by message with the model's state at each step. The scenario travels in the URL
// fragment (#scenario=<raw deflate, base64url>, and &release=<version> when the model speaks an
// SDK release other than the pinned one; &session=<n>&step=<n> the message shown), so a link
// reopens it at the same step.
import { call } from "./engine.js";

const SITE = new URL("../browser/", import.meta.url);
const root = document.getElementById("pg-app");

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "text") node.textContent = value;  // always text: scenarios are data, not markup
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

// --- the URL fragment: the browser's own compression streams, no library needed -------------

async function pipe(bytes, stream) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
}

async function encode(text) {
  const packed = await pipe(new TextEncoder().encode(text), new CompressionStream("deflate-raw"));
  let binary = "";
  for (const byte of packed) binary += String.fromCharCode(byte);
  return "scenario=" + btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function releaseOf(fragment) {
  return new URLSearchParams(fragment.replace(/^#/, "")).get("release") || "";
}

// Where a link opens: its session (1-based, among the file's) and step (the message number).
function placeOf(fragment) {
  const params = new URLSearchParams(fragment.replace(/^#/, ""));
  const number = (key) => (/^[1-9][0-9]{0,6}$/.test(params.get(key) || "") ? Number(params.get(key)) : 1);
  return { session: number("session") - 1, step: number("step") };
}

// A link is read by a reader who did not write it: its size is bounded before anything is
// decompressed or parsed. The text may be at most the engine's largest file (the page's
// data-max-bytes, the command line's --max-file-bytes default); the fragment at most what such a
// text could take deflated and base64-encoded (deflate adds at most 5 bytes a 16 KiB block).
const MAX_TEXT = Number(root.dataset.maxBytes) || 16 * 1024 * 1024;
const MAX_FRAGMENT = Math.ceil((MAX_TEXT + 5 * Math.ceil(MAX_TEXT / 16384) + 16) * 4 / 3);

class LinkError extends Error {}

async function inflate(packed, limit) {
  // Streamed, and stopped as soon as the text is over the limit: a 0.5 MB link can hold 400 MB.
  const reader = new Blob([packed]).stream().pipeThrough(new DecompressionStream("deflate-raw")).getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    let step;
    try {
      step = await reader.read();
    } catch {
      throw new LinkError("The link's scenario cannot be read (the address was cut or changed).");
    }
    if (step.done) break;
    size += step.value.length;
    if (size > limit) {
      reader.cancel().catch(() => {});
      throw new LinkError(`The link's scenario is over the largest file limit of ${limit.toLocaleString("en")} ` +
        "bytes (the command line's --max-file-bytes); it was not opened.");
    }
    chunks.push(step.value);
  }
  const text = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) { text.set(chunk, at); at += chunk.length; }
  return new TextDecoder().decode(text);
}

async function decode(fragment) {
  const encoded = new URLSearchParams(fragment.replace(/^#/, "")).get("scenario");
  if (!encoded) return null;
  if (encoded.length > MAX_FRAGMENT) {
    throw new LinkError(`The link's scenario is over the largest file limit of ${MAX_TEXT.toLocaleString("en")} ` +
      "bytes (the command line's --max-file-bytes); it was not opened.");
  }
  let binary;
  try {
    binary = atob(encoded.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    throw new LinkError("The link's scenario cannot be read (the address was cut or changed).");
  }
  return inflate(Uint8Array.from(binary, (c) => c.charCodeAt(0)), MAX_TEXT);
}

function linkRefused(failure) {
  // Whenever a link is opened, first or later (hashchange), its failure is said, never thrown.
  error.textContent = failure instanceof LinkError ? failure.message
    : "The link's scenario cannot be read (the address was cut or changed).";
  error.hidden = false;
  result.hidden = true;
  status.textContent = "";
  root.dataset.state = "error";
}

// --- JSON, highlighted with Pygments' class names --------------------------------------------
// Hand-written rather than a highlighting library: the text is already pretty JSON from Python,
// and Pygments' classes (nt, s2, mi, mf, kc, p) take Material's own colours in both palettes,
// exactly as on the session pages, which a library's own classes and theme would not.
const TOKEN = /("(?:[^"\\]|\\.)*")(\s*:)?|(-?\d+)(\.\d+)?([eE][+-]?\d+)?|(true|false|null)|([{}[\],:])/g;

function highlighted(text) {
  const code = element("code");
  let last = 0;
  for (const m of text.matchAll(TOKEN)) {
    code.append(text.slice(last, m.index));
    if (m[1] !== undefined) {
      code.append(element("span", { class: m[2] ? "nt" : "s2", text: m[1] }));
      if (m[2]) code.append(m[2].slice(0, -1), element("span", { class: "p", text: ":" }));
    } else if (m[3] !== undefined) {
      code.append(element("span", { class: m[4] || m[5] ? "mf" : "mi", text: m[0] }));
    } else {
      code.append(element("span", { class: m[6] ? "kc" : "p", text: m[0] }));
    }
    last = m.index + m[0].length;
  }
  code.append(text.slice(last));
  return code;
}

function messageBlock(message) {
  const raw = message.raw !== undefined;
  const code = raw ? element("code", { text: message.text }) : highlighted(message.text);
  return element("div", { class: `language-${raw ? "text" : "json"} highlight` }, element("pre", {}, code));
}

// The HTTP envelope an A2A message crossed the wire in (as the session pages show it): the
// request line or the status, then each header, in the recording's order.
function envelope(http) {
  const first = "method" in http
    ? element("span", {}, element("b", { text: String(http.method) }), ` ${http.path ?? ""}`)
    : element("span", {}, element("b", { text: `HTTP ${http.status ?? "?"}` }));
  const headers = (http.headers || []).filter((h) => Array.isArray(h) && typeof h[0] === "string").map(([name, value]) =>
    element("span", { class: "hdr" }, element("span", { class: "hn", text: `${name}:` }), ` ${value}`));
  return element("div", { class: "msg-http playground__http" }, first, ...headers);
}

// --- the model's state ------------------------------------------------------------------------

const STATE_OF = { server: "The server", agent: "The agent's task store" };

function stateText(state) {
  if (state === null) return "nothing handled yet";
  return Object.entries(state).map(([key, value]) => {
    if (Array.isArray(value)) {
      const items = value.map((v) => (typeof v === "object" ? Object.values(v).join(" ") : String(v)));
      return `${key}: ${items.length ? items.join(", ") : "none"}`;
    }
    return `${key}: ${value}`;
  }).join(" · ");
}

// --- the page ---------------------------------------------------------------------------------

const pick = element("select", { id: "pg-pick", "aria-label": "A committed session" },
  element("option", { value: "", text: "Your own scenario (edit below)" }));
const editor = element("textarea", { id: "pg-editor", spellcheck: "false", rows: "14", wrap: "off",
  "aria-label": "The scenario (JSON)" });
// Line numbers beside the editor (errors give a line and a column): a gutter kept in step with
// the text and its scrolling; no editor library.
// The numbers sit in an inner column moved with the text: the gutter itself takes the
// editor's height and adds none of its own.
const numbers = element("div", { class: "playground__numbers" });
const gutter = element("div", { id: "pg-gutter", class: "playground__gutter", "aria-hidden": "true" }, numbers);
const editorBox = element("div", { class: "playground__editor" }, gutter, editor);

function followScroll() {
  numbers.style.transform = `translateY(${-editor.scrollTop}px)`;
}

function numberLines(errorLine = 0) {
  const count = editor.value.split("\n").length;
  if (numbers.childElementCount !== count) {
    numbers.replaceChildren(...Array.from({ length: count }, (_, i) => element("span", { text: String(i + 1) })));
    gutter.style.width = `${String(count).length + 2}ch`;
  }
  for (const mark of numbers.querySelectorAll(".playground__gutter-error")) mark.classList.remove("playground__gutter-error");
  if (errorLine >= 1 && errorLine <= count) numbers.children[errorLine - 1].classList.add("playground__gutter-error");
  followScroll();
}

function setEditor(text) {
  editor.value = text;
  numberLines();
}
// The SDK releases the model speaks (from the page: agent_loop_sim's release tables): the pinned
// ones by default, or another, as `run --release` (a session of the other family then fails as there).
const releases = JSON.parse(root.dataset.releases || "[]");
const releasePick = element("select", { id: "pg-release", "aria-label": "The SDK release the model speaks" },
  element("option", { value: "", text: `pinned (${releases.filter((r) => r.pinned).map((r) => `${r.package} ${r.version}`).join(", ")})` }),
  ...releases.filter((r) => !r.pinned).map((r) => element("option", { value: r.version, text: `${r.package} ${r.version}` })));
const run = element("button", { id: "pg-run", class: "md-button md-button--primary", type: "button", text: "Run" });
const share = element("a", { id: "pg-link", href: "#", text: "Link to this scenario" });
const status = element("span", { id: "pg-status", class: "playground__status" });
const error = element("pre", { id: "pg-error", class: "playground__error", hidden: "" });
// A link naming a release this page's model does not speak (an older site's link): said, not ignored.
const notice = element("p", { id: "pg-notice", class: "playground__notice", hidden: "" });
const sessionPick = element("select", { id: "pg-session", "aria-label": "Session" });
const position = element("span", { id: "pg-position", class: "playground__position" });
const state = element("div", { id: "pg-state", class: "playground__state" });
const transcript = element("ol", { id: "pg-transcript", class: "playground__transcript" });
const buttons = {};
for (const [step, label, title] of [["first", "First", "First message (Home)"], ["prev", "◀ Previous", "Previous message (←)"],
  ["next", "Next ▶", "Next message (→)"], ["last", "Last", "Last message (End)"]]) {
  buttons[step] = element("button", { type: "button", class: "md-button", "data-step": step, title, text: label });
}
const result = element("div", { class: "playground__result", hidden: "" },
  element("div", { class: "playground__stepper" },
    element("div", { class: "playground__controls" }, sessionPick, buttons.first, buttons.prev, position,
      buttons.next, buttons.last),
    state),
  transcript);
root.append(
  element("div", { class: "playground__source" },
    element("label", { class: "playground__pick" }, "Session: ", pick),
    element("label", { class: "playground__pick" }, "SDK release: ", releasePick),
    notice,
    editorBox,
    element("div", { class: "playground__actions" }, run, share, status),
    error),
  result);

let committed = [];  // [{scenario, name, title, text}]
let played = [];     // the sessions of the last run
let current = { session: 0, message: 0 };
let base = "";       // the fragment of the scenario last run (scenario, release), without the step

function showMessage(index, scroll = true) {
  const session = played[current.session];
  const count = session.messages.length;
  current.message = Math.max(0, Math.min(count - 1, index));
  const message = session.messages[current.message];
  for (const item of transcript.children) item.classList.toggle("playground__current", Number(item.dataset.n) === message.n);
  position.textContent = `Message ${message.n} of ${count}`;
  state.replaceChildren(element("strong", { text: `${STATE_OF[session.party]} after message ${message.n}: ` }),
    element("span", { text: stateText(message.state) }));
  buttons.first.disabled = buttons.prev.disabled = current.message === 0;
  buttons.next.disabled = buttons.last.disabled = current.message === count - 1;
  root.dataset.step = message.n;
  // The step is in the address: a link copied now opens at this message.
  if (base) {
    const at = `#${base}${current.session ? `&session=${current.session + 1}` : ""}&step=${message.n}`;
    if (location.hash !== at) history.replaceState(null, "", at);
    share.href = at;
  }
  if (scroll) transcript.children[current.message].scrollIntoView({ block: "start" });
}

function showSession(index, step = 1) {
  current.session = index;
  sessionPick.value = String(index);
  const session = played[index];
  transcript.replaceChildren(...session.messages.map((m) => {
    const heading = element("h3", { text: `${m.n}. ${m.from} → ${m.to}${m.sse ? " (SSE event)" : ""}: ${m.summary}` });
    // A body-less HTTP message (the card's GET) shows its envelope only, not a JSON null.
    const body = m.http && m.json === null && m.raw === undefined ? [] : [messageBlock(m)];
    const item = element("li", { id: `pg-m${m.n}`, "data-n": m.n, class: "playground__message" }, heading,
      ...(m.http ? [envelope(m.http)] : []), ...body);
    item.addEventListener("click", () => showMessage(m.n - 1));
    return item;
  }));
  showMessage(step - 1, step > 1);
}

async function play(place = { session: 0, step: 1 }) {
  // Running from the first moment: the address and the link change only after the encoding
  // below, and nobody should read the old ones as this run's.
  root.dataset.state = "running";
  status.textContent = "Running…";
  const text = editor.value;
  const release = releasePick.value;
  const fragment = await encode(text) + (release ? `&release=${encodeURIComponent(release)}` : "");
  base = fragment;
  history.replaceState(null, "", "#" + fragment);
  share.href = "#" + fragment;
  const started = performance.now();
  let answer;
  try {
    answer = await call("play", { text, release });
  } catch (failure) {
    answer = { error: `The engine could not run in this browser: ${failure.message}` };
  }
  status.textContent = "";
  if (answer.error) {
    error.textContent = answer.error;  // the command line's own words, naming the editor
    const at = /\(line (\d+), column (\d+)\)$/.exec(answer.error);
    numberLines(at ? Number(at[1]) : 0);
    error.hidden = false;
    result.hidden = true;
    root.dataset.state = "error";
    return;
  }
  error.hidden = true;
  numberLines();
  played = answer.sessions;
  sessionPick.replaceChildren(...played.map((s, i) => element("option", { value: i, text: s.name })));
  sessionPick.hidden = played.length < 2;
  result.hidden = false;
  const session = Math.min(place.session, played.length - 1);
  showSession(session, Math.min(place.step, played[session].messages.length));
  status.textContent = `${played.reduce((n, s) => n + s.messages.length, 0)} messages in ` +
    `${((performance.now() - started) / 1000).toFixed(2)} s`;
  root.dataset.state = "played";
}

function choose(index) {
  pick.value = String(index);
  setEditor(committed[index].text);
}

run.addEventListener("click", () => play());
pick.addEventListener("change", () => { if (pick.value !== "") { choose(Number(pick.value)); play(); } });
releasePick.addEventListener("change", () => { notice.hidden = true; play(); });
editor.addEventListener("input", () => { pick.value = ""; numberLines(); });
editor.addEventListener("scroll", followScroll);
editor.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) { event.preventDefault(); play(); }
});
sessionPick.addEventListener("change", () => showSession(Number(sessionPick.value)));
for (const [step, button] of Object.entries(buttons)) {
  button.addEventListener("click", () => stepTo(step));
}

function stepTo(step) {
  const last = played[current.session].messages.length - 1;
  showMessage({ first: 0, prev: current.message - 1, next: current.message + 1, last }[step]);
}

const KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
document.addEventListener("keydown", (event) => {
  const typing = event.target.closest && event.target.closest("textarea, input, select");
  if (typing || result.hidden || !(event.key in KEYS) || event.altKey || event.ctrlKey || event.metaKey) return;
  event.preventDefault();
  stepTo(KEYS[event.key]);
});

function chooseRelease(release) {  // (one the page does not offer leaves the pick as it was, and is said)
  const offered = [...releasePick.options].some((o) => o.value === release);
  if (offered) releasePick.value = release;
  notice.textContent = offered ? "" : `The link asks for SDK release ${release}, which the model here does not ` +
    `speak; it plays ${releasePick.selectedOptions[0].text} instead.`;
  notice.hidden = offered;
}

window.addEventListener("hashchange", async () => {
  let text;
  try {
    text = await decode(location.hash);
  } catch (failure) {
    linkRefused(failure);
    return;
  }
  const release = releaseOf(location.hash);
  const place = placeOf(location.hash);
  if (text !== null && (text !== editor.value || release !== releasePick.value)) {
    if (text !== editor.value) { pick.value = ""; setEditor(text); }
    chooseRelease(release);
    play(place);
  } else if (text !== null && played.length) {  // the same scenario, another step
    const session = Math.min(place.session, played.length - 1);
    if (session !== current.session) showSession(session, place.step);
    else showMessage(place.step - 1);
  }
});

// Start: the committed sessions for the picker, then the scenario of the link (or the first
// session of scenarios/mcp.json), run at once.
committed = await (await fetch(new URL("sessions.json", SITE))).json();
const groups = new Map();
committed.forEach((s, i) => {
  if (!groups.has(s.scenario)) groups.set(s.scenario, element("optgroup", { label: s.scenario }));
  groups.get(s.scenario).append(element("option", { value: i, text: `${s.name}: ${s.title}` }));
});
pick.append(...groups.values());
let opened = null;
let refused = null;
try {
  opened = await decode(location.hash);
} catch (failure) {
  refused = failure;
}
if (opened !== null) {
  setEditor(opened);
  chooseRelease(releaseOf(location.hash));
  const same = committed.findIndex((s) => s.text === opened);
  pick.value = same >= 0 ? String(same) : "";
} else {
  const first = committed.findIndex((s) => s.scenario.endsWith("/mcp.json"));
  choose(Math.max(first, 0));
}
// A link refused is said, and nothing runs: the editor holds the first session, for Run.
if (refused !== null) linkRefused(refused);
else play(placeOf(location.hash));
