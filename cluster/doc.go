// Package cluster answers "will this claim find devices in my cluster?" from the cluster's own
// ResourceSlices: `kubectl get resourceslices -o yaml` (a v1 List), `-o json`, or several
// ResourceSlice documents separated by `---`.
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
// Not modelled (the allocator would see them, the pasted lists cannot say): node labels for
// nodeSelector slices (each selector is its own group of nodes), consumable capacity
// (KEP-5075: a shared device's results are taken whole), and this claim's own admin access
// (fitclaim's claims ask for none).
//
// Pure Go: no file system, network or syscall/js; sigs.k8s.io/yaml for YAML.
package cluster
