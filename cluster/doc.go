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
// Not modelled (the allocator would see them, a pasted slice list cannot say): devices already
// allocated to other claims, node labels for nodeSelector slices (each selector is its own
// group of nodes), shared counters of partitionable devices, and admin access.
//
// Pure Go: no file system, network or syscall/js; sigs.k8s.io/yaml for YAML.
package cluster
