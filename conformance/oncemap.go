package conformance

import "sync"

// onceMap computes each key's value once; concurrent callers of one key wait for that one
// computation (the compiled selectors; the devices an alternative matches in a shared fleet).
type onceMap[V any] struct {
	mu sync.Mutex
	m  map[string]*onceValue[V]
}

type onceValue[V any] struct {
	once sync.Once
	v    V
	err  error
}

// get is key's value, computed by compute on the key's first call.
func (c *onceMap[V]) get(key string, compute func() (V, error)) (V, error) {
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]*onceValue[V]{}
	}
	e := c.m[key]
	if e == nil {
		e = &onceValue[V]{}
		c.m[key] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.v, e.err = compute() })
	return e.v, e.err
}
