package e2e

import "time"

// patienceFactor stretches every deadline these tests wait on. The deadlines are there to end
// a test whose page never gets where it should, not to time it (speed is the bench's job): on a
// two-core machine shared with other builds (load 30-40) a fresh Chromium took over 20 s to
// start and the later engine over 30 s to answer, and seven tests failed on nothing but that.
const patienceFactor = 3

// patient is d stretched by patienceFactor.
func patient(d time.Duration) time.Duration { return patienceFactor * d }
