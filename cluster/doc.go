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
// a note says so when a selector is there. Nodes a pod that tolerates nothing cannot be
// scheduled to (cordoned, spec.unschedulable; tainted NoSchedule or NoExecute: the scheduler's
// NodeUnschedulable and TaintToleration filters, which the allocator leaves to them; fitclaim
// deploy's pods tolerate nothing) are tried after the others, and a placement there says so;
// the verdict stays the allocator's. Which devices the allocator picks on a node with several
// pools varies (it walks them in Go map order); the placement names one valid choice. The
// conformance module proves the node placement against the allocator run on each node of
// zones-nodes.yaml.
//
// The workload's pod is weighed when it is given beside the nodes (ParsePod: fitclaim deploy's
// output, a Deployment or another workload, a Pod or a bare pod spec): the scheduler runs the
// allocator only on the nodes its filters pass, so the claim is placed only on the nodes the
// pod can be scheduled to (Pod.Excludes) — its nodeSelector's labels, its required node
// affinity (the node selector terms above; with the nodeSelector, k8s' RequiredNodeAffinity),
// its tolerations of the nodes' NoSchedule and NoExecute taints (TaintToleration) and of a
// cordon (NodeUnschedulable: the taint node.kubernetes.io/unschedulable). A device only on
// nodes it cannot go to does not match, and says why; a note lists the nodes left out and why.
// Preferred affinity, pod (anti-)affinity and topology spread are noted, not weighed (they rank
// nodes, or depend on running pods). Without the pod, the claim is placed as for one that
// tolerates nothing, on the kept-off nodes last. The conformance module proves Excludes against
// nodeaffinity and the scheduler's taint helpers, and the placement against the allocator run
// on the nodes the pod can go to.
//
// Consumable capacity (KEP-5075; DRAConsumableCapacity, beta and on by default since Kubernetes
// 1.36) is weighed as the allocator weighs it with the gate on (shares.go): a device with
// allowMultipleAllocations is shared, and each claim takes a share of its capacity. fitclaim's
// claim asks for no capacity, so its share of each capacity is the capacity's
// requestPolicy.default, or without one all of it; the device has room while what the shares
// other claims hold consume (their results' shareID and consumedCapacity) plus that share stays
// within every capacity. A result with a shareID holds a share, not the device; one without holds
// the device whole, shared or not. A matching shared device says what the claim's share takes
// (DeviceResult.Share), and a note says when that share's memory is less than the model needs
// per device (the selector reads the device's whole capacity; a driver that enforces shares
// holds the workload to its share). A shared device whose shares are held has drawn its
// counters already; a further share draws none. One claim takes a device once: its N devices
// are N different devices. The conformance module proves this against the allocator with the
// gate on (shared.yaml with shared-claims.yaml: device by device and claim by claim; mig.yaml
// with its whole gpu-1 shared, beside held shares and partitions: claim by claim). With the
// gate off, the allocator would take a shared device as an ordinary one, and a result with a
// shareID as holding the device whole.
//
// A target with capacityRequest asks its memory floor a device as capacity.requests.memory, and
// its share of memory is then what it asks, rounded up by the capacity's requestPolicy as the
// allocator rounds it (calculateConsumedCapacity): a validRange raises it to its min, then to a
// whole step above the min; validValues to the first at least as big; a request above the
// validRange's max, above every validValue or above the capacity refuses the device
// (violatesPolicy). Every device, shared or not, must publish a capacity named exactly as the
// request names it: the allocator matches a request's names as the device spells them, so a
// device that spells its memory "<domain>/memory", which the selector reads, is not allocated to
// a claim that asks "memory", nor one that spells it "memory" to a claim whose capacityName is
// qualified (which asks "<domain>/memory", each alternative its own driver's domain). Such a
// device says what it publishes and the capacityName that names it, and a note counts them. The
// conformance module proves this against the allocator (capacity-policies.yaml, shared.yaml with
// and without shared-claims.yaml, and the ordinary clusters, where the request changes nothing
// but for such devices), and that with the gate off the API server drops the request and the
// allocator either refuses the claim (incubating: with DRADeviceBindingConditions on, 1.37's
// default) or ignores the request (stable).
//
// DeviceTaintRules (DRADeviceTaintRules, on by default since Kubernetes 1.37) taint devices
// without showing in their slices: the scheduler's slice tracker adds each rule's taint to the
// devices its selector picks (driver, pool, device; a field left out picks all, no selector
// none). Rules pasted with the slices (`kubectl get resourceslices,devicetaintrules -o yaml`, one
// List of both kinds, or DeviceTaintRule documents) are applied the same way (taintrules.go), and
// a device they block says which rule; without them, only the slices' own taints are seen.
//
// Not modelled (the allocator would see them, the pasted lists cannot say): this claim's own
// admin access (fitclaim's claims ask for none).
//
// Pure Go: no file system, network or syscall/js; sigs.k8s.io/yaml for YAML.
package cluster
