package later

import (
	"encoding/json"
	"testing"

	"github.com/fitclaim/fitclaim/deploy"
	"github.com/fitclaim/fitclaim/target"
)

// The page gets deploy.Render's bytes and verdict unchanged.
func TestDeployJSON(t *testing.T) {
	tg, err := target.ParsePermalink("m=Qwen%2FQwen3-8B&q=BF16&ctx=32768")
	if err != nil {
		t.Fatal(err)
	}
	r, err := deploy.Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		YAML     string   `json:"yaml"`
		Summary  string   `json:"summary"`
		Starts   bool     `json:"starts"`
		Args     []string `json:"args"`
		Port     int      `json:"port"`
		APIQuery string   `json:"apiQuery"`
	}
	if err := json.Unmarshal([]byte(DeployJSON(r)), &got); err != nil {
		t.Fatal(err)
	}
	if got.YAML != r.YAML || got.Summary != r.Summary || got.Starts || got.Port != 8000 || len(got.Args) != len(r.Args) ||
		got.APIQuery != "m=Qwen%2FQwen3-8B&q=BF16&ctx=32768" {
		t.Errorf("%+v", got)
	}
}
