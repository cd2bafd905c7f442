// The check page: every committed scenario through the in-browser engine, compared with the
// committed recordings by agent_loop_sim's own code; shows N/N equal and the first difference.
import { call } from "./engine.js";

const box = document.getElementById("browser-check");

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;  // always text: recordings are data, not markup
  if (className) node.className = className;
  return node;
}

function show(result, seconds) {
  const verdict = `${result.equal}/${result.sessions} sessions equal`;
  box.dataset.state = result.ok ? "equal" : "different";
  box.dataset.sessions = result.sessions;
  box.dataset.equal = result.equal;
  box.replaceChildren(
    element("p", result.ok ? `${verdict}: the engine in this browser says exactly what the SDKs said ` +
      `(${result.messages} messages).` : `${verdict}.`, "browser-check__verdict"));
  // What the total counts: every release's sessions, the pinned releases' (the home page's count) first.
  const parts = (result.releases || []).map((r) =>
    `${r.sessions} with ${r.sdk}${r.pinned ? " (the pinned releases: the sessions the home page counts)" : ""}`);
  if (parts.length > 1) {
    box.append(element("p", `Counted over every SDK release the engine speaks, each against its own recordings: ` +
      `${parts.join("; ")}.`, "browser-check__counted"));
  }
  if (result.first) {
    box.append(element("p", `${result.differences} problem(s); the first:`));
    box.append(element("pre", result.first, "browser-check__first"));
  }
  const table = element("table");
  const head = table.createTHead().insertRow();
  const titles = ["Recording", "SDK", "Sessions", "Equal", "Differences"];
  for (const title of titles) head.append(element("th", title));
  const body = table.createTBody();
  for (const file of result.files) {
    const row = body.insertRow();
    [file.recording, file.sdk, file.sessions, file.equal, file.differences].forEach((cell, i) => {
      const td = element("td", String(cell));
      if (i) td.dataset.label = titles[i];  // on a phone, each value after its column's name (as the site's tables)
      row.append(td);
    });
  }
  box.append(table, element("p", `Loading Python and the engine, then the check: ${seconds.toFixed(1)} s ` +
    `(the check itself ${result.seconds.toFixed(2)} s).`, "browser-check__timing"));
}

const started = performance.now();
try {
  show(await call("check"), (performance.now() - started) / 1000);
} catch (error) {
  box.dataset.state = "error";
  box.replaceChildren(element("p", `The engine could not run in this browser: ${error.message}`, "browser-check__verdict"));
}
