# workerd configuration of edge/bench.sh's floor worker (ok.mjs); the socket address is given at
# run time (--socket-addr http=127.0.0.1:$PORT), like edge/workerd.capnp's.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .floorWorker),
    (name = "nowhere", network = (allow = [])),
  ],
  sockets = [
    (name = "http", address = "127.0.0.1:8788", http = (), service = "main"),
  ],
);

const floorWorker :Workerd.Worker = (
  modules = [(name = "ok.mjs", esModule = embed "ok.mjs")],
  compatibilityDate = "2026-04-20",
  globalOutbound = "nowhere",
);
