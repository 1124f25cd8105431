package cluster

import (
	"slices"
	"strconv"
	"strings"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/fit"
)

// DeviceResult is one device judged against the claim.
type DeviceResult struct {
	Node    string   `json:"node"`
	Driver  string   `json:"driver"`
	Pool    string   `json:"pool"`
	Device  string   `json:"device"`
	Matches bool     `json:"matches"`
	Request string   `json:"request"` // the alternative that takes it: "model" or "model/<sub-request>"; "" if none
	Reasons []string `json:"reasons"` // why it does not match, in words; empty when it matches
	// AllocatedTo is the claim ("namespace/name") the cluster has already allocated the device
	// to, when the claims were given; the device is then not free for this claim.
	AllocatedTo string `json:"allocatedTo,omitempty"`
	// Nodes are, when the cluster's nodes are given, the nodes a device published for a node
	// selector is on: those the selector selects, by name (at most maxListedNodes of them); with
	// the workload's pod given, only those the pod can be scheduled to.
	Nodes []string `json:"nodes,omitempty"`
	// Share says, for a matching device several claims can share (allowMultipleAllocations,
	// KEP-5075), what this claim's share of it takes: it asks for no capacity, so each capacity's
	// requestPolicy default, else all of it.
	Share string `json:"share,omitempty"`

	// Alternatives[i] says whether alternative i could take the device (its class and selector
	// match, and nothing keeps the scheduler from it); CELError that evaluating a selector on it
	// fails, which the scheduler reports as an error for the node.
	Alternatives []bool               `json:"-"`
	CELError     bool                 `json:"-"`
	attributes   map[string]Attribute // for matchAttribute constraints
	selector     *NodeSelector        // the node selector behind Node, if any: for placing per node
	// Selected[i] is alternative i's DeviceClass and selector verdict alone (before taints and
	// pools), SelectorError[i] that evaluating them fails: what the conformance module compares
	// with Kubernetes' CEL environment.
	Selected      []bool `json:"-"`
	SelectorError []bool `json:"-"`
	// busy: the device would match if it were not allocated to another claim.
	busy bool
	// pool, consumes and counters: the device's pool, what it draws from the pool's shared
	// counters and those counters (nil when the pool has none), for the placement search.
	pool     poolKey
	consumes []CounterUse
	counters *counterPool
	// spent: the device would match if the devices other claims hold had not used up its counters.
	spent bool
	// full: the device would match if the shares other claims hold had left room for this one's.
	full bool
}

// Report is the claim checked against a cluster's slices.
type Report struct {
	Allocatable bool           `json:"allocatable"`
	Devices     []DeviceResult `json:"devices"`
	// ExcludedNodes are the nodes given (Inputs.Nodes) that the workload's pod (Inputs.Pod)
	// cannot be scheduled to, each with why, by node name as the notes list them; none without
	// the pod.
	ExcludedNodes []ExcludedNode `json:"excludedNodes,omitempty"`

	// Requests names the claim's alternatives in order, as allocation results name them;
	// DeviceResult.Alternatives and Selected follow this order.
	Requests []string `json:"-"`
	// Placement says where and how the claim is allocated, or why it is not, in words.
	Placement string `json:"-"`
	// Notes are assumptions the verdict rests on.
	Notes []string `json:"-"`
}

// ExcludedNode is a node the pod cannot be scheduled to, and why (its taints, labels or cordon
// against the pod's tolerations, nodeSelector and required node affinity).
type ExcludedNode struct {
	Node string `json:"node"`
	Why  string `json:"why"`
}

// Check parses the slices and judges them against the bounds' claim, every device free.
func Check(b *fit.Bounds, slicesData []byte) (Report, error) {
	return CheckInUse(b, slicesData, nil)
}

// CheckInUse parses the slices and, unless claimsData is nil, the cluster's ResourceClaims
// (ParseClaims), and judges the slices against the bounds' claim with the claims' allocated
// devices taken.
func CheckInUse(b *fit.Bounds, slicesData, claimsData []byte) (Report, error) {
	return CheckInputs(b, Inputs{Slices: slicesData, Claims: claimsData})
}

// Inputs are the pastes a check reads: the slices (required), and optionally the cluster's
// ResourceClaims and its Nodes (nil: not given).
type Inputs struct {
	Slices []byte // kubectl get resourceslices -o yaml
	Claims []byte // kubectl get resourceclaims -A -o yaml
	Nodes  []byte // kubectl get nodes -o yaml
	Pod    []byte // the workload: a Deployment (fitclaim deploy's), a Pod or a pod spec (ParsePod)
	// Large reads each input up to MaxInputLarge bytes and the slices up to MaxDevicesLarge
	// devices, not MaxInput and MaxDevices: the command line's bounds, where a 1,000-node
	// cluster's pastes are read whole.
	Large bool
}

// CheckInputs parses the inputs given and judges the slices against the bounds' claim: the
// claims' allocated devices taken, the slices placed on the nodes given.
func CheckInputs(b *fit.Bounds, in Inputs) (Report, error) {
	lim := smallLimits
	if in.Large {
		lim = largeLimits
	}
	s, err := parseWithin(in.Slices, lim)
	if err != nil {
		return Report{}, err
	}
	c := Cluster{Slices: s, ClaimsGiven: in.Claims != nil, NodesGiven: in.Nodes != nil}
	if in.Claims != nil {
		if c.InUse, err = parseClaimsWithin(in.Claims, lim); err != nil {
			return Report{}, err
		}
	}
	if in.Nodes != nil {
		if c.Nodes, err = parseNodesWithin(in.Nodes, lim); err != nil {
			return Report{}, err
		}
	}
	if in.Pod != nil {
		if c.Pod, err = parsePodWithin(in.Pod, lim); err != nil {
			return Report{}, err
		}
	}
	return JudgeCluster(b, c), nil
}

// Judge judges parsed slices against the bounds' claim, every device free.
func Judge(b *fit.Bounds, slices []Slice) Report {
	return JudgeInUse(b, slices, nil, false)
}

// JudgeInUse judges parsed slices against the bounds' claim with the inUse devices taken, as the
// allocator takes its allocated-devices set: by driver, pool and device name. claimsGiven says
// whether the cluster's claims were read at all (else the verdict assumes every device free).
func JudgeInUse(b *fit.Bounds, slices []Slice, inUse []InUse, claimsGiven bool) Report {
	return JudgeCluster(b, Cluster{Slices: slices, InUse: inUse, ClaimsGiven: claimsGiven})
}

// Cluster is a parsed cluster: its slices, the devices its claims hold and its nodes.
type Cluster struct {
	Slices []Slice
	// InUse are the devices the cluster's claims hold; ClaimsGiven says the claims were read at
	// all (else every device is assumed free).
	InUse       []InUse
	ClaimsGiven bool
	// Nodes are the cluster's nodes; NodesGiven says they were read at all (else each node
	// selector's devices are taken as a group of nodes of their own, and every named node exists).
	Nodes      []Node
	NodesGiven bool
	// Pod is the workload's pod (nil: not given): with the nodes, the claim is placed only on
	// the nodes its nodeSelector, required node affinity and tolerations let it be scheduled to.
	Pod *Pod
}

// JudgeCluster judges the cluster's devices against the bounds' claim and places the claim as
// the scheduler would: per node, with the devices the node can reach (see place.go).
func JudgeCluster(b *fit.Bounds, c Cluster) Report {
	slices := c.Slices
	alts := claim.Alternatives(b)
	pools := poolStates(slices)
	taken := map[deviceID]string{} // devices held whole (results without a shareID)
	for _, u := range c.InUse {
		id := deviceID{u.Driver, u.Pool, u.Device}
		if _, ok := taken[id]; !ok && u.ShareID == "" {
			taken[id] = u.Claim
		}
	}
	shares := heldShares(c.InUse)
	drawing := map[deviceID]string{} // devices whose counters are drawn: held whole or in shares
	for id, claim := range taken {
		drawing[id] = claim
	}
	for id := range shares {
		drawing[id] = "shares"
	}
	r := Report{Devices: []DeviceResult{}}
	for _, a := range alts {
		r.Requests = append(r.Requests, a.Request)
	}
	var reach *reachability
	if c.NodesGiven {
		reach = newReachability(c.Nodes, c.Pod)
	}
	counters := counterPools(slices, pools, drawing)
	var shareNotes []string
	misnamed := map[string]int{} // selected devices refused for spelling their memory otherwise, by that spelling
	seen := map[deviceID]bool{}
	for _, s := range slices {
		k := poolKey{s.Driver, s.Pool}
		ps, cp := pools[k], counters[k]
		for i := range s.Devices {
			d := &s.Devices[i]
			if ps.republished(&s, d.Name) {
				continue
			}
			id := deviceID{s.Driver, s.Pool, d.Name}
			seen[id] = true
			problem, short := ps.problem(&s, d.Name), ""
			if problem == "" && cp != nil && cp.problem != "" {
				problem = "pool " + strconv.Quote(s.Pool) + " " + strings.TrimPrefix(cp.problem, "pool ")
			}
			consumes := d.Consumes
			if d.AllowMultipleAllocations && shares[id] != nil {
				consumes = nil // its shares drew its counters; a further share draws none
			}
			full := ""
			if problem == "" && taken[id] == "" {
				short = cp.short(k, consumes, nil)
				full = capacityShort(b, d, s.Driver, shares[id])
			}
			var onNodes []string
			nowhere := ""
			if reach != nil {
				onNodes, nowhere = reach.of(d)
			}
			refused, published := requestRefused(b, d, s.Driver)
			res := judgeDevice(b, alts, &s, d, problem, short, full, refused, taken[id], nowhere)
			if published != "" && selectedByAny(res.Selected) {
				misnamed[published]++
			}
			res.pool, res.consumes, res.counters, res.selector, res.Nodes = k, consumes, cp, d.Selector, onNodes
			if res.Matches && d.AllowMultipleAllocations {
				res.Share = shareText(b, d, s.Driver, shares[id])
				if n := shareNote(b, d, s.Driver, b.Driver.Domain); n != "" {
					shareNotes = append(shareNotes, n)
				}
			}
			r.Devices = append(r.Devices, res)
		}
	}
	var groups []nodeGroup
	if reach != nil {
		groups = reach.groups(r.Devices)
	} else {
		groups = nodeGroups(r.Devices)
	}
	var cut bool
	r.Allocatable, r.Placement, cut = place(alts, r.Devices, groups, reach)
	r.Notes = notes(b, alts, c.ClaimsGiven)
	r.ExcludedNodes = reach.excludedNodes()
	r.Notes = append(r.Notes, nodeNotes(r.Devices, reach)...)
	r.Notes = append(r.Notes, podNotes(c.Pod, reach)...)
	if cut {
		r.Notes = append(r.Notes, "the placement search stopped after "+itoa(maxSearchSteps)+" tries of devices against the shared counters: a combination it did not reach may fit")
	}
	if c.ClaimsGiven {
		r.Notes = append(r.Notes, inUseNotes(c.InUse, seen)...)
	}
	r.Notes = append(r.Notes, sharedNotes(b, slices, shares, shareNotes)...)
	r.Notes = append(r.Notes, misnamedNotes(b, misnamed)...)
	for _, d := range r.Devices {
		if d.CELError {
			r.Notes = append(r.Notes, "device "+d.Device+" ("+d.Node+"): evaluating the selector fails; the scheduler reports an error for its node instead of skipping it")
		}
	}
	return r
}

// judgeDevice judges one device for every alternative.
// countersShort says why the pool's shared counters, less what held devices consume, cannot
// give the device what it consumes ("" when they can).
// nowhere says why no node given can reach the device ("" when one can, or the nodes are not given).
// capacityFull says why the shares other claims hold leave no room for this claim's ("" when they do).
func judgeDevice(b *fit.Bounds, alts []claim.Alternative, s *Slice, d *Device, poolProblem, countersShort, capacityFull, capacityRefused, allocatedTo, nowhere string) DeviceResult {
	res := DeviceResult{Node: d.Node, Driver: s.Driver, Pool: s.Pool, Device: d.Name, Reasons: []string{}, AllocatedTo: allocatedTo,
		Alternatives: make([]bool, len(alts)), Selected: make([]bool, len(alts)), SelectorError: make([]bool, len(alts))}
	res.attributes = d.Attributes
	var blocking []string
	for _, t := range d.Taints {
		if t.Blocks() {
			blocking = append(blocking, "tainted "+t.String())
		}
	}
	if nowhere != "" {
		blocking = append(blocking, nowhere)
	}
	if poolProblem != "" {
		blocking = append(blocking, poolProblem)
	}
	if allocatedTo != "" {
		blocking = append(blocking, "allocated to "+allocatedTo)
	}
	if countersShort != "" {
		blocking = append(blocking, countersShort)
	}
	if capacityFull != "" {
		blocking = append(blocking, capacityFull)
	}
	// The allocator weighs a capacity request after the selectors: a reason only for a selected device.
	others := blocking
	if capacityRefused != "" {
		blocking = append(slices.Clip(blocking), capacityRefused)
	}
	var selected []string // why each alternative of the device's driver does not select it
	var classDrivers []string
	first := -1
	for i, alt := range alts {
		classDrivers = append(classDrivers, alt.Driver.Domain)
		j := classSelects(alt, s.Driver, d)
		if j.out == yes {
			j = requestSelects(alt, b, s.Driver, d)
		}
		if j.out == failed {
			res.CELError, res.SelectorError[i] = true, true
		}
		res.Selected[i] = j.out == yes
		if j.out != yes {
			if s.Driver == alt.Driver.Domain {
				for _, r := range j.reasons {
					selected = append(selected, prefix(alts, alt)+r)
				}
			}
			continue
		}
		res.Alternatives[i] = len(blocking) == 0
		if first < 0 {
			first = i
		}
	}
	switch {
	case first >= 0 && len(blocking) == 0:
		res.Matches = true
		res.Request = alts[first].Request
	case first >= 0:
		res.Reasons = blocking
		res.busy = allocatedTo != "" && len(blocking) == 1
		res.spent = countersShort != "" && len(blocking) == 1
		res.full = capacityFull != "" && len(blocking) == 1
	case len(selected) > 0:
		res.Reasons = append(selected, others...)
	default:
		res.Reasons = append([]string{"driver " + s.Driver + ", the claim asks for " + strings.Join(classDrivers, " or ")}, others...)
	}
	return res
}

// prefix names the sub-request a reason is about when the claim has several.
func prefix(alts []claim.Alternative, alt claim.Alternative) string {
	if len(alts) < 2 {
		return ""
	}
	return alt.Request + ": "
}

// notes are the assumptions a verdict rests on, worth saying when they apply.
func notes(b *fit.Bounds, alts []claim.Alternative, claimsGiven bool) []string {
	var n []string
	if !claimsGiven {
		n = append(n, "assumes no device is allocated to another claim yet")
	}
	for _, a := range alts {
		if a.DeviceClass != a.Driver.Domain {
			n = append(n, "assumes DeviceClass "+a.DeviceClass+" selects the devices of driver "+a.Driver.Domain+" as that driver's own class does")
		}
	}
	if !b.Driver.Bandwidth {
		n = append(n, b.Driver.Domain+" publishes no bandwidth: devices are matched on memory only")
	}
	return n
}

// selectedByAny says whether some alternative's class and selectors take the device.
func selectedByAny(selected []bool) bool {
	for _, s := range selected {
		if s {
			return true
		}
	}
	return false
}

// itoa is strconv.Itoa, short.
func itoa(n int) string { return strconv.Itoa(n) }
