// The engine in the browser: this checkout's agent_loop_sim under Pyodide, in a Web Worker
// (engine-worker.js) so the page stays responsive while Python loads and runs.
// call(op, args) sends one request to the worker and resolves with its answer.
let worker = null;
let nextId = 0;
const pending = new Map();

function start() {
  worker = new Worker(new URL("engine-worker.js", import.meta.url), { type: "module" });
  worker.onmessage = ({ data }) => {
    const request = pending.get(data.id);
    pending.delete(data.id);
    if (data.error !== undefined) request.reject(new Error(data.error));
    else request.resolve(data.result);
  };
  worker.onerror = (event) => {
    for (const request of pending.values()) request.reject(new Error(event.message || "the engine's worker failed"));
    pending.clear();
  };
}

export function call(op, args = {}) {
  if (worker === null) start();
  return new Promise((resolve, reject) => {
    const id = ++nextId;
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, op, ...args });
  });
}
