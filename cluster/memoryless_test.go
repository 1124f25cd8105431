package cluster

import (
	"testing"

	"github.com/fitclaim/fitclaim/fit"
)

// A DGX Spark's GB10 as NVIDIA's driver publishes it: NVML reports no memory for its unified
// memory, so the device has no memory capacity. A claim that lists it takes it by its name
// (fit.ProductsWithoutMemory); a board whose memory is merely missing still fails the clause.
const sparkSlice = `apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata:
  name: spark-gpu.nvidia.com-1
spec:
  driver: gpu.nvidia.com
  nodeName: spark
  pool:
    generation: 1
    name: spark
    resourceSliceCount: 1
  devices:
  - name: gpu-0
    attributes:
      type:
        string: gpu
      productName:
        string: NVIDIA GB10
  - name: gpu-1
    attributes:
      type:
        string: gpu
      productName:
        string: NVIDIA H100 80GB HBM3
`

func TestMemorylessGB10TakenByName(t *testing.T) {
	b := bounds(t, fit.DriverNVIDIA, 70, 200, 1, "NVIDIA H100 80GB HBM3", "NVIDIA GB10")
	r, err := Check(b, []byte(sparkSlice))
	if err != nil {
		t.Fatal(err)
	}
	sameRows(t, r, []string{
		"spark/gpu-0: model",
		"spark/gpu-1: no: no memory capacity",
	})
	// not listed (the floor above its memory, or too slow): no name takes it
	b = bounds(t, fit.DriverNVIDIA, 70, 200, 1, "NVIDIA H100 80GB HBM3")
	if r, err = Check(b, []byte(sparkSlice)); err != nil {
		t.Fatal(err)
	}
	sameRows(t, r, []string{
		"spark/gpu-0: no: no memory capacity; productName NVIDIA GB10 not in the allow-list",
		"spark/gpu-1: no: no memory capacity",
	})
}
