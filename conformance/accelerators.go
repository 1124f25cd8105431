package conformance

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"

	"github.com/fitclaim/fitclaim/catalog"
)

// RepoDir is the repository root, seen from this nested module.
const RepoDir = ".."

// Accel is the part of an accelerator the fleet needs. It is filled from
// catalog.Accelerators() or, independently, from accelerators.csv.
type Accel struct {
	ID, Vendor, Name, Driver, ProductName string
	MemoryMiB                             int64
	BandwidthGBs                          float64
	// NoMemory: its driver publishes no memory capacity. NVML reports no memory for NVIDIA's
	// unified-memory board (the GB10: nvidia-smi "Not Supported"), and NVIDIA's DRA driver then
	// leaves `memory` out; data/accelerators.csv's family nvidia-unified says which rows.
	NoMemory bool
}

// BandwidthInt is the bandwidth an llmfit.ai device publishes as its integer
// memoryBandwidthGBs attribute (rounded down: a device never claims more).
func (a Accel) BandwidthInt() int64 { return int64(math.Floor(a.BandwidthGBs)) }

// ReadAcceleratorsCSV reads the repository's data/accelerators.csv.
func ReadAcceleratorsCSV(path string) ([]Accel, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	head, err := r.Read()
	if err != nil {
		return nil, err
	}
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	for _, h := range []string{"id", "vendor", "name", "dra_driver", "product_name", "memory_mib", "bandwidth_gbs"} {
		if _, ok := col[h]; !ok {
			return nil, fmt.Errorf("%s: no column %q", path, h)
		}
	}
	var out []Accel
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		mem, err := strconv.ParseInt(rec[col["memory_mib"]], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: memory_mib: %w", path, rec[0], err)
		}
		bw, err := strconv.ParseFloat(rec[col["bandwidth_gbs"]], 64)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: bandwidth_gbs: %w", path, rec[0], err)
		}
		noMemory := false
		if i, ok := col["family"]; ok {
			noMemory = rec[col["vendor"]] == "nvidia" && rec[i] == "nvidia-unified"
		}
		out = append(out, Accel{
			ID: rec[col["id"]], Vendor: rec[col["vendor"]], Name: rec[col["name"]],
			Driver: rec[col["dra_driver"]], ProductName: rec[col["product_name"]],
			MemoryMiB: mem, BandwidthGBs: bw, NoMemory: noMemory,
		})
	}
	return out, nil
}

// CatalogAccelerators is catalog.Accelerators() as Accels.
func CatalogAccelerators() []Accel {
	var out []Accel
	for _, a := range catalog.Accelerators() {
		out = append(out, Accel{
			ID: a.ID, Vendor: a.Vendor, Name: a.Name, Driver: a.Driver, ProductName: a.ProductName,
			MemoryMiB: a.MemoryMiB, BandwidthGBs: a.BandwidthGBs,
			NoMemory: a.Vendor == "nvidia" && a.Family == "nvidia-unified",
		})
	}
	return out
}
