package cluster

// counterSets reads a slice's spec.sharedCounters: [{name, counters: {NAME: {value: QUANTITY}}}].
func counterSets(o *object, path string, v any) ([]CounterSet, error) {
	return mappings(o, path, v, func(at string, m map[string]any) (c CounterSet, err error) {
		if c.Name, err = text(o, at+".name", m["name"]); err != nil {
			return c, err
		}
		c.Counters, err = named(o, at+".counters", m["counters"], capacity)
		return c, err
	})
}

// counterUses reads a device's consumesCounters: [{counterSet, counters: {NAME: {value: QUANTITY}}}].
func counterUses(o *object, path string, v any) ([]CounterUse, error) {
	return mappings(o, path, v, func(at string, m map[string]any) (c CounterUse, err error) {
		if c.CounterSet, err = text(o, at+".counterSet", m["counterSet"]); err != nil {
			return c, err
		}
		c.Counters, err = named(o, at+".counters", m["counters"], capacity)
		return c, err
	})
}
