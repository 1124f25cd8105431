# workerd configuration for running the fitclaim edge worker locally.
# Paths are relative to this file; edge/build.sh writes the bundle to ../dist-edge/.
# The socket address is overridden at run time: workerd serve --socket-addr http=127.0.0.1:$PORT
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .fitclaimWorker),
    # Outbound requests from the worker go here: nothing is allowed, so the worker has no network.
    (name = "nowhere", network = (allow = [])),
  ],
  sockets = [
    (name = "http", address = "127.0.0.1:8787", http = (), service = "main"),
  ],
);

const fitclaimWorker :Workerd.Worker = (
  modules = [
    (name = "entry.mjs", esModule = embed "../dist-edge/entry.mjs"),
    (name = "runtime.mjs", esModule = embed "../dist-edge/runtime.mjs"),
    (name = "wasm_exec.js", esModule = embed "../dist-edge/wasm_exec.js"),
    (name = "app.wasm", wasm = embed "../dist-edge/app.wasm"),
  ],
  compatibilityDate = "2026-04-20",
  globalOutbound = "nowhere",
);
