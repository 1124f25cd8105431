package conformance

import (
	"bytes"
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/validation/field"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	"k8s.io/kubernetes/pkg/apis/apps"
	appsinstall "k8s.io/kubernetes/pkg/apis/apps/install"
	appsvalidation "k8s.io/kubernetes/pkg/apis/apps/validation"
	"k8s.io/kubernetes/pkg/apis/core"
	coreinstall "k8s.io/kubernetes/pkg/apis/core/install"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"
)

// workloadScheme knows apps/v1 and core/v1 with their internal types, defaulting functions and
// conversions, as the API server registers them.
var workloadScheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	coreinstall.Install(s)
	appsinstall.Install(s)
	return s
}()

// workloadDecoder rejects unknown and duplicated fields, as `kubectl apply` with server-side
// field validation Strict does.
var workloadDecoder = serializer.NewCodecFactory(workloadScheme, serializer.EnableStrict).UniversalDeserializer()

// Workload is fitclaim's deploy output, decoded: the claim template's document as raw bytes,
// then the Deployment and the Service.
type Workload struct {
	TemplateDoc []byte
	Template    Manifest
	Deployment  *appsv1.Deployment
	Service     *corev1.Service
}

// SplitDocuments splits a multi-document YAML stream at its "---" lines.
func SplitDocuments(data []byte) [][]byte {
	var docs [][]byte
	for _, d := range bytes.Split(data, []byte("\n---\n")) {
		docs = append(docs, append(d, '\n'))
	}
	if n := len(docs); n > 0 {
		docs[n-1] = bytes.TrimSuffix(docs[n-1], []byte("\n"))
	}
	return docs
}

// DecodeWorkload strictly decodes the three documents and runs every official validator on
// them: the claim template's (DecodeAndValidate), apps/v1's ValidateDeployment and core/v1's
// ValidateServiceCreate, each after the API server's defaulting.
func DecodeWorkload(data []byte) (Workload, error) {
	docs := SplitDocuments(data)
	if len(docs) != 3 {
		return Workload{}, fmt.Errorf("want 3 documents, got %d", len(docs))
	}
	w := Workload{TemplateDoc: docs[0]}
	var err error
	if w.Template, err = DecodeAndValidate(docs[0]); err != nil {
		return w, fmt.Errorf("claim template: %w", err)
	}
	if w.Template.Template == nil {
		return w, fmt.Errorf("claim document is a %s, want a ResourceClaimTemplate", w.Template.Object().GetObjectKind().GroupVersionKind().Kind)
	}
	if w.Deployment, err = decodeAs[*appsv1.Deployment](docs[1]); err != nil {
		return w, fmt.Errorf("deployment: %w", err)
	}
	if w.Service, err = decodeAs[*corev1.Service](docs[2]); err != nil {
		return w, fmt.Errorf("service: %w", err)
	}
	if errs, err := ValidateDeployment(w.Deployment); err != nil || len(errs) > 0 {
		return w, validated("deployment", errs, err)
	}
	if errs, err := ValidateService(w.Service); err != nil || len(errs) > 0 {
		return w, validated("service", errs, err)
	}
	return w, nil
}

// validated turns a validator's answer into one error.
func validated(what string, errs field.ErrorList, err error) error {
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s validation: %w", what, errs.ToAggregate())
	}
	return nil
}

func decodeAs[T runtime.Object](doc []byte) (T, error) {
	var zero T
	obj, gvk, err := workloadDecoder.Decode(doc, nil, nil)
	if err != nil {
		return zero, fmt.Errorf("strict decode: %w", err)
	}
	o, ok := obj.(T)
	if !ok {
		return zero, fmt.Errorf("strict decode: got %T (%s), want %T", obj, gvk, zero)
	}
	return o, nil
}

// ValidateDeployment defaults a copy of d as the API server does (the apps/v1 defaulters, which
// default the pod template with core/v1's), converts it to the internal type and runs
// k8s.io/kubernetes/pkg/apis/apps/validation.ValidateDeployment with the pod validation options
// the API server derives from the template, plus apps/v1's declarative validation if any is
// registered.
func ValidateDeployment(d *appsv1.Deployment) (field.ErrorList, error) {
	obj := d.DeepCopy()
	setNamespace(obj)
	workloadScheme.Default(obj)
	var in apps.Deployment
	if err := workloadScheme.Convert(obj, &in, nil); err != nil {
		return nil, fmt.Errorf("convert Deployment to internal: %w", err)
	}
	opts := podutil.GetValidationOptionsFromPodTemplate(&in.Spec.Template, nil)
	errs := appsvalidation.ValidateDeployment(&in, opts)
	return append(errs, declarative(obj)...), nil
}

// declarative runs the declarative validation generated for the object's version, when the
// scheme registers one (as the API server does beside the hand-written validators).
func declarative(obj runtime.Object) field.ErrorList {
	if !workloadScheme.HasValidationFunc(obj) {
		return nil
	}
	return workloadScheme.Validate(context.Background(), nil, obj)
}

// ValidateService defaults a copy of s and runs core/v1's ValidateServiceCreate.
func ValidateService(s *corev1.Service) (field.ErrorList, error) {
	obj := s.DeepCopy()
	setNamespace(obj)
	workloadScheme.Default(obj)
	var in core.Service
	if err := workloadScheme.Convert(obj, &in, nil); err != nil {
		return nil, fmt.Errorf("convert Service to internal: %w", err)
	}
	return append(corevalidation.ValidateServiceCreate(&in), declarative(obj)...), nil
}
