package claim

import (
	"strings"
	"unicode/utf8"
)

// commentWidth is where fitclaim's own header lines wrap, "# " included: 80 columns, as issue 12
// asks, so a manifest reads in a terminal and in a code review (llmfit's lines are kept as they
// are). Package deploy wraps its header with the same rule (WrapComment).
const commentWidth = 80

// commentIndent starts a continuation line under the text that follows the line's label
// ("kv:     ", "driver: ").
const commentIndent = "        "

// appendWrapped appends each of fitclaim's own header lines, wrapped (WrapComment), to out:
// into one slice, not a slice per line.
func appendWrapped(out []string, lines []string) []string {
	for _, l := range lines {
		out = appendWrap(out, l)
	}
	return out
}

// WrapComment wraps one header line, given without its "# ", at spaces so that each line with
// its "# " fits commentWidth; continuation lines are indented under the label's text. A last
// word of a few characters (a unit: "GB") is not left alone on its line: the word before it
// goes with it. A word longer than a line stays whole.
func WrapComment(line string) []string { return appendWrap(nil, line) }

// appendWrap appends WrapComment(line) to out. One pass over the first width+1 runes both
// finds the spaces to cut at and tells whether the line fits (fewer runes than that): the
// whole line's runes were counted before each pass, twice over a long line's text (in the edge
// worker's wasm the rune count was most of this function's time); a line of at most width
// bytes fits without a look.
func appendWrap(out []string, line string) []string {
	const shortTail = 4 // "GB", "tok/s": a unit that reads wrong alone
	width := commentWidth - utf8.RuneCountInString("# ")
	for len(line) > width {
		cut, before := -1, -1
		n := 0
		for i, r := range line {
			if n > width {
				break
			}
			if r == ' ' && i > len(commentIndent) {
				cut, before = i, cut
			}
			n++
		}
		if n <= width || cut <= 0 {
			break // it fits, or one long word: leave it whole
		}
		if rest := strings.TrimSpace(line[cut:]); before > 0 && !strings.Contains(rest, " ") && utf8.RuneCountInString(rest) <= shortTail {
			cut = before
		}
		out = append(out, strings.TrimRight(line[:cut], " "))
		line = commentIndent + strings.TrimLeft(line[cut:], " ")
	}
	return append(out, line)
}
