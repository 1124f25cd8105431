package cluster

import "strconv"

// poolKey names a pool as the allocator does: its driver and its name.
type poolKey struct{ driver, pool string }

// poolState is what the allocator needs to know of a pool before it takes any device from it:
// only the slices of its newest generation count, all resourceSliceCount of them must be there,
// and a device name may appear once.
type poolState struct {
	name       string
	generation int64
	have, want int64
	duplicate  string
	// names are the devices the newest generation publishes: a replaced slice's device of the
	// same name is the same device (driver, pool and name are its ID), listed once, as it is now.
	names map[string]bool
}

func poolStates(slices []Slice) map[poolKey]*poolState {
	pools := map[poolKey]*poolState{}
	for _, s := range slices {
		k := poolKey{s.Driver, s.Pool}
		p := pools[k]
		if p == nil || s.Generation > p.generation {
			p = &poolState{name: s.Pool, generation: s.Generation, want: s.SliceCount}
			pools[k] = p
		}
		if s.Generation == p.generation {
			p.have++
		}
	}
	seen := map[poolKey]map[string]bool{}
	for _, s := range slices {
		k := poolKey{s.Driver, s.Pool}
		p := pools[k]
		if s.Generation != p.generation {
			continue
		}
		if seen[k] == nil {
			seen[k] = map[string]bool{}
			p.names = seen[k]
		}
		for _, d := range s.Devices {
			if seen[k][d.Name] && p.duplicate == "" {
				p.duplicate = d.Name
			}
			seen[k][d.Name] = true
		}
	}
	return pools
}

// republished reports whether the device of a replaced slice of the pool is published again by
// the newest generation: the same device, which the report lists once, as that generation has it.
func (p *poolState) republished(s *Slice, device string) bool {
	return s.Generation < p.generation && p.names[device]
}

// problem says why the allocator takes no device from this slice of the pool, or "".
func (p *poolState) problem(s *Slice, device string) string {
	pool := "pool " + strconv.Quote(p.name)
	switch {
	case s.Generation < p.generation:
		return pool + ": slice " + s.Name + " is generation " + strconv.FormatInt(s.Generation, 10) +
			", replaced by generation " + strconv.FormatInt(p.generation, 10)
	case p.duplicate != "":
		return pool + " is invalid: device " + strconv.Quote(p.duplicate) + " appears twice"
	case p.have != p.want:
		return pool + " is incomplete: " + strconv.FormatInt(p.have, 10) + " of its " + strconv.FormatInt(p.want, 10) + " slices"
	}
	return ""
}
