package letters

import (
	"bytes"
	"errors"
)

// Chromium tags what the page's HTML holds, but draws the foot of each page (the title and
// the page number) and the marks at its head (DRAFT, RE-PRINT) outside any marked-content
// sequence: neither tagged nor an artifact, which PDF/UA-1 forbids (ISO 14289-1, 7.1: all
// content is either tagged or marked as an artifact). markArtifacts marks each painting
// operation that no marked-content sequence holds as an artifact (ISO 32000-1, 14.8.2.2):
// text shown, a path painted (with its construction), an XObject or a shading.

// operation is one operator of a content stream with its operands, as written.
type operation struct {
	op  string
	raw []byte
}

var errInlineImage = errors.New("the page draws an inline image, which the artifact marking does not read")

// operations splits content (ISO 32000-1, 7.8.2) into its operations, reading tokens as
// pdfscan.go does.
func operations(content []byte) ([]operation, error) {
	var ops []operation
	start, i, n := 0, 0, len(content)
	for i < n {
		c := content[i]
		switch {
		case isSpace(c): // belongs to the next operation
			i++
		case c == '%':
			for i < n && content[i] != '\n' && content[i] != '\r' {
				i++
			}
		case c == '(':
			depth := 0
			for ; i < n; i++ {
				if content[i] == '\\' {
					i++
					continue
				}
				if content[i] == '(' {
					depth++
				}
				if content[i] == ')' {
					depth--
					if depth == 0 {
						i++
						break
					}
				}
			}
		case c == '<' && i+1 < n && content[i+1] == '<', c == '>' && i+1 < n && content[i+1] == '>':
			i += 2
		case c == '<':
			for i < n && content[i] != '>' {
				i++
			}
			i++
		case c == '[' || c == ']' || c == '{' || c == '}' || c == '>' || c == ')':
			i++
		case c == '/':
			i++
			for i < n && isRegular(content[i]) {
				i++
			}
		default:
			j := i
			for j < n && isRegular(content[j]) {
				j++
			}
			word := string(content[i:j])
			i = j
			if isOperand(word) {
				continue
			}
			if word == "BI" {
				return nil, errInlineImage
			}
			ops = append(ops, operation{op: word, raw: content[start:i]})
			start = i
		}
	}
	if rest := bytes.TrimSpace(content[start:]); len(rest) > 0 {
		return nil, errors.New("the page's content ends with operands and no operator")
	}
	return ops, nil
}

// isOperand reports whether a regular word is an operand: a number, true, false or null.
func isOperand(w string) bool {
	if w == "true" || w == "false" || w == "null" {
		return true
	}
	for k := 0; k < len(w); k++ {
		if c := w[k]; (c < '0' || c > '9') && c != '.' && c != '-' && c != '+' {
			return false
		}
	}
	return true
}

// Operators by what they do (ISO 32000-1, tables 51, 59, 60, 107).
var (
	pathConstruction = map[string]bool{"m": true, "l": true, "c": true, "v": true, "y": true, "h": true, "re": true}
	pathPainting     = map[string]bool{"S": true, "s": true, "f": true, "F": true, "f*": true, "B": true, "B*": true,
		"b": true, "b*": true, "n": true}
	showing = map[string]bool{"Tj": true, "TJ": true, "'": true, "\"": true, "Do": true, "sh": true}
)

// markArtifacts returns content with every painting operation outside a marked-content
// sequence marked as an artifact, and whether it marked any.
func markArtifacts(content []byte) ([]byte, bool, error) {
	ops, err := operations(content)
	if err != nil {
		return nil, false, err
	}
	var out bytes.Buffer
	var path []byte // the path being constructed outside marked content
	depth, marked := 0, false
	artifact := func(raw []byte) {
		out.WriteString("\n/Artifact BMC")
		out.Write(raw)
		out.WriteString("\nEMC")
		marked = true
	}
	for _, o := range ops {
		switch {
		case o.op == "BDC" || o.op == "BMC":
			depth++
			out.Write(o.raw)
		case o.op == "EMC":
			depth--
			out.Write(o.raw)
		case depth > 0:
			out.Write(o.raw)
		case pathConstruction[o.op] || (path != nil && (o.op == "W" || o.op == "W*")):
			path = append(path, o.raw...)
		case pathPainting[o.op] && path != nil:
			p := append(path, o.raw...)
			path = nil
			if o.op == "n" { // a clipping path paints nothing
				out.Write(p)
				continue
			}
			artifact(p)
		case showing[o.op]:
			artifact(o.raw)
		default:
			out.Write(o.raw)
		}
	}
	out.Write(path)
	if depth != 0 {
		return nil, false, errors.New("the page's marked-content sequences are not balanced")
	}
	return out.Bytes(), marked, nil
}

// UnmarkedPaint counts the painting operations of a page's content outside any
// marked-content sequence: 0 in a page of a tagged PDF, where everything painted is
// tagged or an artifact (ISO 14289-1, 7.1).
func UnmarkedPaint(content []byte) (int, error) {
	ops, err := operations(content)
	if err != nil {
		return 0, err
	}
	depth, n, inPath := 0, 0, false
	for _, o := range ops {
		switch {
		case o.op == "BDC" || o.op == "BMC":
			depth++
		case o.op == "EMC":
			depth--
		case pathConstruction[o.op]:
			inPath = inPath || depth == 0
		case pathPainting[o.op]:
			if inPath && o.op != "n" {
				n++
			}
			inPath = false
		case showing[o.op] && depth == 0:
			n++
		}
	}
	return n, nil
}
