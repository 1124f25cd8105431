package catalog

import "strings"

// Accelerator is one device of the accelerator table: memory as its DRA driver reports it and
// the memory bandwidth that bounds decode speed.
type Accelerator struct {
	ID           string
	Vendor       string // nvidia, amd, intel
	Kind         string // datacenter, workstation, consumer
	Name         string
	Driver       string // the DRA driver that publishes it: gpu.nvidia.com, gpu.amd.com, gpu.intel.com
	ProductName  string // the productName attribute NVIDIA's driver publishes; empty where unknown
	MemoryMiB    int64  // total memory as the driver reports it
	MemoryExact  bool   // a known driver reading, not a spec-sheet approximation
	BandwidthGBs float64
	Notes        string
}

// MemoryBytes is the capacity the driver publishes, in bytes.
func (a *Accelerator) MemoryBytes() int64 { return a.MemoryMiB << 20 }

// Accelerators returns the accelerator table in its source order. Do not modify the slice.
func Accelerators() []Accelerator {
	loadOnce.Do(load)
	return accels
}

func parseAccelerators(text string) []Accelerator {
	var out []Accelerator
	for _, line := range strings.Split(text, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 10 {
			panic("catalog: accelerators.tsv is malformed; run go generate ./catalog")
		}
		out = append(out, Accelerator{
			ID: f[0], Vendor: f[1], Kind: f[2], Name: f[3], Driver: f[4], ProductName: f[5],
			MemoryMiB: atoi64(f[6]), MemoryExact: f[7] == "yes", BandwidthGBs: atof(f[8]), Notes: f[9],
		})
	}
	return out
}
