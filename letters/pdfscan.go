package letters

import (
	"bytes"
	"compress/zlib"
	"io"
	"strconv"
)

// scanPDF reads data as PDF syntax (ISO 32000-1, 7.2 and 7.3), without building its
// objects, and refuses it if it passes one of b's bounds: arrays and dictionaries nested
// deeper than b.Nesting, more than b.Objects objects (as written, or as an object
// stream's /N declares them), a page tree node (/Type /Pages) whose /Count claims more
// than b.Pages pages, or compressed streams other than images that inflate to more than
// b.Decoded bytes. The objects in a compressed object stream (7.5.7) are scanned too.
//
// It is the cheap first look, before the PDF library reads anything: it does not recurse
// (what is open is a list no longer than b.Nesting), reads each byte once and each inflated
// byte once, and holds one object stream's contents at most. It refuses only what passes a bound: a file it cannot
// make sense of is left for the reading process to refuse, within that process's limits.
func scanPDF(data []byte, b readBounds) error {
	s := scanner{bounds: b}
	return s.scan(data, true)
}

// scanner holds a scan's counts across the file and the object streams it opens.
type scanner struct {
	bounds  readBounds
	objects int64
	decoded int64
	inflate io.ReadCloser // reused from one stream to the next
}

// dict is what the scan keeps of a dictionary: the entries that bound a reading.
type dict struct {
	typ, subtype string
	count        int64 // /Count of a page tree node
	length, n    int64 // a stream's /Length and an object stream's /N, -1 if not direct
	filter       string
	key          string // the key whose value comes next, "" when a key comes next
}

// frame is an array or dictionary being read.
type frame struct {
	d      *dict // nil for an array
	filter bool  // an array that is a dictionary's /Filter: its first name is the filter
}

func (s *scanner) objectsBeyond() error {
	if s.objects <= int64(s.bounds.Objects) {
		return nil
	}
	n := count(int64(s.bounds.Objects))
	return &beyond{"it has more than " + n + " objects", n + " objects"}
}

// scan reads the syntax of data: the whole file if top, else an object stream's objects.
func (s *scanner) scan(data []byte, top bool) error {
	var (
		stack []frame
		last  *dict // the dictionary just closed at the top level, which a stream follows
	)
	// value notes a complete value at the top of the stack: a dictionary's key, or the value
	// of its key, whose name or direct integer the scan keeps for the keys that matter.
	value := func(name string, num int64, isNum bool) {
		if len(stack) == 0 {
			return
		}
		f := stack[len(stack)-1]
		if f.d == nil {
			if f.filter && name != "" {
				p := stack[len(stack)-2].d
				if p.filter == "" {
					p.filter = name
				}
			}
			return
		}
		d := f.d
		if d.key == "" {
			d.key = name // a key is a name; anything else in its place is skipped
			return
		}
		switch {
		case d.key == "Type":
			d.typ = name
		case d.key == "Subtype":
			d.subtype = name
		case d.key == "Filter" && name != "": // an array of filters has set it
			d.filter = name
		case d.key == "Count" && isNum:
			d.count = num
		case d.key == "Length" && isNum:
			d.length = num
		case d.key == "N" && isNum:
			d.n = num
		}
		d.key = ""
	}
	for i := 0; i < len(data); {
		c := data[i]
		switch {
		case isSpace(c):
			i++
		case c == '%':
			for i < len(data) && data[i] != '\n' && data[i] != '\r' {
				i++
			}
		case c == '(':
			i = skipString(data, i)
			value("", 0, false)
		case c == '<' && i+1 < len(data) && data[i+1] == '<':
			i += 2
			if len(stack) >= s.bounds.Nesting {
				return s.tooDeep()
			}
			stack = append(stack, frame{d: &dict{length: -1, n: -1}})
		case c == '<':
			i = skipHex(data, i)
			value("", 0, false)
		case c == '[':
			i++
			if len(stack) >= s.bounds.Nesting {
				return s.tooDeep()
			}
			f := frame{}
			if n := len(stack); n > 0 && stack[n-1].d != nil && stack[n-1].d.key == "Filter" {
				f.filter = true
			}
			stack = append(stack, f)
		case c == ']' || c == '>' && i+1 < len(data) && data[i+1] == '>':
			if c == ']' {
				i++
			} else {
				i += 2
			}
			if len(stack) == 0 {
				continue // a stray close, as in damaged files: the reading process judges it
			}
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if f.d != nil {
				if d := f.d; d.typ == "Pages" && d.count > int64(s.bounds.Pages) {
					return &beyond{"its page tree claims " + count(d.count) + " pages", count(int64(s.bounds.Pages)) + " pages"}
				}
				if len(stack) == 0 {
					last = f.d
					continue
				}
			}
			value("", 0, false)
		case c == '/':
			j := i + 1
			for j < len(data) && isRegular(data[j]) {
				j++
			}
			value(decodeName(data[i+1:j]), 0, false)
			i = j
		case isRegular(c):
			j := i
			for j < len(data) && isRegular(data[j]) {
				j++
			}
			word := data[i:j]
			i = j
			if len(stack) == 0 {
				switch {
				case string(word) == "obj":
					s.objects++
					if err := s.objectsBeyond(); err != nil {
						return err
					}
				case string(word) == "stream" && last != nil && top:
					var err error
					if i, err = s.stream(data, i, last); err != nil {
						return err
					}
				}
				last = nil
				continue
			}
			if n, ok := integer(word); ok {
				// An indirect reference, n g R, is one value.
				if end, ok := reference(data, i); ok {
					i = end
					value("", 0, false)
					continue
				}
				value("", n, true)
				continue
			}
			value("", 0, false)
		default: // ) > } { and ] handled above; a stray delimiter is skipped
			i++
		}
	}
	return nil
}

func (s *scanner) tooDeep() error {
	n := count(int64(s.bounds.Nesting))
	return &beyond{"its arrays and dictionaries are nested more than " + n + " deep", n + " levels"}
}

// stream reads the data of the stream whose dictionary is d and whose keyword stream ends
// at i, and returns where its keyword endstream begins (the end of data if none does). A
// stream compressed with FlateDecode that is not an image is inflated and its bytes
// counted; an object stream's objects are scanned.
func (s *scanner) stream(data []byte, i int, d *dict) (int, error) {
	// The keyword is followed by CRLF or LF (7.3.8.1); a lone CR is tolerated.
	if i < len(data) && data[i] == '\r' {
		i++
	}
	if i < len(data) && data[i] == '\n' {
		i++
	}
	start, end := i, -1
	if d.length >= 0 && d.length <= int64(len(data)-start) {
		rest := bytes.TrimLeft(data[start+int(d.length):], "\x00\t\n\f\r ")
		if bytes.HasPrefix(rest, []byte("endstream")) {
			end = start + int(d.length)
		}
	}
	if end < 0 {
		if k := bytes.Index(data[start:], []byte("endstream")); k >= 0 {
			end = start + k
		} else {
			end = len(data)
		}
	}
	raw := data[start:end]
	if d.subtype == "Image" || (d.filter != "FlateDecode" && d.filter != "Fl" && !(d.filter == "" && d.typ == "ObjStm")) {
		return end, nil
	}
	content := raw
	if d.filter != "" {
		// A stream that does not inflate, or not to its end, is the reading process's to
		// judge; what it inflates to counts all the same. It is counted first, and an object
		// stream within the bound inflated again into a buffer of its size.
		n := s.inflateTo(io.Discard, raw, s.bounds.Decoded-s.decoded+1)
		if s.decoded += n; s.decoded > s.bounds.Decoded {
			limit := bytesOf(s.bounds.Decoded)
			return 0, &beyond{"its compressed streams inflate to more than " + limit, limit}
		}
		if d.typ == "ObjStm" {
			out := bytes.NewBuffer(make([]byte, 0, n))
			s.inflateTo(out, raw, n)
			content = out.Bytes()
		}
	}
	if d.typ == "ObjStm" {
		if d.n > 0 {
			s.objects += d.n
			if err := s.objectsBeyond(); err != nil {
				return 0, err
			}
		}
		if err := s.scan(content, false); err != nil {
			return 0, err
		}
	}
	return end, nil
}

// inflateTo inflates raw, a zlib stream, into w, at most max bytes of it, and returns how
// many it wrote.
func (s *scanner) inflateTo(w io.Writer, raw []byte, max int64) int64 {
	var err error
	if s.inflate == nil {
		s.inflate, err = zlib.NewReader(bytes.NewReader(raw))
	} else {
		err = s.inflate.(zlib.Resetter).Reset(bytes.NewReader(raw), nil)
	}
	if err != nil {
		s.inflate = nil
		return 0
	}
	n, _ := io.CopyN(w, s.inflate, max)
	return n
}

// integer reads word as a PDF integer (7.3.3): digits, with a sign.
func integer(word []byte) (int64, bool) {
	digits := bytes.TrimLeft(word, "+-")
	if len(digits) == 0 || len(word)-len(digits) > 1 || len(digits) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if word[0] == '-' {
		n = -n
	}
	return n, true
}

// decodeName is a name's characters, each #xx written as the byte it stands for (7.3.5):
// /Fl#61teDecode is /FlateDecode.
func decodeName(b []byte) string {
	if bytes.IndexByte(b, '#') < 0 {
		return string(b)
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == '#' && i+2 < len(b) {
			if v, err := strconv.ParseUint(string(b[i+1:i+3]), 16, 8); err == nil {
				out = append(out, byte(v))
				i += 2
				continue
			}
		}
		out = append(out, b[i])
	}
	return string(out)
}

// reference says whether data at i, just after an integer, continues an indirect
// reference, " g R", and where it ends.
func reference(data []byte, i int) (int, bool) {
	j := i
	for j < len(data) && isSpace(data[j]) {
		j++
	}
	k := j
	for k < len(data) && data[k] >= '0' && data[k] <= '9' {
		k++
	}
	if k == j || k == len(data) || !isSpace(data[k]) {
		return i, false
	}
	for k < len(data) && isSpace(data[k]) {
		k++
	}
	if k < len(data) && data[k] == 'R' && (k+1 == len(data) || !isRegular(data[k+1])) {
		return k + 1, true
	}
	return i, false
}

// skipString returns the end of the literal string that starts at i: its parentheses
// balance, and a backslash escapes the next byte (7.3.4.2).
func skipString(data []byte, i int) int {
	depth := 0
	for ; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
	return len(data)
}

// skipHex returns the end of the hexadecimal string that starts at i (7.3.4.3).
func skipHex(data []byte, i int) int {
	if k := bytes.IndexByte(data[i:], '>'); k >= 0 {
		return i + k + 1
	}
	return len(data)
}

// isSpace says whether c is white-space (7.2.2, Table 1).
func isSpace(c byte) bool {
	return c == 0 || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' '
}

// isRegular says whether c is a regular character: neither white-space nor a delimiter
// (7.2.2, Table 2).
func isRegular(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return false
	}
	return !isSpace(c)
}
