package api

import (
	"hash/crc64"
	"math/rand/v2"
	"testing"
)

// TestCRC64XZIsChecksum: the slicing-by-8 CRC the ETag uses gives crc64.Checksum's value
// (the ECMA table, slicing-by-8 from 16 bytes) for every length from 0 to 600 bytes of random
// data, and the CRC RevEng catalogue's check value for "123456789", 995dc9bbdf1939fa
// (reveng.sourceforge.io/crc-catalogue/17plus.htm, CRC-64/XZ).
func TestCRC64XZIsChecksum(t *testing.T) {
	if got := crc64XZ([]byte("123456789")); got != 0x995dc9bbdf1939fa {
		t.Errorf("crc64XZ(123456789) = %016x, want 995dc9bbdf1939fa", got)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	ecma := crc64.MakeTable(crc64.ECMA)
	for n := 0; n <= 600; n++ {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		if got, want := crc64XZ(b), crc64.Checksum(b, ecma); got != want {
			t.Fatalf("%d bytes: crc64XZ %016x, crc64.Checksum %016x", n, got, want)
		}
	}
}
