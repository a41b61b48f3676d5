package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
)

// printJSONText prints a JSON answer as one "path: value" line per leaf
// (`query <path> -o text`): objects by sorted key, arrays by index, null as
// "-".
func printJSONText(w io.Writer, bz []byte) error {
	dec := json.NewDecoder(bytes.NewReader(bz))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("answer is not JSON: %w", err)
	}
	var b strings.Builder
	writeLeaves(&b, "", v)
	_, err := io.WriteString(w, b.String())
	return err
}

func writeLeaves(b *strings.Builder, path string, v any) {
	join := func(k string) string {
		if path == "" {
			return k
		}
		return path + "." + k
	}
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if len(keys) == 0 {
			fmt.Fprintf(b, "%s: {}\n", path)
		}
		for _, k := range keys {
			writeLeaves(b, join(k), x[k])
		}
	case []any:
		if len(x) == 0 {
			fmt.Fprintf(b, "%s: []\n", path)
		}
		for i, e := range x {
			writeLeaves(b, fmt.Sprintf("%s[%d]", path, i), e)
		}
	default:
		fmt.Fprintf(b, "%s: %s\n", path, textValue(v))
	}
}

// textValue is a JSON leaf as a table cell: null as "-", strings bare.
func textValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "-"
	case string:
		return x
	default:
		return fmt.Sprint(x)
	}
}

// table prints rows under a header, columns aligned by spaces.
type table struct {
	header []string
	rows   [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) print(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(t.header, "\t"))
	for _, r := range t.rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	return tw.Flush()
}

// cell shows an optional value: "-" when absent.
func cell[T any](p *T) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprint(*p)
}

// yesNo is a boolean cell.
func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
