// The worker that runs the engine: loads Pyodide and the engine zip from this site (never from
// anywhere else), then answers the page's requests by calling agent_loop_sim.inbrowser.
const SITE = new URL("../browser/", import.meta.url);
const PROJECT = "/project";      // the committed scenarios and recordings, as a checkout
const PLAYGROUND = "/playground"; // the playground's scenario file

let engine = null;  // a promise of agent_loop_sim.inbrowser

async function bytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function load() {
  const { loadPyodide } = await import(new URL("pyodide/pyodide.mjs", SITE).href);
  const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", SITE).href });
  pyodide.unpackArchive(await bytes(new URL("engine/agent_loop_sim.zip", SITE)), "zip", { extractDir: "/engine" });
  pyodide.runPython("import sys; sys.path.insert(0, '/engine')");
  return { pyodide, inbrowser: pyodide.pyimport("agent_loop_sim.inbrowser") };
}

// The committed files, fetched afresh on every check (so a test can change what is served).
async function writeProject({ pyodide }) {
  const project = new URL("project/", SITE);
  const listing = JSON.parse(new TextDecoder().decode(await bytes(new URL("files.json", project))));
  for (const [folder, names] of Object.entries(listing)) {
    const dir = `${PROJECT}/${folder}`;
    pyodide.FS.mkdirTree(dir);
    for (const old of pyodide.FS.readdir(dir)) if (old.endsWith(".json")) pyodide.FS.unlink(`${dir}/${old}`);
    for (const name of names) pyodide.FS.writeFile(`${dir}/${name}`, await bytes(new URL(`${folder}/${name}`, project)));
  }
}

// The committed worlds at /worlds, where a playground scenario's "../worlds/NAME.json" finds them.
async function writeWorlds({ pyodide }) {
  const project = new URL("project/", SITE);
  const listing = JSON.parse(new TextDecoder().decode(await bytes(new URL("files.json", project))));
  pyodide.FS.mkdirTree("/worlds");
  for (const name of listing.worlds || []) {
    pyodide.FS.writeFile(`/worlds/${name}`, await bytes(new URL(`worlds/${name}`, project)));
  }
}

const OPS = {
  ready: async () => true,
  check: async (e) => { await writeProject(e); return JSON.parse(e.inbrowser.check_project(PROJECT)); },
  engineSeconds: async (e) => { await writeProject(e); return e.inbrowser.engine_seconds(PROJECT); },
  play: async (e, { text, release }) => {
    await writeWorlds(e);
    e.pyodide.FS.mkdirTree(PLAYGROUND);
    e.pyodide.FS.writeFile(`${PLAYGROUND}/playground.json`, text);
    e.pyodide.FS.chdir(PLAYGROUND);
    // Errors in the command line's words, naming what the reader sees (the editor), not this file.
    return JSON.parse(e.inbrowser.play_file("playground.json", release || "", "the editor"));
  },
};

self.onmessage = async ({ data }) => {
  try {
    engine ??= load();
    const result = await OPS[data.op](await engine, data);
    self.postMessage({ id: data.id, result });
  } catch (error) {
    self.postMessage({ id: data.id, error: String(error && error.message || error) });
  }
};
