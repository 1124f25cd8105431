package claim

import "github.com/fitclaim/fitclaim/target"

// The permalink and query codec is package target's. These names keep code written against
// claim compiling while the helpers' branches land; new code names package target.
// Deprecated: use the target package's functions.
var (
	Permalink             = target.Permalink
	ParsePermalink        = target.ParsePermalink
	ParsePermalinkPartial = target.ParsePermalinkPartial
	ParseQuery            = target.ParseQuery
	Query                 = target.Query
	ParseRawQuery         = target.ParsePermalink
)

// Values is target.Values. Deprecated: use target.Values.
type Values = target.Values

// FormatVersion is target.FormatVersion. Deprecated: use target.FormatVersion.
const FormatVersion = target.FormatVersion
