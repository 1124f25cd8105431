package cluster

// deviceID names a device as the allocator's allocated-devices set does: driver, pool, device.
type deviceID struct{ driver, pool, device string }

// maxIgnoredNotes bounds the notes naming allocation results that name no device in the slices
// (a claims list of a large cluster beside the slices of a few nodes would otherwise list them all).
const maxIgnoredNotes = 5

// inUseNotes says how many devices the claims hold, and which results name no device in the
// slices: those are ignored (another pool, a driver's slices not pasted, a device since removed).
func inUseNotes(inUse []InUse, seen map[deviceID]bool) []string {
	whole := 0
	for _, u := range inUse {
		if u.ShareID == "" {
			whole++
		}
	}
	held := "the claims given hold " + itoa(whole) + " devices; those are not free for this claim (admin-access results excepted, as the scheduler does)"
	if shared := len(inUse) - whole; shared > 0 {
		held = "the claims given hold " + itoa(whole) + " devices whole, not free for this claim (admin-access results excepted, as the scheduler does), and " +
			itoa(shared) + " shares of devices several claims can share, which leave the rest of those devices' capacity"
	}
	n := []string{held}
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
