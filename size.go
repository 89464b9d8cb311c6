package arc

// Byte counts the way arc's flags and variables take them: 4096, 4K,
// 64KiB, 1M, 2G (binary units).

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseSize reads a byte count: "4096", "4K", "64KiB", "1M", "2G", "16MB".
// Suffixes are binary and case-insensitive. Zero is allowed; the count may
// not exceed 1 TiB.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSuffix(strings.TrimSuffix(strings.ToUpper(strings.TrimSpace(s)), "B"), "I")
	mult := int64(1)
	if t != "" {
		switch t[len(t)-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		}
		if mult > 1 {
			t = t[:len(t)-1]
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 0 || n > (1<<40)/mult {
		return 0, fmt.Errorf("bad size %q: want a byte count such as 4096, 4K, 64K, 1M", s)
	}
	return n * mult, nil
}

// FormatSize prints a count the way ParseSize reads it, in the largest unit that
// divides it: 4K, 1M, 1536K, 100.
func FormatSize(n int64) string {
	for _, u := range []struct {
		shift  uint
		suffix string
	}{{30, "G"}, {20, "M"}, {10, "K"}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return strconv.FormatInt(n>>u.shift, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}
