package cluster

import "strconv"

// counterSets reads a slice's spec.sharedCounters: [{name, counters: {NAME: {value: QUANTITY}}}].
func counterSets(o *object, path string, v any) ([]CounterSet, error) {
	list, err := counterList(o, path, v)
	if err != nil {
		return nil, err
	}
	var out []CounterSet
	for i, cv := range list {
		at := path + "[" + strconv.Itoa(i) + "]"
		m, err := mapping(o, at, cv)
		if err != nil {
			return nil, err
		}
		var c CounterSet
		if c.Name, err = text(o, at+".name", m["name"]); err != nil {
			return nil, err
		}
		if c.Counters, err = named(o, at+".counters", m["counters"], capacity); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// counterUses reads a device's consumesCounters: [{counterSet, counters: {NAME: {value: QUANTITY}}}].
func counterUses(o *object, path string, v any) ([]CounterUse, error) {
	list, err := counterList(o, path, v)
	if err != nil {
		return nil, err
	}
	var out []CounterUse
	for i, cv := range list {
		at := path + "[" + strconv.Itoa(i) + "]"
		m, err := mapping(o, at, cv)
		if err != nil {
			return nil, err
		}
		var c CounterUse
		if c.CounterSet, err = text(o, at+".counterSet", m["counterSet"]); err != nil {
			return nil, err
		}
		if c.Counters, err = named(o, at+".counters", m["counters"], capacity); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func counterList(o *object, path string, v any) ([]any, error) {
	if v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, o.err(path, "is a "+typeName(v)+"; want a list")
	}
	return list, nil
}
