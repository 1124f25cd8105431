package estimate

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// fittingBefore is Fitting as it was before it built the rest of the query in one buffer and
// skipped empty pairs (a slice of every pair, joined).
func fittingBefore(raw string) ([]fit.ModelFit, error) {
	limit := target.DefaultListLimit
	var rest []string
	for _, pair := range strings.Split(strings.TrimPrefix(raw, "#"), "&") {
		k, v, _ := strings.Cut(pair, "=")
		if k != "limit" {
			rest = append(rest, pair)
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return nil, target.ListLimitError(target.QuoteShort(v))
		}
		limit = n
	}
	t, err := target.ParsePermalink(strings.Join(rest, "&"))
	if err != nil {
		return nil, err
	}
	def := target.Default()
	for i := range target.Fields {
		f := &target.Fields[i]
		if !f.Same(&t, &def) && f.Name != "count" && !f.Device {
			return nil, &target.FieldError{Field: "query", Msg: "unknown key " + strconv.Quote(f.Key) + "; known keys: " +
				strings.Join(DeviceKeys, ", ") + ", n, limit"}
		}
	}
	return fit.FittingModels(fit.DeviceOf(&t), t.Count, limit)
}

func TestFittingAnswersAsBefore(t *testing.T) {
	for _, raw := range []string{
		"", "#", "&", "&&&", "#on=nvidia-rtx-4090", "on=nvidia-rtx-4090&limit=5", "limit=5&on=nvidia-rtx-4090",
		"&&limit=3&&on=nvidia-rtx-4090&&n=2&&", "##on=nvidia-rtx-4090", "on=nvidia-rtx-4090&limit=5&limit=7",
		"on=nvidia-rtx-4090&limit=x", "on=nvidia-rtx-4090&limit=0", "on=nvidia-rtx-4090&limit=101", "limit=5",
		"on=nvidia-rtx-4090&m=x", "on=nvidia-rtx-4090&zz=1", "on=nvidia-rtx-4090&on=amd-mi300x", "on=%zz&limit=2",
		"memory=24&bandwidth=1000&family=nvidia&limit=100&n=8", "on=nvidia-rtx-4091", "on=nvidia-rtx-4090&limit=",
		"on=nvidia-rtx-4090&limit", "on=nvidia-rtx-4090&=&limit=2", "on=apple-m4-max-128&" + strings.Repeat("&", 1<<14),
		strings.Repeat("&", 1<<14), strings.Repeat("n=1&", 1<<12),
	} {
		got, gerr := Fitting(raw)
		want, werr := fittingBefore(raw)
		if !reflect.DeepEqual(got, want) || (gerr == nil) != (werr == nil) || (gerr != nil && gerr.Error() != werr.Error()) {
			t.Errorf("Fitting(%.60q) = %d models, %v; before: %d models, %v", raw, len(got), gerr, len(want), werr)
		}
	}
}
