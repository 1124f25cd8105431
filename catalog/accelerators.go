package catalog

// Accelerator is one device of the accelerator table: memory as its DRA driver reports it and
// the memory bandwidth that bounds decode speed.
type Accelerator struct {
	ID           string
	Vendor       string // nvidia, amd, intel, apple
	Kind         string // datacenter, workstation, consumer, unified (Apple silicon)
	Name         string
	Driver       string // the DRA driver that publishes it: gpu.nvidia.com, gpu.amd.com, gpu.intel.com; "" = none (Apple)
	ProductName  string // the productName attribute NVIDIA's driver publishes; empty where unknown
	MemoryMiB    int64  // total memory as the driver reports it
	MemoryExact  bool   // a known driver reading, not a spec-sheet approximation
	BandwidthGBs float64
	Family       string // the speed family: nvidia, nvidia-pascal, nvidia-unified, amd, apple, intel, other
	Unified      bool   // memory shared with the CPU, the figure the whole of it (Apple silicon, GB10); not the MI300A, whose driver publishes the GPU's share
	// ShortName is a label of at most ShortNameMax characters for a narrow list (the page's
	// device select at 390 px), given only where Name is longer; "" = Name is short enough.
	// Every other surface says Name.
	ShortName string
	// data/accelerators.csv's notes and source (where the row's figures come from) are for the
	// people who check a row; catalog/gen leaves them out of the embedded table.
}

// ShortNameMax is the longest label a narrow list shows whole: the longest name without a
// short one ("NVIDIA GeForce RTX 4070 Ti SUPER") has 32 characters.
const ShortNameMax = 32

// Label is ShortName, or Name where the row has none.
func (a *Accelerator) Label() string {
	if a.ShortName != "" {
		return a.ShortName
	}
	return a.Name
}

// MemoryBytes is the capacity the driver publishes, in bytes.
func (a *Accelerator) MemoryBytes() int64 { return a.MemoryMiB << 20 }

// Accelerators returns the accelerator table in its source order. Do not modify the slice.
func Accelerators() []Accelerator {
	accelOnce.Do(func() { accels = parseAccelerators(acceleratorsTSV) })
	return accels
}

// parseAccelerators cuts each line's fields by hand into an array, as parseModel does: the table
// is read on the page's first claim, and strings.Split's slice per line and its two passes over
// the line (count the tabs, then cut) were the hot loops V8 compiled a second time, with its
// optimizing compiler, while the page waited for that claim (issue 10 §2).
func parseAccelerators(text string) []Accelerator {
	out := make([]Accelerator, 0, acceleratorCount)
	for line := range rows(text) {
		var f [12]string
		if !splitFields(line, f[:]) {
			panic("catalog: accelerators_tsv.go is malformed; run go generate ./catalog")
		}
		out = append(out, Accelerator{
			ID: f[0], Vendor: f[1], Kind: f[2], Name: f[3], Driver: f[4], ProductName: f[5],
			MemoryMiB: atoi64(f[6]), MemoryExact: f[7] == "yes", BandwidthGBs: atof(f[8]),
			Family: f[9], Unified: f[10] == "true", ShortName: f[11],
		})
	}
	return out
}
