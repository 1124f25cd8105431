package conformance

import (
	"bytes"
	"slices"
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/deploy"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// deployGrid is a spread of catalog models (every step-th entry, so every size and every
// quantization of the catalog appears) × both engines × 1, 2, 4 and 8 devices, over the drivers
// in turn and both sizings.
func deployGrid(step int) []target.Target {
	drivers := fit.DriverNames()
	var out []target.Target
	models := catalog.Models()
	for i := 0; i < len(models); i += step {
		for j, n := range []int{1, 2, 4, 8} {
			t := target.Default()
			t.Model, t.Count = models[i].Name, n
			t.Driver = drivers[(i/step+j)%len(drivers)]
			if j%2 == 1 {
				t.Sizing, t.Sequences, t.Context = target.SizingKV, 1+j, 4096*j
			}
			out = append(out, t)
		}
	}
	// Every third target gives the pod what only the Deployment reads: vLLM's
	// --trust-remote-code and CPU and memory requests, in the quantity spellings the form takes.
	requests := [][2]string{{"8", "64Gi"}, {"500m", ""}, {"", "1.5Ti"}, {"2.5", "96G"}, {"16", "131072Mi"}}
	for i := range out {
		if i%3 == 2 {
			r := requests[(i/3)%len(requests)]
			out[i].TrustRemoteCode, out[i].CPURequest, out[i].MemoryRequest = true, r[0], r[1]
		}
	}
	named := target.Default()
	named.Model, named.Name, named.Count = "Qwen/Qwen3-8B", "my.claim.v2", 2
	return append(out, named)
}

// Every deploy output is three documents that Kubernetes decodes strictly and validates with
// its own validators; the first is byte for byte claim's template; the pod references it.
func TestDeployConforms(t *testing.T) {
	step := 31
	if testing.Short() {
		step = 97
	}
	checked := 0
	for _, tg := range deployGrid(step) {
		for _, engine := range deploy.Engines() {
			tg := tg
			tg.Engine = engine
			r, err := deploy.Render(tg)
			if err != nil {
				// A catalog entry the nvidia driver cannot serve is refused as the claim is.
				if _, cerr := claim.Render(tg); cerr == nil {
					t.Errorf("%s %s: deploy refused a target claim renders: %v", target.Permalink(tg), engine, err)
				}
				continue
			}
			checkWorkload(t, tg, engine, r)
			checked++
		}
	}
	t.Logf("%d deploy outputs decoded, validated and cross-checked", checked)
	readmeFigure(t, `Service \(([0-9,]+) outputs:`, checked)
	confFigure(t, `vLLM and llama\.cpp = ([0-9,]+) outputs`, checked)
	if checked < 50 {
		t.Fatalf("only %d outputs checked", checked)
	}
}

func checkWorkload(t *testing.T, tg target.Target, engine string, r deploy.Result) {
	t.Helper()
	where := target.Permalink(tg) + " engine=" + engine
	w, err := DecodeWorkload([]byte(r.YAML))
	if err != nil {
		t.Errorf("%s: %v", where, err)
		return
	}
	tpl := tg // the claim of `claim --template --engine E`, and under vLLM --max-num-seqs = the sequences
	tpl.Template, tpl.Engine = true, engine
	if engine == target.EngineVLLM && tpl.MaxNumSeqs == 0 {
		tpl.MaxNumSeqs = tpl.Sequences
	}
	c, err := claim.Render(tpl)
	if err != nil {
		t.Fatalf("%s: claim: %v", where, err)
	}
	if !bytes.Equal(w.TemplateDoc, []byte(c.YAML)) {
		t.Errorf("%s: the claim document is not claim's template output", where)
	}
	d, s := w.Deployment, w.Service
	pod := &d.Spec.Template.Spec
	if len(pod.ResourceClaims) != 1 || pod.ResourceClaims[0].ResourceClaimTemplateName == nil ||
		*pod.ResourceClaims[0].ResourceClaimTemplateName != w.Template.Name() {
		t.Errorf("%s: pod resourceClaims %+v do not name the template %s", where, pod.ResourceClaims, w.Template.Name())
		return
	}
	if len(pod.Containers) != 1 {
		t.Fatalf("%s: %d containers", where, len(pod.Containers))
	}
	ctr := &pod.Containers[0]
	if len(ctr.Resources.Claims) != 1 || ctr.Resources.Claims[0].Name != pod.ResourceClaims[0].Name {
		t.Errorf("%s: container claims %+v, pod claim %s", where, ctr.Resources.Claims, pod.ResourceClaims[0].Name)
	}
	sel := labels.SelectorFromSet(d.Spec.Selector.MatchLabels)
	if !sel.Matches(labels.Set(d.Spec.Template.Labels)) || !labels.SelectorFromSet(s.Spec.Selector).Matches(labels.Set(d.Spec.Template.Labels)) {
		t.Errorf("%s: selectors do not match the pod labels", where)
	}
	if d.Name != s.Name || d.Name != r.Name {
		t.Errorf("%s: names %s, %s, want %s", where, d.Name, s.Name, r.Name)
	}
	port := map[string]int32{target.EngineVLLM: 8000, target.EngineLlamaCpp: 8080}[engine]
	if len(ctr.Ports) != 1 || ctr.Ports[0].ContainerPort != port || len(s.Spec.Ports) != 1 ||
		s.Spec.Ports[0].Port != port || s.Spec.Ports[0].TargetPort.StrVal != ctr.Ports[0].Name {
		t.Errorf("%s: ports %+v / %+v, want %d", where, ctr.Ports, s.Spec.Ports, port)
	}
	if p := ctr.ReadinessProbe; p == nil || p.HTTPGet == nil || p.HTTPGet.Path != "/health" {
		t.Errorf("%s: readiness probe %+v", where, p)
	}
	if !slices.Equal(ctr.Args, r.Args) {
		t.Errorf("%s: args decoded %q, rendered %q", where, ctr.Args, r.Args)
	}
	if pod.EnableServiceLinks == nil || *pod.EnableServiceLinks {
		t.Errorf("%s: service links are on: a Service named vllm in the namespace sets VLLM_PORT=tcp://…, which vLLM refuses", where)
	}
	flags := map[string]bool{}
	for _, a := range ctr.Args {
		if len(a) > 1 && a[0] == '-' && (a[1] < '0' || a[1] > '9') {
			if flags[a] {
				t.Errorf("%s: %s given twice (the engine keeps the last; the header explains one): %q", where, a, ctr.Args)
			}
			flags[a] = true
		}
	}
	// The requests asked, read back by Kubernetes' own quantity parser; none asked, none written
	// (the pod is BestEffort, as the header says).
	for name, asked := range map[corev1.ResourceName]string{corev1.ResourceCPU: tg.CPURequest, corev1.ResourceMemory: tg.MemoryRequest} {
		got, ok := ctr.Resources.Requests[name]
		switch {
		case asked == "" && ok:
			t.Errorf("%s: %s request %s, none asked", where, name, got.String())
		case asked != "" && (!ok || got.Cmp(resource.MustParse(asked)) != 0 || got.Sign() <= 0):
			t.Errorf("%s: %s request %v, asked %s", where, name, ctr.Resources.Requests, asked)
		}
	}
	if len(ctr.Resources.Limits) > 0 {
		t.Errorf("%s: limits %v: a memory limit would stop the container while it loads the weights", where, ctr.Resources.Limits)
	}
	if trust := slices.Contains(ctr.Args, "--trust-remote-code"); trust != (tg.TrustRemoteCode && engine == target.EngineVLLM) {
		t.Errorf("%s: --trust-remote-code written %v, asked %v (vLLM only): %q", where, trust, tg.TrustRemoteCode, ctr.Args)
	}
	cache := slices.ContainsFunc(pod.Volumes, func(v corev1.Volume) bool { return v.Name == "cache" && v.EmptyDir != nil && v.EmptyDir.Medium == "" })
	if !cache || !slices.ContainsFunc(ctr.VolumeMounts, func(m corev1.VolumeMount) bool { return m.Name == "cache" && m.MountPath == "/root/.cache" }) {
		t.Errorf("%s: no emptyDir cache at /root/.cache: a restarted container downloads the weights again", where)
	}
	count := strconv.Itoa(max(1, tg.Count))
	shm := slices.ContainsFunc(pod.Volumes, func(v corev1.Volume) bool { return v.Name == "shm" && v.EmptyDir != nil })
	switch engine {
	case target.EngineVLLM:
		if i := slices.Index(ctr.Args, "--tensor-parallel-size"); i < 0 || ctr.Args[i+1] != count {
			t.Errorf("%s: --tensor-parallel-size is not %s: %q", where, count, ctr.Args)
		}
		// the model is `vllm serve`'s positional argument, first: --model is deprecated in v0.20
		// and unknown to the builds that only take `vllm serve <model_tag>`
		if len(ctr.Args) == 0 || ctr.Args[0] != c.Bounds.Model.Name || slices.Contains(ctr.Args, "--model") {
			t.Errorf("%s: vLLM's args do not start with the model %s: %q", where, c.Bounds.Model.Name, ctr.Args)
		}
		if !slices.Equal(ctr.Command, []string{"vllm", "serve"}) {
			t.Errorf("%s: vLLM's command %q, want vllm serve (an image's entrypoint may be a shell)", where, ctr.Command)
		}
		if shm != (tg.Count > 1) {
			t.Errorf("%s: shm volume %v with %s devices", where, shm, count)
		}
	case target.EngineLlamaCpp:
		if !slices.Contains(ctr.Args, "-ngl") || shm || len(ctr.Command) > 0 {
			t.Errorf("%s: llama.cpp command %q, args %q, shm %v", where, ctr.Command, ctr.Args, shm)
		}
		// llama.cpp keeps a quantized V cache only with flash attention (src/llama-context.cpp)
		if i := slices.Index(ctr.Args, "--cache-type-v"); i >= 0 && ctr.Args[i+1] != "f16" {
			if j := slices.Index(ctr.Args, "--flash-attn"); j < 0 || ctr.Args[j+1] != "on" {
				t.Errorf("%s: --cache-type-v %s without --flash-attn on: %q", where, ctr.Args[i+1], ctr.Args)
			}
		}
	}
}

// deployVariantModels are the cases an SRE would deploy first: a dense 8B, a mixture of experts,
// a checkpoint-quantized release (gpt-oss's MXFP4), an FP8 671B on 8 devices and a GGUF
// repository (llama.cpp's).
var deployVariantModels = []string{
	"meta-llama/Llama-3.1-8B-Instruct", "Qwen/Qwen3-30B-A3B-Instruct-2507", "openai/gpt-oss-120b",
	"deepseek-ai/DeepSeek-V3", "unsloth/Llama-3.3-70B-Instruct-GGUF",
}

// Every deploy variant of those models, exhaustively: engine × driver × 1, 2, 8 devices ×
// template off and on × both sizings (kv with the engine's 1-byte KV cache: vLLM's fp8,
// llama.cpp's q8_0). deploy always writes a template, so a target asking for
// one gets the same bytes as one that does not; each output passes every check of
// TestDeployConforms.
func TestDeployEveryVariant(t *testing.T) {
	checked := 0
	for _, model := range deployVariantModels {
		if m, err := catalog.Lookup(model); err != nil || m.Name != model {
			t.Fatalf("%s is not in the catalog: %v", model, err)
		}
		for _, engine := range deploy.Engines() {
			for _, driver := range fit.DriverNames() {
				for _, count := range []int{1, 2, 8} {
					for _, sizing := range []string{target.SizingLlmfit, target.SizingKV} {
						tg := target.Default()
						tg.Model, tg.Engine, tg.Driver, tg.Count, tg.Sizing = model, engine, driver, count, sizing
						if sizing == target.SizingKV { // and the engine's 1-byte KV cache
							tg.Context, tg.Sequences = 8192, 4
							tg.KVCache = map[string]string{target.EngineVLLM: "fp8", target.EngineLlamaCpp: "q8_0"}[engine]
						}
						off, errOff := deploy.Render(tg)
						tg.Template = true
						on, errOn := deploy.Render(tg)
						if (errOff == nil) != (errOn == nil) || errOff != nil && errOff.Error() != errOn.Error() {
							t.Errorf("%s: template off %v, on %v", target.Permalink(tg), errOff, errOn)
							continue
						}
						if errOn != nil {
							if _, cerr := claim.Render(tg); cerr == nil {
								t.Errorf("%s: deploy refused a target claim renders: %v", target.Permalink(tg), errOn)
							}
							continue
						}
						if off.YAML != on.YAML {
							t.Errorf("%s: template on changes the output", target.Permalink(tg))
						}
						tg.Template = false
						checkWorkload(t, tg, engine, off)
						tg.Template = true
						checkWorkload(t, tg, engine, on)
						checked += 2
					}
				}
			}
		}
	}
	t.Logf("%d deploy variants decoded, validated and cross-checked", checked)
	readmeFigure(t, `every variant \(([0-9,]+) outputs`, checked)
	confFigure(t, `every variant \(([0-9,]+) outputs`, checked)
}

// The validators are not vacuous: each mutation of a good output is refused.
func TestDeployMutationsRefused(t *testing.T) {
	tg := target.Default()
	tg.Model, tg.Count, tg.Driver = "Qwen/Qwen3-8B", 2, fit.DriverNVIDIA
	r, err := deploy.Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	good := r.YAML
	if _, err := DecodeWorkload([]byte(good)); err != nil {
		t.Fatalf("the unmutated output fails: %v", err)
	}
	name := strconv.Quote(r.Name)
	mutations := map[string][2]string{
		"unknown field":            {"  replicas: 1\n", "  replicas: 1\n  replica: 1\n"},
		"port 0":                   {"containerPort: 8000", "containerPort: 0"},
		"port too large":           {"port: 8000", "port: 70000"},
		"selector not matching":    {"    matchLabels:\n      app.kubernetes.io/name: " + name, "    matchLabels:\n      app.kubernetes.io/name: other"},
		"claim reference unknown":  {"        - name: gpus\n", "        - name: gpus2\n"},
		"bad template name":        {"resourceClaimTemplateName: ", "resourceClaimTemplateName: Bad_Name\n          x: "},
		"service name a subdomain": {"kind: Service\nmetadata:\n  name: " + name, "kind: Service\nmetadata:\n  name: a.b"},
		"probe port invalid":       {"port: http\n            periodSeconds", "port: Bad_Port\n            periodSeconds"},
		"two documents":            {"---\napiVersion: v1\n", "apiVersion: v1\n"},
	}
	for what, m := range mutations {
		bad := bytes.Replace([]byte(good), []byte(m[0]), []byte(m[1]), 1)
		if bytes.Equal(bad, []byte(good)) {
			t.Errorf("%s: the mutation did not apply", what)
			continue
		}
		if _, err := DecodeWorkload(bad); err == nil {
			t.Errorf("%s: accepted", what)
		} else {
			t.Logf("%s: %v", what, err)
		}
	}
}

// Every quantity the table's request fields take (target.FormQuantity) is one Kubernetes reads,
// above 0, and a Deployment carrying it as a request passes ValidateDeployment; the spellings it
// refuses are said. Kubernetes takes more (1e3, 5n, +1), which the form leaves out.
func TestDeployRequestQuantities(t *testing.T) {
	cpu, ok := target.ByName("cpuRequest")
	if !ok {
		t.Fatal("no field cpuRequest")
	}
	accepted := 0
	for _, q := range []string{"1", "8", "500m", "0.5", "2.5", "100m", "64Gi", "1.5Ti", "96G", "131072Mi", "1k", "1E", "1Ei",
		"0001", "1.000", "007.5Gi", "123456789012", "0.001", "1000000m",
		"0", "0.0", "000m", "-1", "+1", "1e3", "1E3", ".5", "5.", "1.5.5", "5Gb", "5gi", "5 Gi", " 5", "5n", "5u", "1Gi ", "", "Gi", "m", "0x10", "٣"} {
		tg := target.Default()
		tg.Model, tg.Driver = "Qwen/Qwen3-8B", fit.DriverNVIDIA
		tg.CPURequest, tg.MemoryRequest = q, q
		formErr := cpu.CheckForm(&tg)
		parsed, perr := resource.ParseQuantity(q)
		if formErr != nil {
			if q != "" {
				t.Logf("%q refused: %v", q, formErr)
			}
			continue
		}
		if q == "" {
			continue
		}
		if perr != nil || parsed.Sign() <= 0 {
			t.Errorf("%q: the form takes it, Kubernetes reads %v (%v)", q, parsed.String(), perr)
			continue
		}
		for _, engine := range deploy.Engines() {
			tg.Engine = engine
			r, err := deploy.Render(tg)
			if err != nil {
				t.Errorf("%q %s: %v", q, engine, err)
				continue
			}
			checkWorkload(t, tg, engine, r)
		}
		accepted++
	}
	if accepted < 15 {
		t.Errorf("only %d quantities accepted", accepted)
	}
}
