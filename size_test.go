package arc

import "testing"

func TestParseAndFormatSizeSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{{"0", 0}, {"4096", 4096}, {"4K", 4096}, {"4k", 4096}, {"64KiB", 64 << 10}, {"16MB", 16 << 20}, {"2g", 2 << 30}, {" 1M ", 1 << 20}} {
		got, err := ParseSize(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "K", "-1", "1.5M", "4T", "2000G", "lots"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) took it", bad)
		}
	}
	for n, want := range map[int64]string{4096: "4K", 1 << 20: "1M", 1536 << 10: "1536K", 100: "100", 3 << 30: "3G"} {
		if got := FormatSize(n); got != want {
			t.Errorf("FormatSize(%d) = %q, want %q", n, got, want)
		}
	}
}
