package conformance

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/apis/resource"
	"k8s.io/kubernetes/pkg/apis/resource/validation"
)

// Namespace is the namespace a manifest without one is validated in. fitclaim
// writes no namespace (kubectl takes it from the context), and the API server
// sets it from the request before validating; the validator requires one.
const Namespace = "default"

// Default applies the API server's defaulting to the manifest in place, using
// the defaulting functions registered by k8s.io/kubernetes/pkg/apis/resource/v1
// (allocationMode ExactCount and count 1 on exactly and on firstAvailable
// sub-requests). Offline consumers such as the allocator need these set.
func Default(m Manifest) {
	scheme.Default(m.Object())
}

// Validate runs, on a copy of a (defaulted) manifest, what the API server runs
// on create: the hand-written official validator
// (k8s.io/kubernetes/pkg/apis/resource/validation, on the internal types) and
// the declarative validation generated for resource.k8s.io/v1 (registered in
// the scheme by k8s.io/kubernetes/pkg/apis/resource/v1). It does not default:
// call Default first, as the API server does.
func Validate(m Manifest) (field.ErrorList, error) {
	obj := m.Object().DeepCopyObject()
	setNamespace(obj)
	var errs field.ErrorList
	if m.Claim != nil {
		var in resource.ResourceClaim
		if err := scheme.Convert(obj, &in, nil); err != nil {
			return nil, fmt.Errorf("convert ResourceClaim to internal: %w", err)
		}
		errs = append(errs, validation.ValidateResourceClaim(&in)...)
	} else {
		var in resource.ResourceClaimTemplate
		if err := scheme.Convert(obj, &in, nil); err != nil {
			return nil, fmt.Errorf("convert ResourceClaimTemplate to internal: %w", err)
		}
		errs = append(errs, validation.ValidateResourceClaimTemplate(&in)...)
	}
	if !scheme.HasValidationFunc(obj) {
		return nil, fmt.Errorf("no declarative validation registered for %T", obj)
	}
	errs = append(errs, scheme.Validate(context.Background(), nil, obj)...)
	return errs, nil
}

func setNamespace(obj runtime.Object) {
	type namespaced interface {
		GetNamespace() string
		SetNamespace(string)
	}
	if o, ok := obj.(namespaced); ok && o.GetNamespace() == "" {
		o.SetNamespace(Namespace)
	}
}

// DecodeAndValidate is the whole admission path for raw bytes: strict decode,
// defaulting, official validation. The returned manifest is defaulted.
func DecodeAndValidate(data []byte) (Manifest, error) {
	m, err := DecodeStrict(data)
	if err != nil {
		return m, err
	}
	Default(m)
	errs, err := Validate(m)
	if err != nil {
		return m, err
	}
	if len(errs) > 0 {
		return m, fmt.Errorf("validation: %w", errs.ToAggregate())
	}
	return m, nil
}
