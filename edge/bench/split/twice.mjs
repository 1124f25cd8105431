// Appended by run.sh to a copy of edge/entry.mjs whose "export default {" it renamed to
// "const fitclaim = {": a measurement-only worker (never built into dist-edge/, never deployed)
// that serves every request twice, through entry.mjs each time, and answers the second. Its
// CPU time per request less the worker's is what a second call into Go costs in the same
// request, after the first has made Go's code and data warm.
export default {
  async fetch(request, env, ctx) {
    await fitclaim.fetch(request, env, ctx);
    return fitclaim.fetch(request, env, ctx);
  },
};
