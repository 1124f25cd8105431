// The floor of edge/bench.sh: a worker with no Go and no work, answering every request "ok".
// What workerd serves with it is the most it can serve on the machine: its HTTP handling and
// one JS call per request, which the fitclaim worker pays too before any Go runs.
export default {
  async fetch() {
    return new Response("ok\n", { headers: { "Content-Type": "text/plain; charset=utf-8" } });
  },
};
