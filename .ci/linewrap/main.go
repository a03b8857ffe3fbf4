// Command linewrap breaks Go lines longer than 120 bytes (a tab counting one) where Go
// allows a line break without changing the program (issue 18 §6): after a comma between
// the arguments of a call, the elements of a composite literal or the parameters of a
// function, after a && or || operator, and inside an interpreted string literal, at a
// space, as "a " + "b" (a constant, joined by the compiler). Each file is checked before
// it is written: the same tokens, with adjacent string literals joined by + folded into
// one. What it cannot break stays long: a raw string (a command or a golden text as typed),
// a string without a space, a comment.
//
//	go run ./.ci/linewrap $(git ls-files '*.go')     # rewrites the files
//	go run ./.ci/linewrap -l $(git ls-files '*.go')  # lists them, exit status 1 if any
package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"strconv"
	"strings"
)

const limit = 120

type tok struct {
	pos  int // byte offset
	end  int
	tok  token.Token
	lit  string
	line int
	col  int // byte column, 1-based
	dep  int // bracket depth before the token
}

func scan(src []byte) []tok {
	fset := token.NewFileSet()
	f := fset.AddFile("x.go", -1, len(src))
	var s scanner.Scanner
	s.Init(f, src, nil, scanner.ScanComments)
	var out []tok
	depth := 0
	for {
		p, t, lit := s.Scan()
		if t == token.EOF {
			break
		}
		if t == token.SEMICOLON && lit == "\n" {
			continue
		}
		off := f.Offset(p)
		text := lit
		if text == "" {
			text = t.String()
		}
		if t == token.SEMICOLON {
			text = ";"
		}
		pp := f.Position(p)
		tk := tok{pos: off, end: off + len(text), tok: t, lit: text, line: pp.Line, col: pp.Column, dep: depth}
		switch t {
		case token.LPAREN, token.LBRACE, token.LBRACK:
			depth++
		case token.RPAREN, token.RBRACE, token.RBRACK:
			depth--
			tk.dep = depth
		}
		out = append(out, tk)
	}
	return out
}

// lines returns the byte offset of each line's start.
func lineStarts(src []byte) []int {
	starts := []int{0}
	for i, b := range src {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

func indentOf(src []byte, start int) string {
	i := start
	for i < len(src) && src[i] == '\t' {
		i++
	}
	return string(src[start:i])
}

// fix makes one change to the first long line it can shorten, and reports whether it did.
func fix(src []byte) ([]byte, bool) {
	toks := scan(src)
	allowed := breakable(src, toks)
	starts := lineStarts(src)
	byLine := map[int][]int{}
	for i, t := range toks {
		byLine[t.line] = append(byLine[t.line], i)
	}
	for ln := 1; ln <= len(starts); ln++ {
		start := starts[ln-1]
		end := len(src)
		if ln < len(starts) {
			end = starts[ln] - 1
		}
		if end-start <= limit {
			continue
		}
		idx := byLine[ln]
		if len(idx) == 0 {
			continue
		}
		// A line that is a comment, or a token that spans lines, is left alone.
		first := toks[idx[0]]
		if first.tok == token.COMMENT {
			continue
		}
		indent := indentOf(src, start)
		// 1. break after a comma, && or || inside brackets, at the least depth, rightmost.
		best, bestDep := -1, 1<<30
		for _, i := range idx {
			t := toks[i]
			if t.end-start > limit {
				break
			}
			if allowed[t.pos] && i+1 < len(toks) && toks[i+1].line == ln {
				next := toks[i+1]
				if next.tok == token.COMMENT {
					continue
				}
				// Not worth it when little is left.
				if end-next.pos < 12 {
					continue
				}
				if t.dep <= bestDep {
					best, bestDep = i, t.dep
				}
			}
		}
		if best >= 0 {
			t := toks[best]
			next := toks[best+1]
			var b bytes.Buffer
			b.Write(src[:t.end])
			b.WriteString("\n" + indent + "\t")
			b.Write(src[next.pos:])
			return b.Bytes(), true
		}
		// 2. split an interpreted string literal at a space: one that crosses the limit, or
		// else the last one that ends before it, so that what follows it moves down too.
		split := func(k int) ([]byte, bool) {
			t := toks[idx[k]]
			if t.tok != token.STRING || t.lit[0] != '"' || t.pos-start >= limit-8 {
				return nil, false
			}
			if k+1 < len(idx) {
				if n := toks[idx[k+1]].tok; n == token.LBRACK || n == token.PERIOD {
					return nil, false
				}
			}
			if k > 0 {
				// an operand of a binary operator that binds tighter than + is not split
				switch toks[idx[k-1]].tok {
				case token.MUL, token.QUO, token.REM, token.SHL, token.SHR, token.AND, token.AND_NOT, token.SUB,
					token.XOR, token.OR:
					return nil, false
				}
			}
			// The last space inside the literal with room for `" +` before the limit. A
			// phrase in escaped quotes, such as a heading a message points at, is kept whole
			// and with the words before it.
			cut, quoted := -1, false
			for j := t.pos + 1; j < t.end-1; j++ {
				if j-start+4 > limit { // the first line ends with the space, `" +`
					break
				}
				if src[j] == '"' {
					quoted = !quoted
				}
				opens := src[j+1] == '\\' && src[j+2] == '"' // a quoted phrase stays with what names it
				if src[j] == ' ' && !quoted && !opens && !escaped(src, t.pos+1, j) && j+1-t.pos >= 20 && t.end-(j+1) >= 12 {
					cut = j + 1
				}
			}
			if cut < 0 {
				return nil, false
			}
			var b bytes.Buffer
			b.Write(src[:cut])
			b.WriteString("\" +\n" + indent + "\t\"")
			b.Write(src[cut:])
			return b.Bytes(), true
		}
		for k, i := range idx {
			if toks[i].end-start > limit {
				if out, ok := split(k); ok {
					return out, true
				}
			}
		}
		for k := len(idx) - 1; k >= 0; k-- {
			// Not a string that only its + at the line's end pushes over: that would leave
			// a stub of a few words between two lines.
			if k == len(idx)-2 && toks[idx[k+1]].tok == token.ADD {
				continue
			}
			if toks[idx[k]].end-start <= limit {
				if out, ok := split(k); ok {
					return out, true
				}
			}
		}
	}
	return src, false
}

// escaped reports whether the byte at j is part of an escape sequence begun after from.
func escaped(src []byte, from, j int) bool {
	n := 0
	for k := j - 1; k >= from && src[k] == '\\'; k-- {
		n++
	}
	return n%2 == 1
}

// folded is the file's tokens without comments, with "a" + "b" folded into "ab".
func folded(src []byte) ([]string, error) {
	var out []string
	toks := scan(src)
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.tok == token.COMMENT {
			continue
		}
		if t.tok == token.STRING && t.lit[0] == '"' {
			s, err := strconv.Unquote(t.lit)
			if err != nil {
				return nil, err
			}
			for i+2 < len(toks) && toks[i+1].tok == token.ADD && toks[i+2].tok == token.STRING && toks[i+2].lit[0] == '"' &&
				(i+3 >= len(toks) || (toks[i+3].tok != token.LBRACK && toks[i+3].tok != token.PERIOD)) {
				s2, err := strconv.Unquote(toks[i+2].lit)
				if err != nil {
					return nil, err
				}
				s += s2
				i += 2
			}
			out = append(out, "STRING:"+strconv.Quote(s))
			continue
		}
		out = append(out, t.tok.String()+":"+t.lit)
	}
	return out, nil
}

func main() {
	names, list := os.Args[1:], false
	if len(names) > 0 && names[0] == "-l" {
		names, list = names[1:], true
	}
	listed := 0
	for _, name := range names {
		orig, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		src := orig
		for n := 0; n < 10000; n++ {
			next, changed := fix(src)
			if !changed {
				break
			}
			formatted, err := format.Source(next)
			if err != nil {
				fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
				os.Exit(1)
			}
			if bytes.Equal(formatted, src) {
				break
			}
			src = formatted
		}
		if bytes.Equal(src, orig) {
			continue
		}
		a, err1 := folded(orig)
		b, err2 := folded(src)
		if err1 != nil || err2 != nil || strings.Join(a, "\x00") != strings.Join(b, "\x00") {
			fmt.Fprintf(os.Stderr, "%s: the tokens differ; not written\n", name)
			os.Exit(1)
		}
		if list {
			fmt.Println(name)
			listed++
			continue
		}
		if err := os.WriteFile(name, src, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	if listed > 0 {
		os.Exit(1)
	}
}

// breakable is the offsets of the tokens a line may break after: the commas between the
// arguments of a call, the elements of a composite literal and the parameters of a
// function, and the && and || operators.
func breakable(src []byte, toks []tok) map[int]bool {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil {
		return nil
	}
	out := map[int]bool{}
	commaAfter := func(p token.Pos) {
		off := fset.Position(p).Offset
		for _, t := range toks {
			if t.pos >= off {
				if t.tok == token.COMMA {
					out[t.pos] = true
				}
				return
			}
		}
	}
	list := func(n int, end func(i int) token.Pos) {
		for i := 0; i+1 < n; i++ {
			commaAfter(end(i))
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			list(len(n.Args), func(i int) token.Pos { return n.Args[i].End() })
		case *ast.CompositeLit:
			list(len(n.Elts), func(i int) token.Pos { return n.Elts[i].End() })
		case *ast.FuncType: // the parameters, not the results, which read best on one line
			if fl := n.Params; fl != nil {
				list(len(fl.List), func(i int) token.Pos { return fl.List[i].End() })
			}
		case *ast.AssignStmt: // a, b = x,\n y
			list(len(n.Rhs), func(i int) token.Pos { return n.Rhs[i].End() })
		case *ast.CaseClause:
			list(len(n.List), func(i int) token.Pos { return n.List[i].End() })
		case *ast.BinaryExpr:
			if n.Op == token.LAND || n.Op == token.LOR {
				out[fset.Position(n.OpPos).Offset] = true
			}
		}
		return true
	})
	return out
}
