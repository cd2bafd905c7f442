// The wire log's few behaviours. Without this script every message is unfolded and nothing is
// lost: the server writes <details open>; the script folds long bodies, adds expand/collapse-all,
// opens and marks what a link such as #m3:/result/isError points at, and lets the search box
// take an error code with its minus sign.
(function () {
  "use strict";

  // The JSON Pointer of each line of a body written as json.dumps(indent=2) writes it.
  function linePointers(lines) {
    const stack = [], out = [];
    const esc = (k) => k.replace(/~/g, "~0").replace(/\//g, "~1");
    for (const line of lines) {
      const t = line.trim();
      if (t.startsWith("}") || t.startsWith("]")) { out.push(stack.pop().path); continue; }
      let path = "";
      if (stack.length) {
        const top = stack[stack.length - 1];
        if (top.array) path = top.path + "/" + top.next++;
        else {
          const m = t.match(/^("(?:[^"\\]|\\.)*"):/);
          path = top.path + "/" + esc(m ? JSON.parse(m[1]) : "");
        }
      }
      out.push(path);
      if (t.endsWith("{") || t.endsWith("[")) stack.push({ path, array: t.endsWith("["), next: 0 });
    }
    return out;
  }

  function openMessage(section) {
    const body = section && section.querySelector("details.msg-body");
    if (body) body.open = true;
  }

  function showTarget() {
    document.querySelectorAll(".wirelog .l.hl").forEach((el) => el.classList.remove("hl"));
    const hash = decodeURIComponent(location.hash.slice(1));
    const m = hash.match(/^(m\d+)(?::(.*))?$/);
    if (!m) return;
    const section = document.getElementById(m[1]);
    if (!section) return;
    openMessage(section);
    let first = section;
    if (m[2] !== undefined) {
      const lines = [...section.querySelectorAll("code .l")];
      const pointers = linePointers(lines.map((l) => l.textContent));
      const hit = lines.filter((_, i) => pointers[i] === m[2] || pointers[i].startsWith(m[2] + "/"));
      hit.forEach((l) => l.classList.add("hl"));
      if (hit.length) first = hit[0];
    }
    first.scrollIntoView({ block: m[2] !== undefined ? "center" : "start" });
  }

  function setUp() {
    const log = document.querySelector(".wirelog");
    if (log) {
      const target = decodeURIComponent(location.hash.slice(1)).split(":")[0];
      log.querySelectorAll("details.msg-body[data-fold]").forEach((d) => {
        if (d.closest(".msg").id !== target) d.open = false;
      });
      const bar = document.createElement("div");
      bar.className = "wirelog-bar";
      for (const [label, open] of [["Expand all", true], ["Collapse all", false]]) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "md-button";
        b.textContent = label;
        b.addEventListener("click", () => log.querySelectorAll("details.msg-body").forEach((d) => { d.open = open; }));
        bar.appendChild(b);
      }
      log.parentNode.insertBefore(bar, log);
      showTarget();
      window.addEventListener("hashchange", showTarget);
    }
  }

  // Lunr reads a leading "-" as "must not contain": "-32600" would list every page but those
  // holding 32600. The index splits codes at "-" anyway, so the sign is dropped before Material
  // reads the query (a capturing listener runs before the search box's own).
  document.addEventListener("input", (e) => {
    const el = e.target;
    if (el && el.matches && el.matches("input.md-search__input") && /(^|\s)-\d/.test(el.value)) {
      el.value = el.value.replace(/(^|\s)-(?=\d)/g, "$1");
    }
  }, true);

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
