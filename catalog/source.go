package catalog

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Where the model table comes from. A native build (the command line, the edge worker, the
// tests) compiles it in; the page's engine is built without it (the tag catalogext,
// external.go), so its 266 KB (~41 KB brotli) and their index are not on the first claim's
// download (issue 10 §2), and is given the table's text by the page (LoadText), which fetches it
// as an asset of its own. A permalink's first claim needs one name's entries: the page first
// fetches a small shard of the table (LoadShard), every entry whose name has the link's key
// (ShardKey: any spelling the link may use lands in one shard), and the claim is made from it.
// Whatever a shard cannot answer exactly as the whole table would (a name it does not cover, a
// typo's suggestions, a substring, an ambiguous name, another shard's entry, any list of the
// whole catalog) panics with an *IncompleteError before it reads anything, never inside a
// sync.Once, so nothing is cached from a part of the table: the page then waits for the whole
// table and asks again.

const (
	loadedNone  = iota // the engine's table has not come yet
	loadedShard        // one shard (shard below)
	loadedFull         // the whole table, indexed (modelsTSV, modelStart, modelNameLen, modelByName)
)

// ShardCount is how many shards the site cuts the table into (tools/cmd/site). It is part of
// the shard's header, so a shard of another cut is refused.
const ShardCount = 64

// IncompleteError says the catalog the engine holds cannot answer: none has been given yet, or
// only a shard, which lacks what was asked (What): entry Entry (else -1), or the entries of the
// name Name (else ""), or the whole table.
type IncompleteError struct {
	What  string
	Entry int
	Name  string
}

func (e *IncompleteError) Error() string {
	if loaded == loadedNone {
		return "the model catalog has not loaded yet (" + e.What + ")"
	}
	return "the model catalog's shard cannot answer this (" + e.What + "); the whole catalog is needed"
}

// Complete reports whether the whole table is there (always, unless built with catalogext).
func Complete() bool { return loaded == loadedFull }

// needFull panics unless the whole table is there. Every use of the whole table calls it before
// any sync.Once that would read it.
func needFull(what string) {
	if loaded != loadedFull {
		panic(&IncompleteError{What: what, Entry: -1})
	}
}

// shard is the shard the engine holds in shard mode: the entries of every name whose key falls
// in bucket, by catalog index, and their indexes in their names' byte order.
var shard struct {
	bucket int
	keys   map[string]bool // the other keys whose entries it holds, all of them
	lines  map[int]string  // catalog index -> its line of the table
	order  []int           // its indexes in catalog order
	byName []int           // and in their names' byte order (equal names in catalog order)
}

// ShardKey is the key a model name is sharded by: in lower case, the part after its last
// slash, spaces around it trimmed. Every name Resolve takes a name's entries for without the
// whole table (the exact name, the name in any case, the repository's name without its
// publisher) has the key of the query. web/boot.js computes the same (its shardKey; a test
// holds the two together).
func ShardKey(name string) string {
	k := strings.ToLower(strings.TrimSpace(name))
	return k[strings.LastIndexByte(k, '/')+1:]
}

// ShardOf is the shard that holds the entries of the name's key: FNV-1a (32 bits) of its bytes,
// modulo ShardCount.
func ShardOf(name string) int {
	k := ShardKey(name)
	h := uint32(2166136261)
	for i := 0; i < len(k); i++ {
		h ^= uint32(k[i])
		h *= 16777619
	}
	return int(h % ShardCount)
}

// shardHeader begins a shard's text: the format, the table's checksum, the bucket and the count.
const shardHeader = "#fitclaim-catalog-shard 1 "

// shardKeys begins a shard's second line when it holds other keys' entries too.
const shardKeys = "#keys\t"

// Shards cuts the table into ShardCount shards: Shard(b, nil) for each b.
func Shards() []string {
	texts := make([]string, ShardCount)
	for b := range texts {
		texts[b] = Shard(b, nil)
	}
	return texts
}

// Shard is shard b of the table (the site writes each as an asset): its header line, the other
// keys it holds (a line "#keys\tkey\tkey…", when there are any), then "index\tline\n" for each
// entry whose name's key falls in b or is one of keys, in catalog order. The site adds the keys
// of the entries its names' first claims read besides their own (tools/cmd/site/catalog.go).
func Shard(b int, keys []string) string {
	needFull("Shard")
	var out strings.Builder
	out.WriteString(shardHeader + strconv.FormatUint(modelsSum, 16) + " " + strconv.Itoa(b) + " " + strconv.Itoa(ShardCount) + "\n")
	extra := map[string]bool{}
	for _, k := range keys {
		if k != "" && ShardOf(k) != b && !extra[k] && !strings.ContainsAny(k, "\t\n") {
			extra[k] = true
		}
	}
	if len(extra) > 0 {
		out.WriteString(shardKeys + strings.Join(slices.Sorted(maps.Keys(extra)), "\t") + "\n")
	}
	for i := range modelCount {
		if n := modelName(i); ShardOf(n) == b || extra[ShardKey(n)] {
			out.WriteString(strconv.Itoa(i) + "\t" + modelLine(i) + "\n")
		}
	}
	return out.String()
}

// Text is the whole table's text, as LoadText takes it (the site writes it as an asset).
func Text() string {
	needFull("Text")
	return modelsTSV
}

// textSum is FNV-1a, 64 bits, of s (catalog/gen writes modelsSum so).
func textSum(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// modelFields is how many tab-separated fields a line of the table holds (parseModel).
const modelFields = 16 + 30

// LoadText makes the table's text the catalog, once its checksum is the one this build was
// generated with (every table the packages generate from the catalog names its entries by
// index): the index is computed from it. A build with the table compiled in only checks it.
func LoadText(text string) error {
	if textSum(text) != modelsSum {
		return &CatalogTextError{Msg: "the model catalog's text (" + strconv.Itoa(len(text)) + " bytes) is not the one this engine was built with (checksum " + strconv.FormatUint(textSum(text), 16) + ", want " + strconv.FormatUint(modelsSum, 16) + ")"}
	}
	if loaded == loadedFull {
		return nil
	}
	var starts [modelCount + 1]uint32
	var lens [modelCount]uint8
	n := 0
	for at := 0; at < len(text); {
		end := strings.IndexByte(text[at:], '\n')
		if end < 0 {
			return &CatalogTextError{Msg: "the model catalog's last line has no newline"}
		}
		line := text[at : at+end]
		if line != "" && line[0] != '#' {
			if n == modelCount {
				return &CatalogTextError{Msg: "the model catalog has more than " + strconv.Itoa(modelCount) + " entries"}
			}
			name, _, _ := strings.Cut(line, "\t")
			if len(name) > 255 || strings.Count(line, "\t") != modelFields-1 {
				return &CatalogTextError{Msg: "the model catalog's entry " + strconv.Itoa(n) + " is malformed"}
			}
			starts[n], lens[n] = uint32(at), uint8(len(name))
			n++
		}
		at += end + 1
	}
	if n != modelCount {
		return &CatalogTextError{Msg: "the model catalog has " + strconv.Itoa(n) + " entries, want " + strconv.Itoa(modelCount)}
	}
	starts[modelCount] = uint32(len(text))
	setTable(text, &starts, &lens)
	return nil
}

// CatalogTextError says the text given as the catalog or a shard of it is not one.
type CatalogTextError struct{ Msg string }

func (e *CatalogTextError) Error() string { return e.Msg }

// LoadShard makes a shard (Shards' format) the catalog until the whole table comes: the
// entries of every name whose key (ShardKey) falls in its bucket. Once the whole table is
// there it does nothing.
func LoadShard(text string) error {
	if loaded == loadedFull {
		return nil
	}
	bad := func(why string) error {
		return &CatalogTextError{Msg: "the model catalog's shard is malformed: " + why}
	}
	head, rest, ok := strings.Cut(text, "\n")
	if !ok || !strings.HasPrefix(head, shardHeader) {
		return bad("no header")
	}
	f := strings.Fields(head[len(shardHeader):])
	if len(f) != 3 {
		return bad("a header of " + strconv.Itoa(len(f)) + " fields")
	}
	if f[0] != strconv.FormatUint(modelsSum, 16) {
		return &CatalogTextError{Msg: "the model catalog's shard is of another catalog (checksum " + f[0] + ", want " + strconv.FormatUint(modelsSum, 16) + ")"}
	}
	bucket, err1 := strconv.Atoi(f[1])
	count, err2 := strconv.Atoi(f[2])
	if err1 != nil || err2 != nil || count != ShardCount || bucket < 0 || bucket >= ShardCount {
		return bad("bucket " + f[1] + " of " + f[2] + ", want one of " + strconv.Itoa(ShardCount))
	}
	keys := map[string]bool{}
	if strings.HasPrefix(rest, shardKeys) {
		line, more, ok := strings.Cut(rest, "\n")
		if !ok {
			return bad("its last line has no newline")
		}
		for _, k := range strings.Split(line[len(shardKeys):], "\t") {
			keys[k] = true
		}
		rest = more
	}
	lines := map[int]string{}
	var byName []int
	for rest != "" {
		line, more, ok := strings.Cut(rest, "\n")
		if !ok {
			return bad("its last line has no newline")
		}
		rest = more
		num, entry, _ := strings.Cut(line, "\t")
		i, err := strconv.Atoi(num)
		if err != nil || i < 0 || i >= modelCount || lines[i] != "" {
			return bad("entry " + strconv.Quote(num))
		}
		name, _, _ := strings.Cut(entry, "\t")
		if strings.Count(entry, "\t") != modelFields-1 || ShardOf(name) != bucket && !keys[ShardKey(name)] {
			return bad("entry " + num)
		}
		lines[i] = entry
		byName = append(byName, i)
	}
	order := slices.Clone(byName)
	slices.Sort(order)
	name := func(i int) string { n, _, _ := strings.Cut(lines[i], "\t"); return n }
	slices.SortStableFunc(byName, func(a, b int) int {
		if c := strings.Compare(name(a), name(b)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	shard.bucket, shard.keys, shard.lines, shard.order, shard.byName = bucket, keys, lines, order, byName
	loaded = loadedShard
	return nil
}

// entryLine is entry i's line: the table's, or in shard mode the shard's (else it panics).
func entryLine(i int) string {
	if loaded == loadedFull {
		return modelLine(i)
	}
	if line, ok := shard.lines[i]; ok && loaded == loadedShard {
		return line
	}
	panic(&IncompleteError{What: "entry " + strconv.Itoa(i), Entry: i})
}

// nameOf is entry i's name, as entryLine reads it.
func nameOf(i int) string {
	if loaded == loadedFull {
		return modelName(i)
	}
	n, _, _ := strings.Cut(entryLine(i), "\t")
	return n
}

// covers panics unless the catalog can say which entries have the name's key: the whole table
// can, a shard for the names of its bucket.
func covers(name string) {
	if loaded == loadedFull || loaded == loadedShard && (ShardOf(name) == shard.bucket || shard.keys[ShardKey(name)]) {
		return
	}
	panic(&IncompleteError{What: "the name " + strconv.Quote(name), Entry: -1, Name: name})
}

// shardExact is exactName in shard mode, for a name the shard covers.
func shardExact(name string) (int, bool) {
	covers(name)
	k, found := slices.BinarySearchFunc(shard.byName, name, func(e int, name string) int { return strings.Compare(nameOf(e), name) })
	if !found {
		return 0, false
	}
	return shard.byName[k], true
}

// EnterShardForTest puts the catalog in shard mode with the given shard, as the page's engine
// is before its whole table comes, and returns what puts it back. For tests only: nothing else
// may use the catalog meanwhile.
func EnterShardForTest(text string) (restore func(), err error) {
	was := loaded
	loaded = loadedNone
	if err := LoadShard(text); err != nil {
		loaded = was
		return nil, err
	}
	return func() { loaded = was }, nil
}
