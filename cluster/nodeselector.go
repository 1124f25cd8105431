package cluster

import (
	"strconv"
	"strings"
)

// NodeSelector is a slice's (or, with perDeviceNodeSelection, a device's) nodeSelector: the
// nodes whose labels (matchExpressions) and name (matchFields metadata.name) it selects. It is
// resolved to real nodes when the cluster's nodes are given (Matches), and otherwise names a
// group of nodes of its own (Text).
type NodeSelector struct {
	Terms []NodeSelectorTerm // ORed
}

// NodeSelectorTerm is one term: every requirement must hold. A term with neither list selects
// no node, as Kubernetes' nodeaffinity skips it.
type NodeSelectorTerm struct {
	MatchExpressions []NodeRequirement // on the node's labels
	MatchFields      []NodeRequirement // on metadata.name, the one node field selectors read
}

// NodeRequirement is one requirement: key, operator and values as the API spells them.
type NodeRequirement struct {
	Key, Operator string
	Values        []string
}

// The node selector operators, as core/v1 spells them.
const (
	opIn           = "In"
	opNotIn        = "NotIn"
	opExists       = "Exists"
	opDoesNotExist = "DoesNotExist"
	opGt           = "Gt"
	opLt           = "Lt"
)

// nodeNameField is the one field matchFields may read (core validation's nodeFieldSelectorValidators).
const nodeNameField = "metadata.name"

// Matches reports whether the selector selects the node, as k8s.io/component-helpers'
// nodeaffinity.NodeSelector.Match does (v0.37.2): terms ORed, an empty term skipped, a term's
// matchExpressions read the labels and its matchFields the node's name.
func (s *NodeSelector) Matches(n *Node) bool {
	for _, t := range s.Terms {
		if len(t.MatchExpressions) == 0 && len(t.MatchFields) == 0 {
			continue
		}
		if allHold(t.MatchExpressions, n.Labels) && allHold(t.MatchFields, map[string]string{nodeNameField: n.Name}) {
			return true
		}
	}
	return false
}

func allHold(reqs []NodeRequirement, labels map[string]string) bool {
	for _, r := range reqs {
		if !r.holds(labels) {
			return false
		}
	}
	return true
}

// holds is labels.Requirement.Matches (k8s.io/apimachinery v0.37.2): NotIn and DoesNotExist hold
// for a node without the label; Gt and Lt compare whole numbers and fail on a label that is not one.
func (r NodeRequirement) holds(labels map[string]string) bool {
	v, ok := labels[r.Key]
	switch r.Operator {
	case opIn:
		return ok && contains(r.Values, v)
	case opNotIn:
		return !ok || !contains(r.Values, v)
	case opExists:
		return ok
	case opDoesNotExist:
		return !ok
	case opGt, opLt:
		if !ok {
			return false
		}
		have, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return false
		}
		want, _ := strconv.ParseInt(r.Values[0], 10, 64) // checked when read
		return (r.Operator == opGt && have > want) || (r.Operator == opLt && have < want)
	}
	return false
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// Text writes the selector compactly and deterministically, as the name of the group of nodes
// it selects: "topology.kubernetes.io/zone In (a, b)", requirements joined by ", ", terms by " or ".
func (s *NodeSelector) Text() string { return clip(s.String()) }

// String is Text unclipped.
func (s *NodeSelector) String() string {
	var out []string
	for _, t := range s.Terms {
		var reqs []string
		for _, r := range append(append([]NodeRequirement{}, t.MatchExpressions...), t.MatchFields...) {
			req := r.Key + " " + r.Operator
			if len(r.Values) > 0 {
				req += " (" + strings.Join(r.Values, ", ") + ")"
			}
			reqs = append(reqs, req)
		}
		out = append(out, strings.Join(reqs, ", "))
	}
	return strings.Join(out, " or ")
}

// nodeSelector reads a nodeSelector as the API server validates it (core validation's
// ValidateNodeSelector, which every slice passed): at least one term; In and NotIn with values,
// Exists and DoesNotExist without, Gt and Lt with one whole number; matchFields only on
// metadata.name, with In or NotIn and one value. What it refuses, Kubernetes' nodeaffinity
// cannot parse either.
func nodeSelector(o *object, path string, v any) (*NodeSelector, error) {
	m, err := mapping(o, path, v)
	if err != nil {
		return nil, err
	}
	tpath := path + ".nodeSelectorTerms"
	terms, err := mappings(o, tpath, m["nodeSelectorTerms"], func(at string, tm map[string]any) (t NodeSelectorTerm, err error) {
		if t.MatchExpressions, err = requirements(o, at+".matchExpressions", tm["matchExpressions"], false); err != nil {
			return t, err
		}
		t.MatchFields, err = requirements(o, at+".matchFields", tm["matchFields"], true)
		return t, err
	})
	if err != nil {
		return nil, err
	}
	if len(terms) == 0 {
		return nil, o.err(tpath, "missing; want at least one term of matchExpressions or matchFields")
	}
	return &NodeSelector{Terms: terms}, nil
}

// requirements reads a term's matchExpressions (fields false) or matchFields (fields true).
func requirements(o *object, path string, v any, fields bool) ([]NodeRequirement, error) {
	return mappings(o, path, v, func(at string, m map[string]any) (r NodeRequirement, err error) {
		if r.Key, err = text(o, at+".key", m["key"]); err != nil {
			return r, err
		}
		if r.Operator, err = text(o, at+".operator", m["operator"]); err != nil {
			return r, err
		}
		if m["values"] != nil {
			list, ok := m["values"].([]any)
			if !ok {
				return r, o.err(at+".values", "is a "+typeName(m["values"])+"; want a list of strings")
			}
			for i, x := range list {
				s, ok := x.(string)
				if !ok {
					return r, o.err(at+".values["+strconv.Itoa(i)+"]", "is a "+typeName(x)+"; want a string")
				}
				r.Values = append(r.Values, s)
			}
		}
		return r, r.check(o, at, fields)
	})
}

// check says what is wrong with a requirement, naming the allowed values.
func (r NodeRequirement) check(o *object, at string, fields bool) error {
	n := len(r.Values)
	if fields {
		if r.Key != nodeNameField {
			return o.err(at+".key", strconv.Quote(clip(r.Key))+"; want metadata.name (the one node field a selector reads)")
		}
		if r.Operator != opIn && r.Operator != opNotIn {
			return o.err(at+".operator", strconv.Quote(clip(r.Operator))+"; want In or NotIn (matchFields)")
		}
		if n != 1 {
			return o.err(at+".values", strconv.Itoa(n)+" values; want exactly one node name (matchFields)")
		}
		if !isDNSSubdomain(r.Values[0]) { // a node's name, as core validation's ValidateNodeName checks it
			return o.err(at+".values[0]", strconv.Quote(clip(r.Values[0]))+"; want a node name: lower-case letters, digits, '-' and '.', at most 253")
		}
		return nil
	}
	switch r.Operator {
	case opIn, opNotIn:
		if n == 0 {
			return o.err(at+".values", "empty; want at least one value for In and NotIn")
		}
	case opExists, opDoesNotExist:
		if n != 0 {
			return o.err(at+".values", strconv.Itoa(n)+" values; want none for Exists and DoesNotExist")
		}
	case opGt, opLt:
		if n != 1 {
			return o.err(at+".values", strconv.Itoa(n)+" values; want exactly one whole number for Gt and Lt")
		}
		if _, err := strconv.ParseInt(r.Values[0], 10, 64); err != nil {
			return o.err(at+".values[0]", strconv.Quote(clip(r.Values[0]))+"; want a whole number for Gt and Lt")
		}
		if !isLabelValue(r.Values[0]) { // "-1", "+3": numbers, but not label values
			return o.err(at+".values[0]", strconv.Quote(clip(r.Values[0]))+"; want a whole number without a sign for Gt and Lt (a label value)")
		}
	default:
		return o.err(at+".operator", strconv.Quote(clip(r.Operator))+"; want In, NotIn, Exists, DoesNotExist, Gt or Lt")
	}
	// The API server validates the key and the values as a label's (core validation's
	// ValidateNodeSelectorRequirement); k8s' nodeaffinity would not parse them either.
	if !isLabelKey(r.Key) {
		return o.err(at+".key", strconv.Quote(clip(r.Key))+"; want "+labelKeyRule)
	}
	for i, v := range r.Values {
		if !isLabelValue(v) {
			return o.err(at+".values["+strconv.Itoa(i)+"]", strconv.Quote(clip(v))+"; want "+labelValueRule)
		}
	}
	return nil
}
