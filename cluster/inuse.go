package cluster

// deviceID names a device as the allocator's allocated-devices set does: driver, pool, device.
type deviceID struct{ driver, pool, device string }

// maxIgnoredNotes bounds the notes naming allocation results that name no device in the slices
// (a claims list of a large cluster beside the slices of a few nodes would otherwise list them all).
const maxIgnoredNotes = 5

// inUseNotes says how many devices the claims hold, and which results name no device in the
// slices: those are ignored (another pool, a driver's slices not pasted, a device since removed).
func inUseNotes(inUse []InUse, seen map[deviceID]bool) []string {
	n := []string{"the claims given hold " + itoa(len(inUse)) + " devices; those are not free for this claim (admin-access results excepted, as the scheduler does)"}
	ignored := 0
	for _, u := range inUse {
		if seen[deviceID{u.Driver, u.Pool, u.Device}] {
			continue
		}
		if ignored++; ignored <= maxIgnoredNotes {
			n = append(n, "claim "+u.Claim+" holds device "+clip(u.Driver+"/"+u.Pool+"/"+u.Device)+", which is not in the slices: ignored")
		}
	}
	if ignored > maxIgnoredNotes {
		n = append(n, itoa(ignored-maxIgnoredNotes)+" more allocated devices are not in the slices: ignored")
	}
	return n
}

// countersNote says, when some devices draw on shared counters (partitionable devices,
// sharedCounters / consumesCounters in resource.k8s.io/v1), that the verdict does not weigh them:
// the scheduler refuses such a device once allocated devices have used up its counter set (a
// whole GPU after one of its partitions is taken), which this check does not see.
func countersNote(slices []Slice) string {
	n := 0
	for _, s := range slices {
		for _, d := range s.Devices {
			if d.ConsumesCounters {
				n++
			}
		}
	}
	if n == 0 {
		return ""
	}
	return itoa(n) + " devices consume shared counters (partitionable devices): not modelled here; the scheduler refuses one whose counter set allocated devices have used up, so a device shown as free may not be"
}
