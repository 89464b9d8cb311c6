// Package jsonfile reads the JSON files arc takes (cost profiles,
// topologies) token by token, so that every error says FILE:LINE:COL: the
// shared refusals (an empty file, a byte order mark, NaN and Infinity,
// which JSON lacks, an early end) and the offsets of tokens.
package jsonfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/arcpass/arc/ir"
)

// Error is a problem in a JSON file, at a 1-based line and byte column.
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg) }

// Reader walks the tokens of one file.
type Reader struct {
	File string
	Data []byte
	Dec  *json.Decoder // numbers as json.Number
	what string        // "profile": the words of messages
}

// Open starts reading data (named file in messages), a JSON document of
// the kind what names ("profile"), after refusing an empty one (want says
// what it should hold) and a byte order mark.
func Open(file string, data []byte, what, want string) (*Reader, error) {
	r := &Reader{File: file, Data: data, Dec: json.NewDecoder(bytes.NewReader(data)), what: what}
	r.Dec.UseNumber()
	switch {
	case len(bytes.TrimLeft(data, " \t\r\n")) == 0:
		return nil, r.ErrAt(0, "the %s is empty (want %s)", what, want)
	case bytes.HasPrefix(data, []byte("\xef\xbb\xbf")):
		return nil, r.ErrAt(0, "the %s starts with a byte order mark (U+FEFF), which JSON does not allow", what)
	}
	return r, nil
}

// Next returns the offset where the next token starts.
func (r *Reader) Next() int {
	off := int(r.Dec.InputOffset())
	for off < len(r.Data) && strings.IndexByte(" \t\r\n,:", r.Data[off]) >= 0 {
		off++
	}
	return off
}

// ErrAt is an *Error at byte offset off.
func (r *Reader) ErrAt(off int, format string, args ...any) error {
	pos := ir.PositionOf(r.Data, off)
	return &Error{File: r.File, Line: pos.Line, Col: pos.Col, Msg: fmt.Sprintf(format, args...)}
}

// Token reads the next token and where it starts.
func (r *Reader) Token() (json.Token, int, error) {
	off := r.Next()
	tok, err := r.Dec.Token()
	if err != nil {
		return nil, off, r.SyntaxError(err, off)
	}
	return tok, off, nil
}

// SyntaxError places a decoder error: a syntax error at the offending byte
// (NaN and Infinity named as such; numbers says what the file's numbers
// are), an early end at the end of the input, anything else at off.
func (r *Reader) SyntaxError(err error, off int) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return r.ErrAt(len(r.Data), "unexpected end of the %s", r.what)
	}
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return r.ErrAt(off, "%v", err)
	}
	// The stream decoder counts some offsets from the start of the value it
	// was reading; the whole-input scanner counts from the first byte and
	// stops at the same first error.
	if errors.As(json.Unmarshal(r.Data, new(any)), &se) {
		off = int(se.Offset) - 1
	}
	off = min(max(off, 0), len(r.Data))
	isWord := func(c byte) bool { return c == '+' || c == '-' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }
	start, end := off, off
	for start > 0 && isWord(r.Data[start-1]) {
		start--
	}
	for end < len(r.Data) && isWord(r.Data[end]) {
		end++
	}
	switch strings.ToLower(strings.TrimLeft(string(r.Data[start:end]), "+-")) {
	case "nan", "inf", "infinity":
		return r.ErrAt(start, "%s is not a JSON number: a %s's numbers are finite", r.Data[start:end], r.what)
	}
	return r.ErrAt(off, "%v", se)
}

// Load reads the file at path and parses it, naming it path.
func Load[T any](path string, parse func(file string, data []byte) (T, error)) (T, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		var none T
		return none, err
	}
	return parse(path, data)
}
