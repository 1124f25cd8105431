package fit

import "math"

// vLLM's KV-cache grouping (vllm/v1/core/kv_cache_utils.py, uniform page size): layers of one
// kind (full attention, sliding window) are cut into groups of equal size; one block of the
// pool holds one page for one layer of every group at the same position, so
//
//	blocks = available ÷ page ÷ group size
//	tokens = blocks ÷ groups × block size            (the logged "GPU KV cache size")
//	concurrency = blocks ÷ blocks one request needs  (the logged "Maximum concurrency")
//
// A full-attention layer needs ⌈L/16⌉ pages for a request of L tokens; a sliding-window layer
// needs ⌈min(window − 1 + max_num_batched_tokens, L)/16⌉ + 1 (SlidingWindowSpec
// .max_memory_usage_bytes): a prefill chunk is in flight beside the window, and the window need
// not start at a block boundary.

type vllmGroups struct {
	page float64 // bytes of one layer's block (16 tokens of the larger kind) on one device
	// fullBlock and slideBlock are the tokens one page holds for a layer of each kind: 16, or a
	// multiple of it for the kind whose token is smaller (vLLM's unify_kv_cache_spec_page_size
	// raises its block size until the pages are equal: Gemma-4-31B's global layers, 4 KV heads of
	// 512, hold 32 tokens in the page of 16 of a sliding layer's 16 heads of 256)
	fullBlock, slideBlock int
	size                  int // layers per group
	count                 int // groups
	full, slide           int // groups of each kind
	fullLayers            int
	slideLayers           int
	window                int
	batched               int
	cache                 VLLMCache // for each request's fixed state and windows (vllm_request.go)
	tp                    int
	// a hybrid's state layers, paged (vllm_hybrid.go): their groups, and the pages each layer
	// holds for a request
	stateLayers, state, statePages int
}

func newVLLMGroups(in VLLMInput) vllmGroups {
	c := in.Cache
	g := vllmGroups{
		fullLayers: max(0, c.FullLayers), slideLayers: max(0, c.SlidingLayers),
		window: c.Window, batched: in.MaxTokens, fullBlock: c.blockSize(), slideBlock: c.blockSize(),
		cache: c, tp: in.TP,
	}
	if g.window <= 0 { // no window: every layer caches every token
		g.fullLayers += g.slideLayers
		g.slideLayers = 0
	}
	fullTB, slideTB := c.fullTokenBytes(in.TP), c.layerTokenBytes(in.TP)
	if h, ok := g.hybrid(fullTB); ok {
		return h
	}
	block := float64(c.blockSize())
	switch {
	case g.slideLayers == 0 || !(slideTB > 0):
		g.page = block * fullTB
	case g.fullLayers == 0 || !(fullTB > 0):
		g.page = block * slideTB
	default:
		g.page = block * max(fullTB, slideTB)
		g.fullBlock = int(math.Round(g.page / fullTB))
		g.slideBlock = int(math.Round(g.page / slideTB))
	}
	switch {
	case g.fullLayers == 0 && g.slideLayers == 0:
		return vllmGroups{}
	case g.slideLayers == 0:
		g.size = g.fullLayers
	case g.fullLayers == 0:
		g.size = g.slideLayers
	default:
		g.size = groupSize(g.fullLayers, g.slideLayers)
	}
	g.full = ceilDiv(g.fullLayers, g.size)
	g.slide = ceilDiv(g.slideLayers, g.size)
	g.count = g.full + g.slide
	return g
}

// groupSize is the layers of a group when two kinds of a and b layers share the pool: the smaller
// count, or the larger where it is within vllmWindowGroupSlack of it (the smaller kind is then
// padded rather than the larger one split).
func groupSize(a, b int) int {
	lo, hi := min(a, b), max(a, b)
	if float64(hi) < float64(lo)*vllmWindowGroupSlack {
		return hi
	}
	return lo
}

func ceilDiv(a, b int) int {
	if b <= 0 {
		return 0
	}
	return (a + b - 1) / b
}

// tokenBlock is the tokens a page holds for the kind whose cache grows with the context (the
// full layers' where there are any): what the logged pool size counts in.
func (g vllmGroups) tokenBlock() int {
	if g.full > 0 {
		return g.fullBlock
	}
	return g.slideBlock
}

// fullPages and slidePages are the pages one layer of each kind needs for a request of n tokens.
func (g vllmGroups) fullPages(n int) int { return ceilDiv(n, g.fullBlock) }
func (g vllmGroups) slidePages(n int) int {
	return ceilDiv(min(g.window-1+g.batched, n), g.slideBlock) + 1
}

// requestBlocks is how many pool blocks one request of n tokens takes (at least 1): its pages,
// and its fixed state and windows in whole blocks.
func (g vllmGroups) requestBlocks(n int) int {
	b := g.full * g.fullPages(n)
	if g.slide > 0 {
		b += g.slide * g.slidePages(n)
	}
	b += g.state * g.statePages
	if fixed := g.fixedBytes(n); fixed > 0 {
		b += int(math.Ceil(fixed / (g.page * float64(g.size))))
	}
	return max(1, b)
}

// fixedBytes is what one request of n tokens holds beside its pages (vllm_request.go).
func (g vllmGroups) fixedBytes(n int) float64 { return g.cache.vllmRequestBytes(g.tp, n, g.batched) }

// needed is vLLM's start-up check: the bytes one request of n tokens needs, summed per layer.
func (g vllmGroups) needed(n int) float64 {
	pages := g.fullLayers * g.fullPages(n)
	if g.slideLayers > 0 {
		pages += g.slideLayers * g.slidePages(n)
	}
	pages += g.stateLayers * g.statePages
	return float64(pages)*g.page + g.fixedBytes(n)
}

// longest is vLLM's estimate_max_model_len: the largest length up to limit whose request fits
// in avail bytes (a binary search, as vLLM does; the need grows with the length); 0 if none.
func (g vllmGroups) longest(avail float64, limit int) int {
	lo, hi := 0, limit
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if g.needed(mid) <= avail {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// poolBytes is the KV memory a pool holding n requests of l tokens each needs: enough blocks for
// the requests, and at least what the start-up check asks for one.
func (g vllmGroups) poolBytes(n, l int) float64 {
	blocks := float64(n) * float64(g.requestBlocks(l))
	return max(blocks*g.page*float64(g.size), g.needed(l))
}
