package claim

import (
	"strings"
	"unicode/utf8"
)

// commentWidth is where fitclaim's own header lines wrap, "# " included: 80 columns, as issue 12
// asks, so a manifest reads in a terminal and in a code review (llmfit's lines are kept as they
// are). Package deploy wraps its header with the same rule (WriteComment).
const commentWidth = 80

// commentIndent starts a continuation line under the text that follows the line's label
// ("kv:     ", "driver: ").
const commentIndent = "        "

// WrapComment wraps one header line, given without its "# ", at spaces so that each line with
// its "# " fits commentWidth; continuation lines are indented under the label's text. A last
// word of a few characters (a unit: "GB") is not left alone on its line: the word before it
// goes with it. A word longer than a line stays whole.
func WrapComment(line string) []string { return appendWrap(nil, line) }

// appendWrap appends WrapComment(line) to out.
func appendWrap(out []string, line string) []string {
	text, indented := line, false
	for {
		cut, ok := wrapCut(text, indented)
		if !ok {
			break
		}
		out = append(out, indentedText(indented, strings.TrimRight(text[:cut], " ")))
		text, indented = strings.TrimLeft(text[cut:], " "), true
	}
	return append(out, indentedText(indented, text))
}

func indentedText(indented bool, text string) string {
	if indented {
		return commentIndent + text
	}
	return text
}

// WriteComment writes line into b as WrapComment wraps it, each line after "# " and ending in
// '\n', writing the continuation lines' indent and text one after the other: joined first (as
// WrapComment's lines are), each was a string allocated and copied once more (the claim's
// header and the Deployment's, a dozen lines an answer).
func WriteComment(b *strings.Builder, line string) {
	text, indented := line, false
	for {
		cut, ok := wrapCut(text, indented)
		if !ok {
			break
		}
		writeCommentLine(b, indented, strings.TrimRight(text[:cut], " "))
		text, indented = strings.TrimLeft(text[cut:], " "), true
	}
	writeCommentLine(b, indented, text)
}

func writeCommentLine(b *strings.Builder, indented bool, text string) {
	b.WriteString("# ")
	if indented {
		b.WriteString(commentIndent)
	}
	b.WriteString(text)
	b.WriteByte('\n')
}

// wrapCut is where the comment text (after commentIndent on a continuation line: indented) is
// cut, the byte offset in text of the space it is cut at; false: it fits, or it is one long
// word, and stays whole. One pass over the first width+1 runes both finds the spaces to cut at
// and tells whether the line fits (fewer runes than that): the whole line's runes were counted
// before each pass, twice over a long line's text (in the edge worker's wasm the rune count
// was most of the wrap's time); a line of at most width bytes fits without a look.
func wrapCut(text string, indented bool) (int, bool) {
	const shortTail = 4 // "GB", "tok/s": a unit that reads wrong alone
	width := commentWidth - utf8.RuneCountInString("# ")
	indent := 0
	if indented {
		indent = len(commentIndent) // ASCII spaces: as many runes as bytes
	}
	if indent+len(text) <= width {
		return 0, false
	}
	// Offsets and counts below are the whole line's, indent included: a cut is never within
	// the first len(commentIndent)+1 bytes, so never in an indent.
	cut, before := -1, -1
	n := indent
	if limit := width - indent + 1; asciiOnly(text[:limit]) {
		// The loop below would read these limit bytes (the line's first width+1 runes, so it does
		// not fit) and keep the last two spaces it may cut at: found from the end instead, a few
		// bytes back rather than the line's whole width (TestWrapSameAsCounted).
		n = width + 1
		if c := strings.LastIndexByte(text[:limit], ' '); indent+c > len(commentIndent) {
			cut = c
			if b := strings.LastIndexByte(text[:c], ' '); indent+b > len(commentIndent) {
				before = b
			}
		}
	} else {
		for i, r := range text {
			if n > width {
				break
			}
			if r == ' ' && indent+i > len(commentIndent) {
				cut, before = i, cut
			}
			n++
		}
	}
	if n <= width || cut < 0 {
		return 0, false
	}
	if rest := strings.TrimSpace(text[cut:]); before >= 0 && !strings.Contains(rest, " ") && utf8.RuneCountInString(rest) <= shortTail {
		cut = before
	}
	return cut, true
}

// asciiOnly reports whether s holds only ASCII bytes (each a rune of its own), eight bytes a test.
func asciiOnly(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := s[i : i+8]
		if (w[0]|w[1]|w[2]|w[3]|w[4]|w[5]|w[6]|w[7])&0x80 != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
