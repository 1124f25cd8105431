package bridge

import "testing"

// BenchmarkRenderResultJSON is the bridge's share of one page render: the result as JSON text,
// for a render done once (bench/bridgebench times the render and this together).
func BenchmarkRenderResultJSON(b *testing.B) {
	tg, r := renderLink(b, "m=NousResearch%2FLlama-2-7b-chat-hf")
	b.ReportAllocs()
	for b.Loop() {
		_ = ResultJSON(tg, r)
	}
}

// BenchmarkRenderColumnsJSON is the page's form of the same (fitclaim.render(target, {columns:
// true}): the matches as columns), into a buffer kept from op to op as the page keeps it.
func BenchmarkRenderColumnsJSON(b *testing.B) {
	tg, r := renderLink(b, "m=NousResearch%2FLlama-2-7b-chat-hf")
	b.ReportAllocs()
	var buf []byte
	for b.Loop() {
		buf = AppendResultColumnsJSON(buf[:0], tg, r)
	}
}
