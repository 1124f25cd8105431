package conformance

import (
	"sort"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/apis/core"
	coreinstall "k8s.io/kubernetes/pkg/apis/core/install"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"

	"github.com/fitclaim/fitclaim/cluster"
)

// coreScheme knows core/v1, its defaults and its conversions to the internal types the API
// server's validation works on.
var coreScheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	coreinstall.Install(s)
	return s
}()

// apiServerRefuses validates the pod as the API server does on create (defaulted, converted,
// ValidatePodSpec with the default options: no alpha gates, label values checked), with one
// container if it has none, so that only what the check reads can fail; it returns the errors.
func apiServerRefuses(t *testing.T, pod *corev1.Pod) field.ErrorList {
	t.Helper()
	p := pod.DeepCopy()
	p.Name, p.Namespace = "p", "default"
	if len(p.Spec.Containers) == 0 {
		p.Spec.Containers = []corev1.Container{{Name: "c", Image: "i"}}
	}
	coreScheme.Default(p)
	var in core.Pod
	if err := coreScheme.Convert(p, &in, nil); err != nil {
		t.Fatal(err)
	}
	return corevalidation.ValidatePodSpec(&in.Spec, &in.ObjectMeta, field.NewPath("spec"), corevalidation.PodValidationOptions{})
}

// What cluster.ParsePod refuses of a pod's nodeSelector, required node affinity and tolerations,
// the API server refuses too (so no workload that runs is refused), and what it accepts the API
// server accepts (so every pod the check weighs is one the scheduler can see): every pod of
// podsToCheck, and a broken one for each rule ParsePod holds.
func TestPodRefusedAsTheAPIServer(t *testing.T) {
	affinity := func(expr string) string {
		return "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [" + expr + "]}}}\n"
	}
	broken := map[string]string{
		"toleration operator":           "tolerations: [{key: k, operator: Matches}]\n",
		"toleration Gt, gate off":       "tolerations: [{key: k, operator: Gt, value: \"3\"}]\n",
		"toleration Lt, gate off":       "tolerations: [{key: k, operator: Lt, value: \"3\", effect: NoSchedule}]\n",
		"toleration key":                "tolerations: [{key: \"-k\", operator: Exists}]\n",
		"toleration value":              "tolerations: [{key: k, value: \"a b\"}]\n",
		"toleration effect":             "tolerations: [{key: k, operator: Exists, effect: Never}]\n",
		"toleration no key, Equal":      "tolerations: [{value: x}]\n",
		"toleration no key, operator":   "tolerations: [{effect: NoSchedule}]\n",
		"toleration Exists with value":  "tolerations: [{key: k, operator: Exists, value: v}]\n",
		"tolerationSeconds, NoSchedule": "tolerations: [{key: k, operator: Exists, effect: NoSchedule, tolerationSeconds: 30}]\n",
		"tolerationSeconds, no effect":  "tolerations: [{key: k, operator: Exists, tolerationSeconds: 30}]\n",
		"nodeSelector value":            "nodeSelector: {example.com/gpu: \"-yes\"}\n",
		"nodeSelector long value":       "nodeSelector: {example.com/gpu: " + strings.Repeat("a", 64) + "}\n", // 63 at most
		"nodeSelector key":              "nodeSelector: {\"a/b/c\": x}\n",
		"nodeSelector key prefix":       "nodeSelector: {\"Example.com/gpu\": x}\n",
		"affinity operator":             affinity("{matchExpressions: [{key: a, operator: Below, values: [x]}]}"),
		"affinity In without values":    affinity("{matchExpressions: [{key: a, operator: In}]}"),
		"affinity Exists with values":   affinity("{matchExpressions: [{key: a, operator: Exists, values: [x]}]}"),
		"affinity Gt two values":        affinity("{matchExpressions: [{key: a, operator: Gt, values: [\"1\", \"2\"]}]}"),
		"affinity Gt negative":          affinity("{matchExpressions: [{key: a, operator: Gt, values: [\"-1\"]}]}"),
		"affinity value":                affinity("{matchExpressions: [{key: a, operator: In, values: [\"zone a\"]}]}"),
		"affinity key":                  affinity("{matchExpressions: [{key: \"-a\", operator: Exists}]}"),
		"affinity field key":            affinity("{matchFields: [{key: spec.nodeName, operator: In, values: [x]}]}"),
		"affinity field Exists":         affinity("{matchFields: [{key: metadata.name, operator: Exists}]}"),
		"affinity field two values":     affinity("{matchFields: [{key: metadata.name, operator: In, values: [n1, n2]}]}"),
		"affinity field not a name":     affinity("{matchFields: [{key: metadata.name, operator: In, values: [Gpu_A]}]}"),
		"affinity no terms":             "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: []}}}\n",
	}
	accepted, refused := 0, 0
	for name, text := range podsToCheck(t) {
		pod, err := decodePod([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		if errs := apiServerRefuses(t, pod); len(errs) > 0 {
			t.Errorf("%s: the API server refuses a pod cluster weighs: %v", name, errs)
		}
		accepted++
	}
	names := make([]string, 0, len(broken))
	for name := range broken {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		pod, err := decodePod([]byte(broken[name]))
		if err != nil {
			t.Fatal(err)
		}
		errs := apiServerRefuses(t, pod)
		_, ours := cluster.ParsePod([]byte(broken[name]))
		if len(errs) == 0 || ours == nil {
			t.Errorf("%s: the API server says %v; cluster.ParsePod %v", name, errs, ours)
		}
		refused++
	}
	t.Logf("%d pods both accept, %d both refuse", accepted, refused)
	readmeFigure(t, `\(([0-9,]+) broken pods`, refused)
	readmeFigure(t, `the ([0-9,]+) it weighs pass`, accepted)
	confFigure(t, `refuses too \(([0-9,]+) broken pods\)`, refused)
	confFigure(t, `and the ([0-9,]+) pods pass it`, accepted)
}
