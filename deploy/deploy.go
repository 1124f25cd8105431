// Package deploy writes what runs a model on its claim: the ResourceClaimTemplate exactly as
// package claim renders it, an apps/v1 Deployment whose pods reference that template, and a v1
// Service in front of them, with the serving engine's arguments (vLLM or llama.cpp's server)
// taken from the fit. It is pure Go, like claim: no Kubernetes libraries (the conformance module
// proves the output against Kubernetes' own validation), no file system, no network.
package deploy

import (
	"strings"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// Result is everything a surface shows for a deployment. YAML is the exact bytes the page, the
// API and the command line serve.
type Result struct {
	Claim    claim.Result // the ResourceClaimTemplate, as claim.Render writes it for template mode
	Name     string       // the Deployment's and the Service's name (and the pods' label)
	Engine   string
	Image    string
	Args     []string
	Port     int
	Starts   bool     // the engine starts and serves what the claim was sized for
	Summary  string   // one line, e.g. "vLLM starts: 4 requests of 8192 tokens at once"
	Problems []string // what else goes wrong (the summary says the first reason it does not start), each with its fix
	YAML     string
	Query    string // the API query (GET /api/v1/deploy.yaml?…) that gives these bytes
}

// cacheDir is where both engines' images download to, as root: vLLM through huggingface_hub
// ($HOME/.cache/huggingface, HF_HOME's default), llama.cpp's -hf ($HOME/.cache/llama.cpp, or
// the Hugging Face cache in newer builds). In the container's own layer a download is lost when
// the container restarts (DeepSeek-V3 is ~690 GB); an emptyDir keeps it for the pod's life.
const cacheDir = "/root/.cache"

// claimRef is the name the pod spec gives its claim, and the container's reference to it.
const claimRef = "gpus"

// Render sizes the target, renders its claim as a template and writes the Deployment and the
// Service around it, for the target's engine and image. Errors are *target.FieldError.
func Render(asked target.Target) (Result, error) { return render(asked, true) }

// RenderYAML is Render's YAML alone (the same bytes and errors), for the API: it leaves out what
// the YAML does not hold, the claim's JSON and warnings, the query, and the accelerator matches
// unless the vLLM plan reads them. In the edge worker the matches were a third of the request.
func RenderYAML(asked target.Target) (string, error) {
	r, err := render(asked, false)
	return r.YAML, err
}

// RenderYAMLWarnings is RenderYAML and the Result's Warnings (the same words and order as
// Render's), for the API's deploy.yaml, which answers them in Warning headers: still without
// the claim's JSON and query, and the matches as RenderYAML reads them (claim.Warnings judges
// them only when nothing fits).
func RenderYAMLWarnings(asked target.Target) (string, []string, error) {
	r, err := render(asked, false)
	if err != nil {
		return "", nil, err
	}
	return r.YAML, r.Warnings(), nil
}

// Warnings are what `fitclaim deploy` prints as warnings on stderr: the claim's
// (Claim.Warnings), then the Problems, each with its fix. (The Summary it prints between them
// is no warning; the YAML's header says it.)
func (r *Result) Warnings() []string {
	if len(r.Problems) == 0 {
		return r.Claim.Warnings
	}
	return append(r.Claim.Warnings[:len(r.Claim.Warnings):len(r.Claim.Warnings)], r.Problems...)
}

// render is Render; without all, the Result holds only what its YAML needs (RenderYAML) and
// the warnings.
func render(asked target.Target, all bool) (Result, error) {
	t, err := ClaimTarget(asked)
	if err != nil {
		return Result{}, err
	}
	engine := t.Engine
	var query string
	var c claim.Result
	if all {
		query = target.Permalink(asked)
		c, err = claim.Render(t)
	} else {
		c, err = claim.RenderYAMLResult(t)
	}
	if err != nil {
		return Result{}, err
	}
	ignoredAsked(&c, &t, &asked) // claim.RenderYAMLResult has the warnings too
	b := &c.Bounds
	if b.Custom {
		return Result{}, target.NewFieldError("model", "a Deployment serves a catalog model (a Hugging Face repository); a custom size names none: choose a model")
	}
	var p plan
	image := t.Image
	if engine == target.EngineLlamaCpp {
		if image == "" {
			image = llamaCppImage(b.Target.Driver)
		}
		p = llamaCppPlan(b, image)
	} else {
		if image == "" {
			image = VLLMImage
		}
		if !all && b.Driver.Name == fit.DriverNVIDIA {
			// the plan reads the matches for NVIDIA's driver only (vllmDevice, bf16Note)
			c.Matches = fit.Matches(*b)
		}
		p = vllmPlan(b, c.Matches, image, asked.MaxNumSeqs > 0)
	}
	r := Result{
		Claim: c, Name: workloadName(c.Name), Engine: engine, Image: image, Args: p.Args, Port: p.Port,
		Starts: p.Starts, Summary: p.Summary, Problems: p.Problems, Query: query,
	}
	r.YAML = manifests(&r, &p, b)
	return r, nil
}

// ignoredAsked makes the claim's warning about the values llmfit's sizing ignores name those
// asked: ClaimTarget fills in the engine and vLLM's --max-num-seqs, which the user did not give.
func ignoredAsked(c *claim.Result, filled, asked *target.Target) {
	had := claim.IgnoredBySizing(filled)
	if had == "" {
		return
	}
	now := claim.IgnoredBySizing(asked)
	for i, w := range c.Warnings {
		if w == had {
			if now == "" {
				c.Warnings = append(c.Warnings[:i:i], c.Warnings[i+1:]...)
			} else {
				c.Warnings[i] = now
			}
			return
		}
	}
}

// ClaimTarget is the target whose claim the Deployment uses, as `fitclaim claim` would render it:
// a template (each pod gets its own claim from it), sized for the engine that runs on it ("" is
// vLLM), and under vLLM for the --max-num-seqs the Deployment writes (the sequences, unless the
// target gives it), whose sampler rows are part of vLLM's activation peak.
func ClaimTarget(t target.Target) (target.Target, error) {
	engine, err := engineOf(&t)
	if err != nil {
		return t, err
	}
	if err := checkDeployFields(&t); err != nil {
		return t, err
	}
	t.Template, t.Engine = true, engine
	if engine == target.EngineVLLM && t.MaxNumSeqs == 0 {
		t.MaxNumSeqs = t.Sequences
	}
	return t, nil
}

// header explains every number of the Deployment and the Service.
func header(r *Result, p *plan, b *fit.Bounds) []string {
	h := []string{
		"Generated by fitclaim " + claim.Version + ": a Deployment and a Service",
		"model:  " + claim.CommentSafe(b.Model.Name) + " on the claim above, ResourceClaimTemplate " + r.Claim.Name,
		"pods:   1 replica, strategy Recreate: a new pod can only get devices once the old one has freed them; each pod gets " +
			plural(b.Target.Count, "device") + " of its own from the template (pod resourceClaims " + claimRef +
			", the container's resources.claims " + claimRef + ")",
	}
	h = append(h, p.Explain...)
	h = append(h,
		"probe:  readiness GET /health on port "+itoa(r.Port)+": the Service sends requests once the model is loaded; "+
			"no liveness probe, so a long download is never restarted",
		"env:    HF_TOKEN from Secret hf-token (key token) when it exists, for gated repositories; "+
			"enableServiceLinks false: no Service's variables in the container (a Service named vllm "+
			"would set VLLM_PORT=tcp://…, which vLLM refuses to start with)")
	h = append(h, "cache:  "+cacheDir+" in an emptyDir: a restarted container keeps what it downloaded (the weights, "+
		"under huggingface/ or llama.cpp/) instead of downloading it again; it lives as long as the pod, on its node's disk")
	h = append(h, qosLine(&b.Target))
	if p.SHM {
		h = append(h, "shm:    /dev/shm in memory: vLLM's "+itoa(b.Target.Count)+" tensor-parallel workers exchange tensors through it")
	}
	if !claim.HeaderSaysWarnings(b) { // llmfit sizing: the claim's header is llmfit's and says none
		for _, w := range r.Claim.Warnings {
			h = append(h, "WARNING: "+w)
		}
	}
	for _, problem := range p.Problems {
		h = append(h, "WARNING: "+problem)
	}
	return append(h, r.Summary)
}

// qosLine says what the container asks of its node besides the devices: its CPU and memory
// requests as given (cpuRequest, memoryRequest), else none, and what the pod's QoS class then
// means. No figure is written for the user: the host memory an engine takes to load the weights
// depends on its loader (vLLM's safetensors and llama.cpp's GGUF files are memory-mapped, the
// page cache they fill is charged to the pod but reclaimable), not on a rule fitclaim can source.
func qosLine(t *target.Target) string {
	if t.CPURequest == "" && t.MemoryRequest == "" {
		return "qos:    BestEffort: no CPU or memory request, so the pod is the first its node evicts when short of memory " +
			"and its engine (API server, tokenizer, scheduler) gets only the CPU other pods leave; set cpuRequest and " +
			"memoryRequest (--cpu-request, --memory-request) for your nodes: no figure is written for you, as the host " +
			"memory loading takes depends on the engine's loader (it maps the weights' files), not on a rule fitclaim can source"
	}
	var asked []string
	if t.CPURequest != "" {
		asked = append(asked, "cpu "+t.CPURequest)
	}
	if t.MemoryRequest != "" {
		asked = append(asked, "memory "+t.MemoryRequest)
	}
	return "qos:    Burstable: requests " + strings.Join(asked, " and ") + ", as asked, and no limits " +
		"(a memory limit would stop the container if loading the weights took more)"
}

// manifestsSize is room for the Deployment and the Service with their header: 3-4 KB for the
// catalog's models under either engine (deploy.yaml's bodies, less the claim's part).
const manifestsSize = 4 << 10

// manifests is the whole YAML: the claim's document, then the Deployment and the Service.
func manifests(r *Result, p *plan, b *fit.Bounds) string {
	var w lines
	// Grown once, not doubled as it is written (each doubling copied and cleared what it had).
	w.b.Grow(len(r.Claim.YAML) + len("---\n") + manifestsSize)
	w.b.WriteString(r.Claim.YAML)
	w.b.WriteString("---\n")
	for _, l := range header(r, p, b) {
		claim.WriteComment(&w.b, claim.CommentSafe(l)) // 80 columns, as the claim's header
	}
	name := quote(r.Name)
	labels := func(in int) {
		w.line(in, "labels:")
		w.line(in+2, "app.kubernetes.io/name: ", name)
	}
	// object starts the Deployment and the Service alike, up to their spec.
	object := func(apiVersion, kind string) {
		w.line(0, "apiVersion: ", apiVersion)
		w.line(0, "kind: ", kind)
		w.line(0, "metadata:")
		w.line(2, "name: ", name)
		labels(2)
		w.line(4, "app.kubernetes.io/managed-by: fitclaim")
		w.line(0, "spec:")
	}
	object("apps/v1", "Deployment")
	w.line(2, "replicas: 1")
	w.line(2, "strategy:")
	w.line(4, "type: Recreate")
	w.line(2, "selector:")
	w.line(4, "matchLabels:")
	w.line(6, "app.kubernetes.io/name: ", name)
	w.line(2, "template:")
	w.line(4, "metadata:")
	labels(6)
	w.line(4, "spec:")
	// Kubernetes sets {NAME}_PORT=tcp://IP:PORT in the container for every Service of the
	// namespace (enableServiceLinks, on by default); a Service named vllm sets VLLM_PORT, which
	// vLLM reads as its own port and refuses ("VLLM_PORT 'tcp://…' appears to be a URI", vllm/envs.py).
	w.line(6, "enableServiceLinks: false")
	w.line(6, "resourceClaims:")
	w.line(8, "- name: "+claimRef)
	w.line(10, "resourceClaimTemplateName: ", quote(r.Claim.Name))
	w.line(6, "containers:")
	w.line(8, "- name: ", p.Name)
	w.line(10, "image: ", quote(r.Image))
	if len(p.Command) > 0 {
		w.line(10, "command:")
		for _, c := range p.Command {
			w.line(12, "- ", quote(c))
		}
	}
	w.line(10, "args:")
	for _, a := range r.Args {
		w.line(12, "- ", quote(a))
	}
	w.line(10, "env:")
	w.line(12, "- name: HF_TOKEN")
	w.line(14, "valueFrom:")
	w.line(16, "secretKeyRef:")
	w.line(18, "name: hf-token")
	w.line(18, "key: token")
	w.line(18, "optional: true")
	w.line(10, "ports:")
	w.line(12, "- name: http")
	w.line(14, "containerPort: ", itoa(r.Port))
	w.line(14, "protocol: TCP")
	w.line(10, "readinessProbe:")
	w.line(12, "httpGet:")
	w.line(14, "path: /health")
	w.line(14, "port: http")
	w.line(12, "periodSeconds: 10")
	w.line(10, "resources:")
	if t := &b.Target; t.CPURequest != "" || t.MemoryRequest != "" {
		w.line(12, "requests:")
		if t.CPURequest != "" {
			w.line(14, "cpu: ", quote(t.CPURequest))
		}
		if t.MemoryRequest != "" {
			w.line(14, "memory: ", quote(t.MemoryRequest))
		}
	}
	w.line(12, "claims:")
	w.line(14, "- name: "+claimRef)
	w.line(10, "volumeMounts:")
	w.line(12, "- name: cache")
	w.line(14, "mountPath: "+cacheDir)
	if p.SHM {
		w.line(12, "- name: shm")
		w.line(14, "mountPath: /dev/shm")
	}
	w.line(6, "volumes:")
	w.line(8, "- name: cache")
	w.line(10, "emptyDir: {}")
	if p.SHM {
		w.line(8, "- name: shm")
		w.line(10, "emptyDir:")
		w.line(12, "medium: Memory")
	}
	w.line(0, "---")
	object("v1", "Service")
	w.line(2, "selector:")
	w.line(4, "app.kubernetes.io/name: ", name)
	w.line(2, "ports:")
	w.line(4, "- name: http")
	w.line(6, "port: ", itoa(r.Port))
	w.line(6, "targetPort: http")
	w.line(6, "protocol: TCP")
	return w.b.String()
}
