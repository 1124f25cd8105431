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

// fittingChanged are the queries whose answer changed on purpose since fittingBefore: a limit
// given twice was the last one silently (every other key is refused so), the limit's value is
// quoted as the models route quotes it, and an unknown key is named with this route's keys,
// not every key of a link.
var fittingChanged = map[string]string{
	"on=nvidia-rtx-4090&limit=5&limit=7": "limit: given 2 times; give it once",
	"on=nvidia-rtx-4090&limit=0":         `limit: must be a whole number from 1 to 100 (got "0")`,
	"on=nvidia-rtx-4090&limit=101":       `limit: must be a whole number from 1 to 100 (got "101")`,
	"on=nvidia-rtx-4090&zz=1":            `query: unknown key "zz"; known keys: on, memory, bandwidth, family, unified, n, limit`,
	"on=nvidia-rtx-4090&=&limit=2":       `query: unknown key ""; known keys: on, memory, bandwidth, family, unified, n, limit`,
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
		if msg, ok := fittingChanged[raw]; ok {
			if gerr == nil || gerr.Error() != msg {
				t.Errorf("Fitting(%.60q) = %d models, %v; want %s", raw, len(got), gerr, msg)
			}
			continue
		}
		want, werr := fittingBefore(raw)
		if !reflect.DeepEqual(got, want) || (gerr == nil) != (werr == nil) || (gerr != nil && gerr.Error() != werr.Error()) {
			t.Errorf("Fitting(%.60q) = %d models, %v; before: %d models, %v", raw, len(got), gerr, len(want), werr)
		}
	}
}

// TestFittingLimitAsTheOtherKeys: the fitting list's limit is read as the permalink codec reads
// a key (percent-decoded, a whole number in any decimal spelling, refused when given twice),
// as the models route reads its own; it was read raw ("%32" refused, "5&limit=7" the last).
func TestFittingLimitAsTheOtherKeys(t *testing.T) {
	for raw, want := range map[string]int{
		"on=nvidia-rtx-4090&limit=%32": 2, "on=nvidia-rtx-4090&limit=2%20": 2, "on=nvidia-rtx-4090&limit=%2B2": 2,
		"on=nvidia-rtx-4090&limit=2.0": 2, "on=nvidia-rtx-4090&limit=3e0": 3, "on=nvidia-rtx-4090&%6Cimit=3": 3,
	} {
		if got, err := Fitting(raw); err != nil || len(got) != want {
			t.Errorf("Fitting(%q) = %d models, %v; want %d", raw, len(got), err, want)
		}
	}
	for raw, msg := range map[string]string{
		"on=nvidia-rtx-4090&limit=1&%6Cimit=2": "limit: given 2 times; give it once",
		"on=nvidia-rtx-4090&limit=%zz":         `query: invalid percent-encoding in "limit=%zz"`,
		"on=nvidia-rtx-4090&limit=0x10":        `limit: must be a whole number from 1 to 100 (got "0x10")`,
		"on=nvidia-rtx-4090&limit=2.5":         `limit: must be a whole number from 1 to 100 (got "2.5")`,
		"on=nvidia-rtx-4090&LIMIT=2":           `query: unknown key "LIMIT" (did you mean limit?); known keys: on, memory, bandwidth, family, unified, n, limit`,
		"on=nvidia-rtx-4090&tps=fast":          `Target decode speed (minTps, tps): must be a decimal number greater than 0 and at most 100000 tokens/s (got "fast")`,
	} {
		if _, err := Fitting(raw); err == nil || err.Error() != msg {
			t.Errorf("Fitting(%q): %v; want %s", raw, err, msg)
		}
	}
}
