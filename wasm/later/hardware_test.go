package later

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/estimate"
)

// The hardware mode holds the API's estimate object byte for byte, the command line's text and
// the list of fitting models.
func TestHardwareJSON(t *testing.T) {
	q := "p=8&L=32&kvh=8&hd=128&memory=24&bandwidth=1000&family=nvidia"
	out, err := HardwareJSON(q)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Estimate json.RawMessage
		Text     string
		Fitting  []map[string]any
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	e, err := estimate.RunRaw(q)
	if err != nil {
		t.Fatal(err)
	}
	if string(v.Estimate) != estimate.JSON(e) || v.Text != estimate.Text(e) || len(v.Fitting) != HardwareFitting {
		t.Errorf("hardware: %s", out)
	}
	// No model: the fitting list alone.
	out, err = HardwareJSON("on=nvidia-rtx-4090")
	if err != nil || !strings.HasPrefix(out, `{"estimate":null,"text":"","fitting":[{`) {
		t.Errorf("no model: %v %s", err, out)
	}
	if _, err := HardwareJSON("on=nvidia-rtx-4090&family=amd"); err == nil {
		t.Error("on with family: no error")
	}
}
