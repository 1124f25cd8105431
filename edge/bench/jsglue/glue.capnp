# workerd configuration of edge/bench/jsglue (glue.mjs); the socket address is given at run time.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "main", worker = .glueWorker)],
  sockets = [(name = "http", address = "127.0.0.1:8789", http = (), service = "main")],
);

const glueWorker :Workerd.Worker = (
  modules = [(name = "glue.mjs", esModule = embed "glue.mjs")],
  compatibilityDate = "2026-04-20",
);
