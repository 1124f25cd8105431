package cluster

import (
	"strconv"
	"strings"
)

// Node is one of the cluster's nodes, reduced to what node selection reads (its name and
// labels) and to what keeps a pod off it: a cordon (spec.unschedulable) and its taints.
type Node struct {
	Name          string
	Labels        map[string]string
	Unschedulable bool
	Taints        []Taint // effects NoSchedule, PreferNoSchedule, NoExecute
}

// keepsOff says why a pod without tolerations is not scheduled to the node ("" when it is): the
// scheduler's NodeUnschedulable and TaintToleration filters. fitclaim deploy's pods tolerate
// nothing; PreferNoSchedule only scores the node lower.
func (n *Node) keepsOff() string {
	if n.Unschedulable {
		return "cordoned (spec.unschedulable)"
	}
	for _, t := range n.Taints {
		if t.Blocks() {
			return "tainted " + t.String()
		}
	}
	return ""
}

// ParseNodes reads the cluster's nodes — `kubectl get nodes -o yaml` (a v1 List), -o json, a
// NodeList, one Node or several `---` documents — for their names and labels. A name given
// twice is refused: the allocator would see one node. Errors are *Error with Input "nodes".
func ParseNodes(data []byte) ([]Node, error) { return parseNodesWithin(data, smallLimits) }

func parseNodesWithin(data []byte, lim limits) ([]Node, error) {
	p := nodeParser{seen: map[string]bool{}}
	if err := eachDocument(data, lim, "nodes", "kubectl get nodes -o yaml", p.top); err != nil {
		return nil, err
	}
	if p.objects == 0 {
		return nil, &Error{Input: "nodes", Msg: "no Node in the input: paste the output of kubectl get nodes -o yaml"}
	}
	return p.nodes, nil
}

type nodeParser struct {
	nodes   []Node
	seen    map[string]bool
	objects int
}

// top reads a document: a List, a NodeList or a Node.
func (p *nodeParser) top(where string, v any) error {
	if where == "" {
		where = "the input"
	}
	return listOrOne(&object{name: where, input: "nodes"}, v, "Node", "kubectl get nodes -o yaml", &p.objects, p.node)
}

// node reads one Node's name and labels.
func (p *nodeParser) node(where string, v any) error {
	o := &object{name: where, input: "nodes"}
	m, ok := v.(map[string]any)
	if !ok {
		return o.err("", "is a "+typeName(v)+"; want a Node")
	}
	p.objects++
	meta, _ := m["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	if kind, _ := m["kind"].(string); kind != "Node" { // named by its place: it is not a node
		if kind == "" {
			return o.err("kind", "missing; want Node")
		}
		return o.err("kind", strconv.Quote(clip(kind))+"; want Node (kubectl get nodes -o yaml)")
	}
	if name != "" {
		o.name = "Node " + strconv.Quote(clip(name))
		if where != "the input" && !strings.HasPrefix(where, "document") {
			o.name += " (" + where + ")"
		}
	}
	if version, _ := m["apiVersion"].(string); version != "v1" {
		return o.err("apiVersion", strconv.Quote(clip(version))+"; want v1")
	}
	if name == "" {
		return metaMissing(o, m, "name", "missing")
	}
	if p.seen[name] {
		return o.err("metadata.name", strconv.Quote(clip(name))+" appears twice; give each node once")
	}
	p.seen[name] = true
	n := Node{Name: name, Labels: map[string]string{}}
	if lv, ok := meta["labels"]; ok && lv != nil {
		labels, err := mapping(o, "metadata.labels", lv)
		if err != nil {
			return err
		}
		for _, k := range sortedKeys(labels) {
			s, ok := labels[k].(string)
			if !ok {
				return o.err("metadata.labels."+clip(k), "is a "+typeName(labels[k])+"; want a string")
			}
			n.Labels[k] = s
		}
	}
	if err := nodeSpec(o, m["spec"], &n); err != nil {
		return err
	}
	p.nodes = append(p.nodes, n)
	return nil
}

// nodeSpec reads what of a Node's spec keeps pods off it: unschedulable and taints.
func nodeSpec(o *object, v any, n *Node) error {
	if v == nil {
		return nil
	}
	spec, err := mapping(o, "spec", v)
	if err != nil {
		return err
	}
	if u := spec["unschedulable"]; u != nil {
		b, ok := u.(bool)
		if !ok {
			return o.err("spec.unschedulable", "is a "+typeName(u)+"; want true or false")
		}
		n.Unschedulable = b
	}
	n.Taints, err = taints(o, "spec.taints", spec["taints"], nodeTaintEffects)
	return err
}
