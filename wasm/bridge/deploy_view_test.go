package bridge

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/deploy"
	"github.com/fitclaim/fitclaim/fit"
)

func TestDeployOptions(t *testing.T) {
	o, err := DeployOptions(map[string]Value{"engine": {Type: "string", Str: "llama.cpp"}, "image": {Type: "string", Str: "r/x:1"}})
	if err != nil || o.Engine != "llama.cpp" || o.Image != "r/x:1" {
		t.Fatalf("%+v, %v", o, err)
	}
	for _, bad := range []map[string]Value{{"engine": {Type: "number", Num: 1}}, {"gpu": {Type: "string", Str: "x"}}} {
		var fe *fit.FieldError
		if _, err := DeployOptions(bad); !errors.As(err, &fe) {
			t.Errorf("%v: %v, want a field error", bad, err)
		}
	}
}

// The page gets deploy.Render's bytes and verdict unchanged.
func TestDeployJSON(t *testing.T) {
	tg, err := claim.ParsePermalink("m=Qwen%2FQwen3-8B&q=BF16&ctx=32768")
	if err != nil {
		t.Fatal(err)
	}
	r, err := deploy.Render(tg, deploy.Options{})
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
