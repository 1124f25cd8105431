package claim

import (
	"strings"
	"unicode/utf8"
)

// commentWidth is where fitclaim's own header lines wrap (llmfit's lines are kept as they are),
// so a manifest reads in a terminal and in a code review.
const commentWidth = 100

// wrapAll wraps each line at spaces; continuation lines are indented under the text that follows
// the line's label ("kv:     ", "driver: ").
func wrapAll(lines []string) []string {
	var out []string
	for _, l := range lines {
		out = append(out, wrap(l, commentWidth, "        ")...)
	}
	return out
}

func wrap(line string, width int, indent string) []string {
	var out []string
	const shortTail = 12 // a tail this short stays on its line rather than dangle alone ("GB")
	for utf8.RuneCountInString(line) > width+shortTail || utf8.RuneCountInString(line) > width && !endsShort(line, width, shortTail) {
		cut := -1
		n := 0
		for i, r := range line {
			if n > width {
				break
			}
			if r == ' ' && i > len(indent) {
				cut = i
			}
			n++
		}
		if cut <= 0 {
			break // one long word: leave it whole
		}
		out = append(out, strings.TrimRight(line[:cut], " "))
		line = indent + strings.TrimLeft(line[cut:], " ")
	}
	return append(out, line)
}

// endsShort reports whether what lies past width is a short tail, so the line is kept whole.
func endsShort(line string, width, tail int) bool {
	return utf8.RuneCountInString(line)-width <= tail && !strings.Contains(string([]rune(line)[width:]), " ")
}
