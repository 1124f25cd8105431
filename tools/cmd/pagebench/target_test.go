package main

import (
	"strings"
	"testing"
)

// The render target carries numbers as JSON numbers and booleans as booleans (the bridge refuses
// "30" for minTps), only the fields the link sets; a link the engine refuses is an error.
func TestTargetOfIsTyped(t *testing.T) {
	got, err := targetOf("m=NousResearch%2FLlama-2-7b-chat-hf&tps=30&s=kv&ctx=8192&tpl=1")
	if err != nil {
		t.Fatal(err)
	}
	want := `{"context":8192,"minTps":30,"model":"NousResearch/Llama-2-7b-chat-hf","sizing":"kv","template":true}`
	if got != want {
		t.Errorf("targetOf = %s, want %s", got, want)
	}
	for _, bad := range []string{"m=no-such-model", "tps=abc"} {
		if _, err := targetOf(bad); err == nil || !strings.Contains(err.Error(), "refuses") {
			t.Errorf("targetOf(%q) = %v, want the engine's refusal", bad, err)
		}
	}
}
