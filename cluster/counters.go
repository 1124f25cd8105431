package cluster

import (
	"math/big"
	"sort"
	"strconv"
)

// counterPool is a pool's shared counters (KEP-4815) as the allocator sees them before it picks
// for this claim: each counter set's capacity, less what the devices other claims hold consume.
// Only the pool's newest generation counts, counter slices and device slices alike.
type counterPool struct {
	problem string                         // why the allocator deems the pool invalid, or ""
	names   []string                       // counter sets in name order, for stable reasons
	left    map[string]map[string]*big.Rat // counter set → counter → left (may be negative)
}

// counterPools gathers every pool's counter sets and subtracts what taken devices consume, as
// the allocator's checkAvailableCounters does. A pool whose devices consume counters no set
// of the pool publishes, or that publishes a set twice, is invalid there.
func counterPools(slices []Slice, pools map[poolKey]*poolState, taken map[deviceID]string) map[poolKey]*counterPool {
	out := map[poolKey]*counterPool{}
	get := func(k poolKey) *counterPool {
		if out[k] == nil {
			out[k] = &counterPool{left: map[string]map[string]*big.Rat{}}
		}
		return out[k]
	}
	for _, s := range slices {
		k := poolKey{s.Driver, s.Pool}
		if s.Generation != pools[k].generation {
			continue
		}
		for _, cs := range s.CounterSets {
			cp := get(k)
			if _, dup := cp.left[cs.Name]; dup {
				if cp.problem == "" {
					cp.problem = "duplicate counter set name " + cs.Name
				}
				continue
			}
			cp.names = append(cp.names, cs.Name)
			cp.left[cs.Name] = map[string]*big.Rat{}
			for name, q := range cs.Counters {
				cp.left[cs.Name][name] = new(big.Rat).Set(q.value)
			}
		}
	}
	for _, s := range slices {
		k := poolKey{s.Driver, s.Pool}
		if s.Generation != pools[k].generation {
			continue
		}
		for _, d := range s.Devices {
			if len(d.Consumes) == 0 {
				continue
			}
			cp := get(k)
			for _, u := range d.Consumes {
				set, ok := cp.left[u.CounterSet]
				for name := range u.Counters {
					if _, has := set[name]; (!ok || !has) && cp.problem == "" {
						if !ok {
							cp.problem = "counter set " + u.CounterSet + " not found"
						} else {
							cp.problem = "counter " + name + " not found in counter set " + u.CounterSet
						}
					}
				}
			}
		}
	}
	for _, s := range slices { // what the devices other claims hold consume
		k := poolKey{s.Driver, s.Pool}
		if s.Generation != pools[k].generation {
			continue
		}
		for _, d := range s.Devices {
			if taken[deviceID{s.Driver, s.Pool, d.Name}] == "" {
				continue
			}
			for _, u := range d.Consumes {
				for name, q := range u.Counters {
					if c, ok := out[k].left[u.CounterSet][name]; ok {
						c.Sub(c, q.value)
					}
				}
			}
		}
	}
	for _, cp := range out {
		sort.Strings(cp.names)
		if cp.problem != "" {
			cp.problem = "pool is invalid: " + cp.problem
		}
	}
	return out
}

// drawn is what a claim's picks so far consume, per pool, counter set and counter.
type drawn map[poolKey]map[string]map[string]*big.Rat

// short says why the pool's counters cannot also give the device what it consumes after what
// the claim's picks have drawn, or "" when they can. As the allocator checks, every counter of
// the pool must stay covered, not only the device's own: a counter the held devices overdraw
// refuses every device of the pool that consumes counters.
func (cp *counterPool) short(k poolKey, consumes []CounterUse, picks drawn) string {
	if cp == nil || len(consumes) == 0 {
		return ""
	}
	for _, set := range cp.names {
		for _, name := range sortedCounterNames(cp.left[set]) {
			need := new(big.Rat)
			for _, u := range consumes {
				if u.CounterSet == set {
					if q, ok := u.Counters[name]; ok {
						need.Add(need, q.value)
					}
				}
			}
			left := new(big.Rat).Set(cp.left[set][name])
			if d := picks[k][set][name]; d != nil {
				left.Sub(left, d)
			}
			if left.Cmp(need) >= 0 {
				continue
			}
			if need.Sign() == 0 {
				return "counter set " + set + ": " + name + " overdrawn by the devices other claims hold"
			}
			return "counter set " + set + ": " + name + " " + counterText(left) + " left, needs " + counterText(need)
		}
	}
	return ""
}

// add records that the claim picked a device consuming these counters.
func (p drawn) add(k poolKey, consumes []CounterUse) {
	for _, u := range consumes {
		if p[k] == nil {
			p[k] = map[string]map[string]*big.Rat{}
		}
		if p[k][u.CounterSet] == nil {
			p[k][u.CounterSet] = map[string]*big.Rat{}
		}
		for name, q := range u.Counters {
			c := p[k][u.CounterSet][name]
			if c == nil {
				c = new(big.Rat)
				p[k][u.CounterSet][name] = c
			}
			c.Add(c, q.value)
		}
	}
}

// remove undoes add, for the placement search's backtracking.
func (p drawn) remove(k poolKey, consumes []CounterUse) {
	for _, u := range consumes {
		for name, q := range u.Counters {
			c := p[k][u.CounterSet][name]
			c.Sub(c, q.value)
		}
	}
}

func sortedCounterNames(m map[string]*big.Rat) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// counterText writes a counter's amount: from 1Mi up with the largest binary suffix that divides
// it (40Gi, 9984Mi), else as a plain number (a count of multiprocessors); "0" at or below zero.
func counterText(r *big.Rat) string {
	if r.Sign() <= 0 {
		return "0"
	}
	if !r.IsInt() {
		return r.FloatString(3)
	}
	if r.Num().Cmp(big.NewInt(1<<20)) < 0 { // a count (multiprocessors), not bytes
		return r.Num().String()
	}
	n := new(big.Int).Set(r.Num())
	suffix := ""
	for _, s := range []string{"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"} {
		if n.Cmp(big.NewInt(1024)) < 0 || new(big.Int).Mod(n, big.NewInt(1024)).Sign() != 0 {
			break
		}
		n.Rsh(n, 10)
		suffix = s
	}
	if suffix == "" && n.IsInt64() {
		return strconv.FormatInt(n.Int64(), 10)
	}
	return n.String() + suffix
}
