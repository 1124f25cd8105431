package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	resourceinstall "k8s.io/kubernetes/pkg/apis/resource/install"
)

// scheme knows the external resource.k8s.io versions, the internal types the
// validator works on, the registered defaulting functions and conversions.
var scheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	resourceinstall.Install(s)
	return s
}()

// strictDecoder rejects unknown and duplicated fields, as `kubectl apply`
// with server-side field validation Strict does.
var strictDecoder = serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer()

// eachObject reads a YAML or JSON stream as kubectl splits it (documents, each a List whose
// items are objects, or one object; an empty document is skipped) and hands each object to fn as
// JSON.
func eachObject(data []byte, fn func(raw []byte) error) error {
	d := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	for {
		var doc map[string]any
		if err := d.Decode(&doc); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if doc == nil {
			continue
		}
		items := []any{doc}
		if doc["kind"] == "List" {
			items, _ = doc["items"].([]any)
		}
		for _, it := range items {
			raw, err := json.Marshal(it)
			if err != nil {
				return err
			}
			if err := fn(raw); err != nil {
				return err
			}
		}
	}
}

// decodeStream reads a YAML or JSON stream's objects (eachObject), each strictly decoded by the
// resource.k8s.io scheme, then made a T by as (which refuses other kinds).
func decodeStream[T any](data []byte, as func(runtime.Object) (T, error)) ([]T, error) {
	var out []T
	err := eachObject(data, func(raw []byte) error {
		obj, _, err := strictDecoder.Decode(raw, nil, nil)
		if err != nil {
			return err
		}
		x, err := as(obj)
		if err != nil {
			return err
		}
		out = append(out, x)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Manifest is one decoded fitclaim output: exactly one of Claim or Template.
type Manifest struct {
	Claim    *resourcev1.ResourceClaim
	Template *resourcev1.ResourceClaimTemplate
}

// Object is the decoded object.
func (m Manifest) Object() runtime.Object {
	if m.Claim != nil {
		return m.Claim
	}
	return m.Template
}

// Name is metadata.name.
func (m Manifest) Name() string {
	if m.Claim != nil {
		return m.Claim.Name
	}
	return m.Template.Name
}

// Spec is the claim spec (spec, or spec.spec for a template).
func (m Manifest) Spec() *resourcev1.ResourceClaimSpec {
	if m.Claim != nil {
		return &m.Claim.Spec
	}
	return &m.Template.Spec.Spec
}

// DecodeStrict decodes YAML (or JSON) bytes into a resource.k8s.io/v1
// ResourceClaim or ResourceClaimTemplate, failing on unknown or duplicate
// fields, on any other group/version/kind and on any other object type.
func DecodeStrict(data []byte) (Manifest, error) {
	obj, gvk, err := strictDecoder.Decode(data, nil, nil)
	if err != nil {
		return Manifest{}, fmt.Errorf("strict decode: %w", err)
	}
	if gvk.Group != resourcev1.GroupName || gvk.Version != "v1" {
		return Manifest{}, fmt.Errorf("strict decode: apiVersion %s, want resource.k8s.io/v1", gvk.GroupVersion())
	}
	switch o := obj.(type) {
	case *resourcev1.ResourceClaim:
		return Manifest{Claim: o}, nil
	case *resourcev1.ResourceClaimTemplate:
		return Manifest{Template: o}, nil
	default:
		return Manifest{}, fmt.Errorf("strict decode: got %T (kind %s), want ResourceClaim or ResourceClaimTemplate", obj, gvk.Kind)
	}
}
