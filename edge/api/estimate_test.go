package api_test

import (
	"testing"

	"github.com/fitclaim/fitclaim/edge/api"
	"github.com/fitclaim/fitclaim/estimate"
)

// estimateCases: the reverse question over HTTP gives the command line's bytes (the hand-computed
// case of fit's estimate tests: 6.53 GiB of 24, 106 tok/s, 151,270 tokens, 18 sequences).
func estimateCases(t *testing.T, v string) []tcase {
	t.Helper()
	fitting, err := estimate.Fitting("on=nvidia-rtx-4090&limit=5")
	if err != nil {
		t.Fatal(err)
	}
	return []tcase{
		{name: "estimate by numbers", target: v + "estimate.json?p=8&L=32&kvh=8&hd=128&memory=24&bandwidth=1000&family=nvidia", status: 200, ctype: api.TypeJSON,
			body: `{"fits":true,"needGiB":6.53,"usableGiB":24,"tokensPerSecond":106,"maxContextTokens":151270,"maxSequences":18}` + "\n"},
		{name: "estimate does not fit", target: v + "estimate.json?p=70&memory=24&bandwidth=1000&family=nvidia", status: 200, ctype: api.TypeJSON,
			contains: `"fits":false`},
		{name: "estimate bad family", target: v + "estimate.json?p=8&memory=24&bandwidth=1000&family=tpu", status: 400, ctype: api.TypeText,
			contains: "Device family (family): must be one of nvidia, nvidia-pascal, nvidia-unified, amd, apple, intel, other"},
		{name: "estimate no device", target: v + "estimate.json?p=8", status: 400, ctype: api.TypeText, contains: "Device (on): choose a catalog Device (on), or give Device memory (memoryGiB, memory), Device bandwidth (bandwidthGBs, bandwidth) and Device family (family)"},
		{name: "fitting on a 4090", target: v + "fitting.json?on=nvidia-rtx-4090&limit=5", status: 200, ctype: api.TypeJSON, body: estimate.FittingJSON(fitting) + "\n"},
		{name: "fitting bad limit", target: v + "fitting.json?on=nvidia-rtx-4090&limit=500", status: 400, ctype: api.TypeText, contains: "limit: must be a whole number from 1 to 100"},
		{name: "fitting unknown key", target: v + "fitting.json?on=nvidia-rtx-4090&m=x", status: 400, ctype: api.TypeText, contains: `unknown key "m"`},
	}
}
