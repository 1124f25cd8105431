// Package cluster answers "will this claim find devices in my cluster?" from the cluster's own
// ResourceSlices: `kubectl get resourceslices -o yaml` (a v1 List), `-o json`, or several
// ResourceSlice documents separated by `---`; optionally with its ResourceClaims and its Nodes
// (Inputs, CheckInputs).
//
// Every device is judged against the claim fitclaim renders for a target, by the selectors'
// structured meaning (fit.Bounds and the driver), not by a general CEL interpreter: the same
// clauses package claim writes, each evaluated as the DRA CEL environment would (a missing
// attribute behind its `in` guard is false, a value of the wrong type an evaluation error, and
// `&&` is CEL's commutative and). The DeviceClass is assumed to be the one the driver's chart
// installs under the class name the claim uses. Then the claim as a whole is placed as the
// scheduler's structured allocator would: its count of untainted matching devices from complete
// pools on one node, all of one product when the claim has a matchAttribute constraint, trying
// firstAvailable's alternatives in order. The conformance module proves the verdicts equal to
// Kubernetes' CEL environment and allocator, device by device.
//
// Devices already allocated to other claims are taken when the cluster's ResourceClaims are
// given beside the slices (`kubectl get resourceclaims -A -o yaml`; ParseClaims): each result of
// a claim's status.allocation.devices is taken by driver, pool and device, as the scheduler
// fills the allocator's allocated-devices set (a result with adminAccess does not count; one
// naming no device in the slices is ignored and said so). Without them every device is assumed
// free, and the report says so.
//
// Shared counters of partitionable devices (KEP-4815: a slice's sharedCounters, in v1 a slice
// of its own in the pool; a device's consumesCounters) are weighed as the allocator weighs them
// with DRAPartitionableDevices on: per pool (driver and pool, newest generation), each counter
// set's capacity less what the devices other claims hold consume. A device whose counters that
// leaves short cannot be allocated, and its reasons say so ("counter set gpu-0-counters: memory
// 40Gi left, needs 80Gi"; a counter the held devices overdraw refuses every counter-consuming
// device of the pool, as the allocator's check covers every counter of the pool). A pool whose
// devices draw on a counter set or counter it does not publish, or that publishes a set twice,
// is invalid. Placing a claim for N devices, its own picks draw on the same counters: the
// devices are tried in the allocator's order, each taken if the counters left after the earlier
// picks cover it, backtracking when a later pick finds none — as the allocator does, so a whole
// GPU taken first does not hide two halves that fit together (greedy first-fit would miss
// them). The search stops after maxSearchSteps tries over the whole placement (the scheduler
// bounds the allocator by time instead) and a note says so. The conformance
// module proves this against the allocator with DRAPartitionableDevices on, on the MIG node
// (mig.yaml: free, with mig-claims.yaml, with mig-overdrawn-claims.yaml, with every third device
// held) and the whole-or-two-halves pool (halves.yaml, where greedy first-fit fails): every
// device alone, and every claim of one to three devices, down to the devices picked.
//
// Nodes are placed on when the cluster's Nodes are given beside the slices (`kubectl get nodes
// -o yaml`; ParseNodes reads each node's name and labels). The claim is then tried on each real
// node, as the scheduler's allocator gathers that node's devices (GatherPools, NodeMatches): the
// devices of slices naming the node, of all-nodes slices, and of every slice (or, with
// perDeviceNodeSelection, device) whose nodeSelector selects it — matchExpressions In, NotIn,
// Exists, DoesNotExist, Gt and Lt on its labels and matchFields metadata.name on its name, terms
// ORed, as k8s' nodeaffinity matches them. A node-selector device lists the nodes it is on
// (DeviceResult.Nodes); a device no node given reaches (a selector selecting none, a nodeName
// not among the nodes) does not match, and its reasons say so. Nodes with no devices of their own
// that the same selectors select are tried once. Without the nodes, each node selector's
// devices are a group of nodes of their own and every node a slice names is taken to exist;
// a note says so when a selector is there. Node taints, cordons and the pod's own node affinity
// are not weighed. Which devices the allocator picks on a node with several pools varies (it
// walks them in Go map order); the placement names one valid choice. The conformance module
// proves the node placement against the allocator run on each node of zones-nodes.yaml.
//
// Not modelled (the allocator would see them, the pasted lists cannot say): consumable
// capacity (KEP-5075: a shared device's results are taken whole), and this claim's own admin
// access (fitclaim's claims ask for none).
//
// Pure Go: no file system, network or syscall/js; sigs.k8s.io/yaml for YAML.
package cluster
