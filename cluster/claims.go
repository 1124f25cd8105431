package cluster

import (
	"strconv"
	"strings"
)

// InUse is a device the cluster has already allocated to a ResourceClaim: one result of the
// claim's status.allocation.devices.results.
type InUse struct {
	Driver, Pool, Device string
	Claim                string // namespace/name
	// ShareID is set when the result is a share of a device several claims can share (KEP-5075
	// consumable capacity): the device is then not taken, only Consumed of its capacity (by
	// capacity name, as the result's consumedCapacity names it).
	ShareID  string
	Consumed map[string]Quantity
}

// claimVersions are the ResourceClaim apiVersions read: their status.allocation.devices.results
// have the same shape (driver, pool, device, adminAccess) in all three.
var claimVersions = map[string]bool{
	"resource.k8s.io/v1":      true,
	"resource.k8s.io/v1beta2": true,
	"resource.k8s.io/v1beta1": true,
}

// ParseClaims reads the cluster's ResourceClaims — `kubectl get resourceclaims -A -o yaml` (a v1
// List), -o json, a ResourceClaimList, one ResourceClaim or several `---` documents — and
// returns the devices their allocations hold, whole or (a result with a shareID) as a share. A result with adminAccess true is skipped: the
// scheduler does not count it as allocated (admin access shares a device with its user). A claim
// not allocated yet holds nothing. Errors are *Error with Input "claims".
func ParseClaims(data []byte) ([]InUse, error) { return parseClaimsWithin(data, smallLimits) }

func parseClaimsWithin(data []byte, lim limits) ([]InUse, error) {
	p := claimParser{}
	if err := eachDocument(data, lim, "claims", "kubectl get resourceclaims -A -o yaml", p.top); err != nil {
		return nil, err
	}
	if p.objects == 0 {
		return nil, &Error{Input: "claims", Msg: "no ResourceClaim in the input: paste the output of kubectl get resourceclaims -A -o yaml"}
	}
	return p.inUse, nil
}

type claimParser struct {
	inUse   []InUse
	objects int
}

// top reads a document: a List, a ResourceClaimList or a ResourceClaim.
func (p *claimParser) top(where string, v any) error {
	if where == "" {
		where = "the input"
	}
	return listOrOne(&object{name: where, input: "claims"}, v, "ResourceClaim", "kubectl get resourceclaims -A -o yaml", &p.objects, p.claim)
}

// claim reads one ResourceClaim's allocated devices.
func (p *claimParser) claim(where string, v any) error {
	o := &object{name: where, input: "claims"}
	m, ok := v.(map[string]any)
	if !ok {
		return o.err("", "is a "+typeName(v)+"; want a ResourceClaim")
	}
	p.objects++
	meta, _ := m["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	namespace, _ := meta["namespace"].(string)
	kind, _ := m["kind"].(string)
	if kind != "ResourceClaim" { // named by its place: it is not a claim
		if kind == "" {
			return o.err("kind", "missing; want ResourceClaim")
		}
		return o.err("kind", strconv.Quote(clip(kind))+"; want ResourceClaim (kubectl get resourceclaims -A -o yaml)")
	}
	if name != "" {
		id := name
		if namespace != "" {
			id = namespace + "/" + name
		}
		o.name = "ResourceClaim " + strconv.Quote(clip(id))
		if where != "the input" && !strings.HasPrefix(where, "document") {
			o.name += " (" + where + ")"
		}
	}
	version, _ := m["apiVersion"].(string)
	if !claimVersions[version] {
		return o.err("apiVersion", strconv.Quote(clip(version))+"; want resource.k8s.io/v1 (or v1beta2, v1beta1)")
	}
	if name == "" {
		return metaMissing(o, m, "name", "missing")
	}
	if namespace == "" {
		return metaMissing(o, m, "namespace", "missing (kubectl get resourceclaims -A writes it)")
	}
	results, err := allocationResults(o, m["status"])
	if err != nil {
		return err
	}
	for i, r := range results {
		at := "status.allocation.devices.results[" + strconv.Itoa(i) + "]"
		rm, err := mapping(o, at, r)
		if err != nil {
			return err
		}
		admin := false
		if a, ok := rm["adminAccess"]; ok && a != nil {
			if admin, ok = a.(bool); !ok {
				return o.err(at+".adminAccess", "is a "+typeName(a)+"; want true or false")
			}
		}
		u := InUse{Claim: namespace + "/" + name}
		if u.Driver, err = text(o, at+".driver", rm["driver"]); err != nil {
			return err
		}
		if u.Pool, err = text(o, at+".pool", rm["pool"]); err != nil {
			return err
		}
		if u.Device, err = text(o, at+".device", rm["device"]); err != nil {
			return err
		}
		if rm["shareID"] != nil {
			if u.ShareID, err = text(o, at+".shareID", rm["shareID"]); err != nil {
				return err
			}
		}
		if u.Consumed, err = named(o, at+".consumedCapacity", rm["consumedCapacity"], quantity); err != nil {
			return err
		}
		if !admin {
			p.inUse = append(p.inUse, u)
		}
	}
	return nil
}

// allocationResults is status.allocation.devices.results, or nothing when the claim is not
// allocated (no status, no allocation).
func allocationResults(o *object, status any) ([]any, error) {
	if status == nil {
		return nil, nil
	}
	s, err := mapping(o, "status", status)
	if err != nil {
		return nil, err
	}
	if s["allocation"] == nil {
		return nil, nil
	}
	a, err := mapping(o, "status.allocation", s["allocation"])
	if err != nil {
		return nil, err
	}
	if a["devices"] == nil {
		return nil, nil
	}
	d, err := mapping(o, "status.allocation.devices", a["devices"])
	if err != nil {
		return nil, err
	}
	r, ok := d["results"].([]any)
	if !ok && d["results"] != nil {
		return nil, o.err("status.allocation.devices.results", "is a "+typeName(d["results"])+"; want a list")
	}
	return r, nil
}
